#ifndef WB_MHD_H
#define WB_MHD_H

// A small C layer over libmicrohttpd for what Swift cannot call directly:
// MHD_start_daemon and MHD_get_*_info are variadic, and the daemon options are a C list.
// Only incomplete struct types appear here, so Swift sees them as OpaquePointer and the
// header never clashes with the CMicroHTTPD module that imports microhttpd.h itself.

#include <stddef.h>
#include <stdint.h>

struct MHD_Connection;
struct MHD_Daemon;
struct MHD_Response;

/// Called for every step of a request (headers, each body piece, final call); `version` is
/// the request line's, such as "HTTP/1.1". Return 1 to keep the connection, 0 to close it.
typedef int (*wb_mhd_access_callback)(void *context, struct MHD_Connection *connection,
                                      const char *url, const char *method, const char *version,
                                      const char *upload_data, size_t *upload_data_size,
                                      void **request_state);

/// Called once a request is finished (answered, timed out, or aborted).
typedef void (*wb_mhd_completed_callback)(void *context, struct MHD_Connection *connection,
                                          void **request_state, int termination_code);

/// Called when a connection starts (`started` 1, with its socket) and when it closes
/// (`started` 0), always before libmicrohttpd closes the socket.
typedef void (*wb_mhd_connection_callback)(void *context, struct MHD_Connection *connection,
                                           int socket, int started);

/// Receives libmicrohttpd's own log lines (already formatted, no trailing newline).
typedef void (*wb_mhd_log_callback)(void *context, const char *message);

typedef struct wb_mhd_config {
    const char *bind_address;              // numeric IPv4 or IPv6 address
    uint16_t port;                         // 0 asks the kernel for a free port
    unsigned int connection_limit;
    unsigned int per_ip_connection_limit;
    unsigned int connection_timeout_seconds;
    unsigned int thread_pool_size;
    size_t connection_memory_limit;        // bytes per connection; 0 keeps libmicrohttpd's 32 KiB
    const char *tls_certificate_pem;       // NULL for plain HTTP
    const char *tls_private_key_pem;       // NULL for plain HTTP
} wb_mhd_config;

typedef struct wb_mhd_server wb_mhd_server;

/// Starts a daemon; returns NULL and fills `error` on failure.
wb_mhd_server *wb_mhd_start(const wb_mhd_config *config,
                            wb_mhd_access_callback access,
                            wb_mhd_completed_callback completed,
                            wb_mhd_connection_callback connection,
                            wb_mhd_log_callback log,
                            void *context,
                            char *error, size_t error_size);

/// The port the daemon is bound to (useful after asking for port 0).
uint16_t wb_mhd_bound_port(const wb_mhd_server *server);

/// Stops accepting new connections; requests in flight continue. Returns 0 on success.
int wb_mhd_quiesce(wb_mhd_server *server);

/// Stops the daemon, closes the listening socket and frees the server.
void wb_mhd_stop(wb_mhd_server *server);

/// Writes the client's numeric address into `buffer`; returns 0 on success.
int wb_mhd_client_address(struct MHD_Connection *connection, char *buffer, size_t size);

/// The response to a HEAD of a streamed resource: the headers the caller adds, no length and
/// no body, and the connection closed after it.
struct MHD_Response *wb_mhd_create_head_of_stream_response(void);
/// 1 when this libmicrohttpd build supports TLS.
int wb_mhd_tls_supported(void);

#endif
