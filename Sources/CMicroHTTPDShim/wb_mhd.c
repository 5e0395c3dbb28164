#include "wb_mhd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>
#include <microhttpd.h>

struct wb_mhd_server {
    struct MHD_Daemon *daemon;
    wb_mhd_access_callback access;
    wb_mhd_completed_callback completed;
    wb_mhd_connection_callback connection;
    wb_mhd_log_callback log;
    void *context;
    MHD_socket quiesced_socket;
    int starting;
    char start_error[256];
    char *certificate;
    char *private_key;
    union {
        struct sockaddr_in v4;
        struct sockaddr_in6 v6;
    } address;
};

static enum MHD_Result wb_access_trampoline(void *cls, struct MHD_Connection *connection,
                                            const char *url, const char *method,
                                            const char *version, const char *upload_data,
                                            size_t *upload_data_size, void **request_state) {
    struct wb_mhd_server *server = cls;
    int keep = server->access(server->context, connection, url, method, version, upload_data,
                              upload_data_size, request_state);
    return keep ? MHD_YES : MHD_NO;
}

static void wb_completed_trampoline(void *cls, struct MHD_Connection *connection,
                                    void **request_state, enum MHD_RequestTerminationCode code) {
    struct wb_mhd_server *server = cls;
    server->completed(server->context, connection, request_state, (int)code);
}

static void wb_connection_trampoline(void *cls, struct MHD_Connection *connection,
                                     void **socket_context, enum MHD_ConnectionNotificationCode code) {
    (void)socket_context;
    struct wb_mhd_server *server = cls;
    int socket = -1;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info =
            MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        socket = info == NULL ? -1 : (int)info->connect_fd;
    }
    server->connection(server->context, connection, socket, code == MHD_CONNECTION_NOTIFY_STARTED);
}

static void wb_log_trampoline(void *cls, const char *format, va_list arguments) {
    struct wb_mhd_server *server = cls;
    char line[512];
    vsnprintf(line, sizeof line, format, arguments);
    size_t length = strlen(line);
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) {
        line[--length] = '\0';
    }
    if (server->starting) {
        // Only the starting thread writes here, so the first failure reason survives.
        snprintf(server->start_error, sizeof server->start_error, "%s", line);
    }
    if (server->log != NULL) {
        server->log(server->context, line);
    }
}

// Keeps the URL and query exactly as received: Swift decodes them, so that an encoded
// slash in a path segment stays inside its segment.
static size_t wb_keep_escapes(void *cls, struct MHD_Connection *connection, char *text) {
    (void)cls;
    (void)connection;
    return strlen(text);
}

static void wb_free_server(struct wb_mhd_server *server) {
    free(server->certificate);
    free(server->private_key);
    free(server);
}

wb_mhd_server *wb_mhd_start(const wb_mhd_config *config,
                            wb_mhd_access_callback access,
                            wb_mhd_completed_callback completed,
                            wb_mhd_connection_callback connection,
                            wb_mhd_log_callback log,
                            void *context,
                            char *error, size_t error_size) {
    struct wb_mhd_server *server = calloc(1, sizeof *server);
    if (server == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    server->access = access;
    server->completed = completed;
    server->connection = connection;
    server->log = log;
    server->context = context;
    server->quiesced_socket = MHD_INVALID_SOCKET;
    server->starting = 1;

    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ERROR_LOG
                         | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC;
    memset(&server->address, 0, sizeof server->address);
    if (inet_pton(AF_INET, config->bind_address, &server->address.v4.sin_addr) == 1) {
        server->address.v4.sin_family = AF_INET;
        server->address.v4.sin_port = htons(config->port);
    } else if (inet_pton(AF_INET6, config->bind_address, &server->address.v6.sin6_addr) == 1) {
        server->address.v6.sin6_family = AF_INET6;
        server->address.v6.sin6_port = htons(config->port);
        flags |= MHD_USE_IPv6;
    } else {
        snprintf(error, error_size, "not a numeric IPv4 or IPv6 address: %s", config->bind_address);
        wb_free_server(server);
        return NULL;
    }

    struct MHD_OptionItem options[16];
    size_t count = 0;
    options[count++] = (struct MHD_OptionItem){
        MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)wb_log_trampoline, server};
    options[count++] = (struct MHD_OptionItem){
        MHD_OPTION_SOCK_ADDR, 0, &server->address};
    options[count++] = (struct MHD_OptionItem){
        MHD_OPTION_CONNECTION_LIMIT, (intptr_t)config->connection_limit, NULL};
    options[count++] = (struct MHD_OptionItem){
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)config->per_ip_connection_limit, NULL};
    options[count++] = (struct MHD_OptionItem){
        MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)config->connection_timeout_seconds, NULL};
    if (config->connection_memory_limit > 0) {
        options[count++] = (struct MHD_OptionItem){
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)config->connection_memory_limit, NULL};
    }
    if (config->thread_pool_size > 1) {
        options[count++] = (struct MHD_OptionItem){
            MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)config->thread_pool_size, NULL};
    }
    options[count++] = (struct MHD_OptionItem){
        MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)wb_completed_trampoline, server};
    options[count++] = (struct MHD_OptionItem){
        MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)wb_connection_trampoline, server};
    options[count++] = (struct MHD_OptionItem){
        MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)wb_keep_escapes, NULL};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024, NULL};
    if (config->tls_certificate_pem != NULL && config->tls_private_key_pem != NULL) {
        // libmicrohttpd keeps pointers to the PEM text, so the server owns copies.
        server->certificate = strdup(config->tls_certificate_pem);
        server->private_key = strdup(config->tls_private_key_pem);
        if (server->certificate == NULL || server->private_key == NULL) {
            snprintf(error, error_size, "out of memory");
            wb_free_server(server);
            return NULL;
        }
        flags |= MHD_USE_TLS;
        options[count++] = (struct MHD_OptionItem){
            MHD_OPTION_HTTPS_MEM_CERT, 0, server->certificate};
        options[count++] = (struct MHD_OptionItem){
            MHD_OPTION_HTTPS_MEM_KEY, 0, server->private_key};
    }
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};

    server->daemon = MHD_start_daemon(flags, config->port, NULL, NULL,
                                      wb_access_trampoline, server,
                                      MHD_OPTION_ARRAY, options,
                                      MHD_OPTION_END);
    server->starting = 0;
    if (server->daemon == NULL) {
        if (server->start_error[0] != '\0') {
            snprintf(error, error_size, "%s", server->start_error);
        } else {
            snprintf(error, error_size, "could not start the HTTP daemon on %s port %u (%s)",
                     config->bind_address, (unsigned)config->port, strerror(errno));
        }
        wb_free_server(server);
        return NULL;
    }
    return server;
}

uint16_t wb_mhd_bound_port(const wb_mhd_server *server) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

int wb_mhd_quiesce(wb_mhd_server *server) {
    if (server->quiesced_socket != MHD_INVALID_SOCKET) {
        return 0;
    }
    MHD_socket socket = MHD_quiesce_daemon(server->daemon);
    if (socket == MHD_INVALID_SOCKET) {
        return -1;
    }
    server->quiesced_socket = socket;
    // The socket must stay open until MHD_stop_daemon (pool threads may still hold it), but
    // on Linux shutting it down makes the kernel refuse new connections at once instead of
    // queueing them in a backlog nobody will ever accept from.
    shutdown(socket, SHUT_RDWR);
    return 0;
}

void wb_mhd_stop(wb_mhd_server *server) {
    if (server == NULL) {
        return;
    }
    MHD_stop_daemon(server->daemon);
    if (server->quiesced_socket != MHD_INVALID_SOCKET) {
        close(server->quiesced_socket);
    }
    wb_free_server(server);
}

int wb_mhd_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL || size == 0) {
        return -1;
    }
    const struct sockaddr *address = info->client_addr;
    const void *bytes = NULL;
    if (address->sa_family == AF_INET) {
        bytes = &((const struct sockaddr_in *)address)->sin_addr;
    } else if (address->sa_family == AF_INET6) {
        bytes = &((const struct sockaddr_in6 *)address)->sin6_addr;
    } else {
        return -1;
    }
    return inet_ntop(address->sa_family, bytes, buffer, (socklen_t)size) == NULL ? -1 : 0;
}

static ssize_t wb_no_content(void *cls, uint64_t position, char *buffer, size_t size) {
    (void)cls;
    (void)position;
    (void)buffer;
    (void)size;
    return MHD_CONTENT_READER_END_OF_STREAM;
}

struct MHD_Response *wb_mhd_create_head_of_stream_response(void) {
    struct MHD_Response *response =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64, wb_no_content, NULL, NULL);
    if (response != NULL) {
        // Without it, 0.9.75 frames the unknown length as chunked and sends the last chunk
        // even to a HEAD; as HTTP/1.0 it sends neither a length nor a body, then closes.
        MHD_set_response_options(response, MHD_RF_HTTP_1_0_SERVER, MHD_RO_END);
    }
    return response;
}

int wb_mhd_tls_supported(void) {
    return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES ? 1 : 0;
}
