/*
 * The ceiling of the HTTP engine: the smallest libmicrohttpd server that serves one file's bytes
 * as application/json for every GET, with the same daemon settings as the workbook's server
 * (internal polling thread, epoll where available, a pool of 2 threads, 1024 connections).
 * bench/server/run builds it with cc and pkg-config and serves the workbook's own AASA bytes.
 *
 *   minimal FILE    prints "listening on PORT" (a free port on 127.0.0.1), serves until SIGTERM
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <microhttpd.h>

static struct MHD_Response *response;

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **request_state) {
    (void)cls;
    (void)url;
    (void)version;
    (void)upload_data;
    (void)upload_data_size;
    (void)request_state;
    if (strcmp(method, "GET") != 0) {
        return MHD_NO;
    }
    return MHD_queue_response(connection, MHD_HTTP_OK, response);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: minimal FILE\n");
        return 64;
    }
    FILE *file = fopen(argv[1], "rb");
    if (file == NULL) {
        perror(argv[1]);
        return 2;
    }
    static char body[1 << 20];
    size_t length = fread(body, 1, sizeof body, file);
    fclose(file);

    response = MHD_create_response_from_buffer(length, body, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(response, "Content-Type", "application/json");

    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = 0;
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);

    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_USE_ERROR_LOG, 0, NULL, NULL, answer, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)2,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned int)1024,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)512,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned int)1024,
        MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "cannot start the daemon\n");
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    printf("listening on %u\n", info == NULL ? 0u : (unsigned)info->port);
    fflush(stdout);

    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    sigprocmask(SIG_BLOCK, &signals, NULL);
    int received;
    sigwait(&signals, &received);
    MHD_stop_daemon(daemon);
    MHD_destroy_response(response);
    return 0;
}
