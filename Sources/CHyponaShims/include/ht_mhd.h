#ifndef HT_MHD_H
#define HT_MHD_H
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

// MHD_get_version is not variadic; this header is where typed wrappers for MHD's variadic
// functions (MHD_start_daemon, MHD_get_connection_info, ...) live.
const char *ht_mhd_version(void);

#endif
