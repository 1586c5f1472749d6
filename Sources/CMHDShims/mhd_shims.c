#define _GNU_SOURCE
#include <pthread.h>
#include "ht_mhd.h"

const char *ht_mhd_version(void) { return MHD_get_version(); }

// MHD_start_daemon is variadic; Swift cannot call it. MHD_OPTION_ARRAY lets us pass a
// plain array instead: "For options that expect two pointer arguments, the first argument
// must be cast to `intptr_t`" (microhttpd.h, MHD_OPTION_ARRAY).
struct MHD_Daemon *ht_mhd_start(const struct ht_mhd_start_options *o) {
    struct MHD_OptionItem items[20];
    unsigned int n = 0;

    // "Should be specified as the first option, otherwise some messages may be printed by
    // standard MHD logger during daemon startup." (MHD_OPTION_EXTERNAL_LOGGER)
    if (o->logger != NULL)
        items[n++] = (struct MHD_OptionItem){ MHD_OPTION_EXTERNAL_LOGGER,
                                              (intptr_t)o->logger, o->logger_cls };
    if (o->listen_fd >= 0)
        items[n++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_SOCKET, o->listen_fd, NULL };
    else if (o->bind_address != NULL)
        items[n++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0,
                                              (void *)o->bind_address };
    if (o->thread_pool_size > 1)
        items[n++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE,
                                              (intptr_t)o->thread_pool_size, NULL };
    if (o->connection_limit > 0)
        items[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT,
                                              (intptr_t)o->connection_limit, NULL };
    if (o->per_ip_connection_limit > 0)
        items[n++] = (struct MHD_OptionItem){ MHD_OPTION_PER_IP_CONNECTION_LIMIT,
                                              (intptr_t)o->per_ip_connection_limit, NULL };
    if (o->connection_timeout_seconds > 0)
        items[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT,
                                              (intptr_t)o->connection_timeout_seconds, NULL };
    if (o->connection_memory_limit > 0)
        items[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT,
                                              (intptr_t)o->connection_memory_limit, NULL };
    if (o->notify_completed != NULL)
        items[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED,
                                              (intptr_t)o->notify_completed,
                                              o->notify_completed_cls };
    if (o->uri_log != NULL)
        items[n++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK,
                                              (intptr_t)o->uri_log, o->uri_log_cls };
    if (o->notify_connection != NULL)
        items[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION,
                                              (intptr_t)o->notify_connection,
                                              o->notify_connection_cls };
    items[n++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };

    return MHD_start_daemon(o->flags, o->port, o->accept_policy, o->accept_policy_cls,
                            o->access_handler, o->access_handler_cls,
                            MHD_OPTION_ARRAY, items,
                            MHD_OPTION_END);
}

// MHD_get_daemon_info is variadic.
uint16_t ht_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// MHD_get_daemon_info is variadic.
int ht_mhd_listen_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
    return info == NULL ? -1 : (int)info->listen_fd;
}

// MHD_get_connection_info is variadic.
const struct sockaddr *ht_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

// MHD_get_connection_info is variadic.
int ht_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

// pthread_setname_np needs _GNU_SOURCE, which Swift's Glibc module does not define.
void ht_set_thread_name(const char *name) { (void)pthread_setname_np(pthread_self(), name); }
