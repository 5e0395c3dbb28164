#ifndef WB_CMICROHTTPD_SHIM_H
#define WB_CMICROHTTPD_SHIM_H
// libmicrohttpd expects the socket and stdarg types to be declared before its header.
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
#endif
