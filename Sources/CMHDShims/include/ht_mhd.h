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

/// Signature of MHD_OPTION_URI_LOG_CALLBACK's function (the header only documents it in prose).
typedef void *(*ht_mhd_uri_log_callback)(void *cls, const char *uri,
                                         struct MHD_Connection *connection);

/// Everything `ht_mhd_start` turns into MHD options. Zero / NULL means "leave MHD's default"
/// for every field except `listen_fd`, where 0 is a real descriptor: set it to -1 for none.
struct ht_mhd_start_options {
    /// `MHD_FLAG` bits (threading mode, MHD_USE_ITC, MHD_USE_IPv6, ...).
    unsigned int flags;
    /// Port to bind when `listen_fd` is -1 (0 = ephemeral).
    uint16_t port;
    /// MHD_OPTION_SOCK_ADDR; NULL = any address. Only read during `ht_mhd_start`.
    const struct sockaddr *bind_address;
    /// MHD_OPTION_LISTEN_SOCKET: an already bound and listening socket, or -1.
    int listen_fd;
    /// MHD_OPTION_THREAD_POOL_SIZE (0 or 1 = no pool).
    unsigned int thread_pool_size;
    /// MHD_OPTION_CONNECTION_LIMIT (0 = MHD default).
    unsigned int connection_limit;
    /// MHD_OPTION_PER_IP_CONNECTION_LIMIT (0 = unlimited).
    unsigned int per_ip_connection_limit;
    /// MHD_OPTION_CONNECTION_TIMEOUT in seconds (0 = never time out).
    unsigned int connection_timeout_seconds;
    /// MHD_OPTION_CONNECTION_MEMORY_LIMIT in bytes (0 = MHD default, 32 KiB).
    size_t connection_memory_limit;

    MHD_AccessHandlerCallback access_handler;
    void *access_handler_cls;
    /// MHD_OPTION_NOTIFY_COMPLETED (NULL = not set).
    MHD_RequestCompletedCallback notify_completed;
    void *notify_completed_cls;
    /// MHD_OPTION_URI_LOG_CALLBACK (NULL = not set).
    ht_mhd_uri_log_callback uri_log;
    void *uri_log_cls;
    /// MHD_OPTION_EXTERNAL_LOGGER (NULL = not set).
    MHD_LogCallback logger;
    void *logger_cls;
    /// MHD_OPTION_NOTIFY_CONNECTION: a connection started or closed (NULL = not set).
    MHD_NotifyConnectionCallback notify_connection;
    void *notify_connection_cls;
    /// MHD_start_daemon's accept policy: called before a new connection is admitted
    /// (NULL = admit all).
    MHD_AcceptPolicyCallback accept_policy;
    void *accept_policy_cls;
};

/// Replaces the variadic MHD_start_daemon: builds an MHD_OptionItem array from `options` and
/// passes it with MHD_OPTION_ARRAY. Returns NULL when MHD refuses to start.
struct MHD_Daemon *ht_mhd_start(const struct ht_mhd_start_options *options);

/// Replaces the variadic MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT).
/// Returns 0 when unknown.
uint16_t ht_mhd_bound_port(struct MHD_Daemon *daemon);

/// Replaces the variadic MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD).
/// Returns -1 when the daemon has no listen socket.
int ht_mhd_listen_fd(struct MHD_Daemon *daemon);

/// Replaces the variadic MHD_get_connection_info(connection,
/// MHD_CONNECTION_INFO_CLIENT_ADDRESS). The address is owned by MHD and valid while the
/// connection is; NULL when unknown.
const struct sockaddr *ht_mhd_client_address(struct MHD_Connection *connection);

/// Replaces the variadic MHD_get_connection_info(connection,
/// MHD_CONNECTION_INFO_CONNECTION_FD). -1 when unknown.
int ht_mhd_connection_fd(struct MHD_Connection *connection);

/// Names the calling thread (Linux keeps 15 bytes); for the server's own threads.
void ht_set_thread_name(const char *name);

#endif
