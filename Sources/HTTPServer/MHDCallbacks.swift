import CMHDShims
import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#endif

/// The C entry points handed to libmicrohttpd. They are non-capturing closures stored in
/// static properties of this file (never top-level code in `main.swift`, whose closures are
/// main-actor isolated and trap when MHD calls them from its threads). Each one only
/// recovers the `ServerCore` from its `cls` pointer (passed unretained: the server keeps the
/// core alive until after `MHD_stop_daemon`) and forwards.
enum MHDCallbacks {
    static let accessHandler: MHD_AccessHandlerCallback = {
        cls, connection, url, method, version, uploadData, uploadSize, slot in
        guard let cls, let connection, let uploadSize, let slot else { return .NO }
        return core(cls).access(connection: connection, method: method, url: url, version: version,
                                uploadData: uploadData, uploadSize: uploadSize, slot: slot)
    }

    static let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, slot, termination in
        guard let cls else { return }
        core(cls).requestCompleted(connection, slot, termination: termination)
    }

    /// A connection opened or closed (MHD_OPTION_NOTIFY_CONNECTION): the guard's table.
    static let notifyConnection: MHD_NotifyConnectionCallback = { cls, connection, _, code in
        guard let cls, let connection else { return }
        let guardian = core(cls).guardian
        let key = ServerCore.key(connection)
        if code.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED; else MHD_CONNECTION_NOTIFY_CLOSED
            guardian.opened(key, fd: ht_mhd_connection_fd(connection),
                            ip: SocketAddress.ipString(ht_mhd_client_address(connection)))
        } else {
            guardian.closed(key)
        }
    }

    /// Before a connection is admitted: the per-IP cap.
    static let acceptPolicy: MHD_AcceptPolicyCallback = { cls, address, _ in
        guard let cls else { return .YES }
        return core(cls).guardian.admits(ip: SocketAddress.ipString(address)) ? .YES : .NO
    }

    static let uriLog: ht_mhd_uri_log_callback = { cls, uri, _ in
        guard let cls else { return nil }
        return core(cls).requestStarted(rawTarget: uri)
    }

    /// MHD_OPTION_EXTERNAL_LOGGER gets a printf format and a `va_list`; format it here.
    static let logger: MHD_LogCallback = { cls, format, arguments in
        guard let cls, let format, let arguments, let diagnostics = core(cls).diagnostics else { return }
        var buffer = [CChar](repeating: 0, count: 1024)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        var message = String(decoding: bytes, as: UTF8.self)
        while message.last?.isNewline == true { message.removeLast() }
        diagnostics(message)
    }

    private static func core(_ cls: UnsafeMutableRawPointer) -> ServerCore {
        Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    }
}
