#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Runs one executable directly (posix_spawn, no shell), feeds it `input` on stdin, collects
/// bounded stdout and stderr, and waits for it — at most `timeout`, or until `interrupted()`
/// turns true (the daemon is stopping), then SIGTERM to its process group, `killGrace` later
/// SIGKILL. It is always reaped (no zombie) and every pipe is closed (no fd leak), whatever
/// happens.
///
/// The child starts in its own process group (so a timeout also stops what it spawned), with
/// every signal at its default disposition and none blocked (the daemon ignores SIGPIPE, and
/// ignored dispositions survive exec), with only stdin, stdout and stderr open (glibc's
/// `posix_spawn_file_actions_addclosefrom_np`), and with exactly the given environment.
struct ChildProcess: Sendable {
    enum Termination: Sendable, Equatable {
        /// `exit(status)`.
        case exited(Int32)
        /// Killed by a signal it did not catch (not by us).
        case signaled(Int32)
        /// Still running at the deadline; it was killed.
        case timedOut
        /// Still running when `interrupted()` turned true; it was killed.
        case interrupted
        /// Reaped by someone else (a `waitpid(-1, …)` elsewhere in the process): unknown.
        case unknown
    }

    struct Outcome: Sendable {
        var termination: Termination
        /// The first `outputLimit` bytes of stdout.
        var stdout: [UInt8]
        /// The last `outputLimit` bytes of stderr.
        var stderrTail: [UInt8]
    }

    struct LaunchError: Error, Sendable {
        enum Kind: Sendable { case notFound, notExecutable, resources }
        var kind: Kind
        var message: String
    }

    let path: String
    let arguments: [String]
    let environment: [String]
    var timeout: Duration
    var killGrace: Duration
    var outputLimit = 8 * 1024
    /// Polled while the child runs (every 25 ms at most): true ends the run as a timeout does.
    var interrupted: @Sendable () -> Bool = { false }

    func run(input: [UInt8]) -> Result<Outcome, LaunchError> {
        Self.ignoreSIGPIPEOnce()
        let launched: Launched
        switch launch() {
        case .success(let l): launched = l
        case .failure(let e): return .failure(e)
        }
        return .success(supervise(launched, input: input))
    }

    // MARK: - Launch

    private struct Launched {
        var pid: pid_t
        var stdin: Int32
        var stdout: Int32
        var stderr: Int32
    }

    private func launch() -> Result<Launched, LaunchError> {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            return .failure(LaunchError(kind: code == ENOENT || code == ENOTDIR ? .notFound : .notExecutable,
                                        message: "\(path): \(Self.text(of: code))"))
        }
        guard info.st_mode & S_IFMT == S_IFREG, access(path, X_OK) == 0 else {
            return .failure(LaunchError(kind: .notExecutable, message: "\(path) is not an executable file"))
        }

        // Creating the pipes and spawning happen under one lock: where pipe2 is missing, a
        // concurrent spawn could otherwise inherit a pipe end between pipe() and FD_CLOEXEC
        // and hold our child's stdout open long after it exited.
        return Self.spawnLock.withLock { _ -> Result<Launched, LaunchError> in
            var pipes: [(read: Int32, write: Int32)] = []
            for _ in 0..<3 {
                guard let p = Self.makePipe() else {
                    let code = errno
                    for p in pipes { close(p.read); close(p.write) }
                    return .failure(LaunchError(kind: .resources, message: "pipe: \(Self.text(of: code))"))
                }
                pipes.append(p)
            }
            let (input, output, errors) = (pipes[0], pipes[1], pipes[2])
            let spawned = spawn(stdin: input.read, stdout: output.write, stderr: errors.write)
            // The child's ends belong to the child now (or to nobody).
            close(input.read); close(output.write); close(errors.write)
            switch spawned {
            case .success(let pid):
                for fd in [input.write, output.read, errors.read] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
                return .success(Launched(pid: pid, stdin: input.write, stdout: output.read, stderr: errors.read))
            case .failure(let e):
                close(input.write); close(output.read); close(errors.read)
                return .failure(e)
            }
        }
    }

    private func spawn(stdin: Int32, stdout: Int32, stderr: Int32) -> Result<pid_t, LaunchError> {
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        // dup2 onto 0, 1, 2 clears FD_CLOEXEC on the copies; the originals (all > 2, see
        // makePipe) close at exec.
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        // Descriptors the daemon opened without O_CLOEXEC (libraries' sockets, files) must not
        // reach a site script: close everything from 3 on in the child.
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }

        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard code == 0 else {
            let kind: LaunchError.Kind = switch code {
            case ENOENT, ENOTDIR: .notFound
            case EACCES, ENOEXEC, EPERM, EISDIR, ELOOP, ENAMETOOLONG, ETXTBSY: .notExecutable
            default: .resources
            }
            return .failure(LaunchError(kind: kind, message: "cannot start \(path): \(Self.text(of: code))"))
        }
        return .success(pid)
    }

    // MARK: - Supervision

    private func supervise(_ child: Launched, input: [UInt8]) -> Outcome {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var stdinFD: Int32? = child.stdin, stdoutFD: Int32? = child.stdout, stderrFD: Int32? = child.stderr
        var written = 0
        var stdout: [UInt8] = [], stderr: [UInt8] = []
        var status: Int32?
        var killedAt: ContinuousClock.Instant?
        var wasInterrupted = false
        var buffer = [UInt8](repeating: 0, count: 4096)

        func closeFD(_ fd: inout Int32?) {
            if let open = fd { close(open) }
            fd = nil
        }
        if input.isEmpty { closeFD(&stdinFD) }

        /// Reads what is available; false at EOF or on error.
        func drain(_ fd: Int32, tail: Bool, into collected: inout [UInt8]) -> Bool {
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    collected.append(contentsOf: buffer[0..<n])
                    if collected.count > outputLimit {
                        if tail { collected.removeFirst(collected.count - outputLimit) } else { collected.removeLast(collected.count - outputLimit) }
                    }
                    continue
                }
                if n < 0, errno == EINTR { continue }
                if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { return true }
                return false
            }
        }

        while status == nil {
            let now = clock.now
            if killedAt == nil, now >= deadline || interrupted() {
                wasInterrupted = now < deadline
                // Ask politely first: the whole group, so helpers the script started stop too.
                kill(-child.pid, SIGTERM)
                kill(child.pid, SIGTERM)
                killedAt = now
            }
            if let killedAt, now >= killedAt.advanced(by: killGrace) {
                kill(-child.pid, SIGKILL)
                kill(child.pid, SIGKILL)
                status = Self.waitBlocking(child.pid)
                break
            }

            var fds: [pollfd] = []
            if let fd = stdinFD { fds.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)) }
            if let fd = stdoutFD { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            if let fd = stderrFD { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            // Short waits: the child's exit is noticed by waitpid below, not by a pipe event
            // (a grandchild may keep the pipes open).
            let limit = (killedAt.map { $0.advanced(by: killGrace) } ?? deadline)
            let wait = min(25, max(1, Self.milliseconds(clock.now.duration(to: limit))))
            let ready = fds.isEmpty ? Int32(usleep(UInt32(wait) * 1000)) : poll(&fds, nfds_t(fds.count), Int32(wait))
            if ready > 0 {
                for entry in fds where entry.revents != 0 {
                    if entry.fd == stdinFD {
                        if entry.revents & Int16(POLLOUT) != 0, written < input.count {
                            let n = input.withUnsafeBytes { write(entry.fd, $0.baseAddress! + written, $0.count - written) }
                            if n > 0 { written += n } else if n < 0, errno != EAGAIN, errno != EINTR { closeFD(&stdinFD) }
                        } else {
                            closeFD(&stdinFD) // POLLERR/POLLHUP: the child closed its stdin.
                        }
                        if written >= input.count { closeFD(&stdinFD) }
                    } else if entry.fd == stdoutFD {
                        if !drain(entry.fd, tail: false, into: &stdout) { closeFD(&stdoutFD) }
                    } else if entry.fd == stderrFD {
                        if !drain(entry.fd, tail: true, into: &stderr) { closeFD(&stderrFD) }
                    }
                }
            }
            status = Self.waitNonBlocking(child.pid)
        }

        // After a timeout nothing of the group may outlive it, whatever the leader did. The
        // group id cannot have been reused: Linux keeps a pid number in use while any process
        // still has it as its process group.
        if killedAt != nil { kill(-child.pid, SIGKILL) }
        // The child is gone: take what it wrote last, then close everything.
        if let fd = stdoutFD { _ = drain(fd, tail: false, into: &stdout) }
        if let fd = stderrFD { _ = drain(fd, tail: true, into: &stderr) }
        closeFD(&stdinFD); closeFD(&stdoutFD); closeFD(&stderrFD)

        let termination: Termination
        if killedAt != nil {
            termination = wasInterrupted ? .interrupted : .timedOut
        } else if status == Self.reapedElsewhere {
            termination = .unknown
        } else if let status, status & 0x7F == 0 {
            termination = .exited((status >> 8) & 0xFF)          // WIFEXITED / WEXITSTATUS
        } else {
            termination = .signaled((status ?? 0) & 0x7F)         // WTERMSIG
        }
        return Outcome(termination: termination, stdout: stdout, stderrTail: stderr)
    }

    /// The wait status if the child has ended (and is now reaped), else nil.
    private static func waitNonBlocking(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { return status }
            if r == 0 { return nil }
            if errno == EINTR { continue }
            return reapedElsewhere
        }
    }

    private static func waitBlocking(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return reapedElsewhere }
        }
        return status
    }

    /// Not a wait status waitpid can produce (ECHILD: someone else reaped the child).
    private static let reapedElsewhere = Int32.min

    // MARK: - Helpers

    private static let spawnLock = Mutex(())

    /// A pipe whose two ends close on exec and are numbered above 2 (a pipe end numbered 0–2
    /// could not be dup2'ed onto its own number with FD_CLOEXEC cleared).
    private static func makePipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        if let pipe2 = Self.pipe2 {
            guard pipe2(&fds, O_CLOEXEC) == 0 else { return nil }
        } else {
            guard pipe(&fds) == 0 else { return nil }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        for i in 0..<2 where fds[i] <= 2 {
            let moved = fcntl(fds[i], F_DUPFD_CLOEXEC, 3)
            close(fds[i])
            fds[i] = moved
        }
        guard fds[0] >= 0, fds[1] >= 0 else {
            for fd in fds where fd >= 0 { close(fd) }
            return nil
        }
        return (fds[0], fds[1])
    }

    /// glibc functions Swift's Glibc module does not declare (they need `_GNU_SOURCE`),
    /// looked up once: `pipe2` (glibc 2.9) and `posix_spawn_file_actions_addclosefrom_np`
    /// (glibc 2.34; Debian 12 ships 2.36). Without them the fallbacks above apply.
    private typealias Pipe2Function = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
    #if canImport(Glibc)
    private typealias AddCloseFromFunction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    #else
    private typealias AddCloseFromFunction = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t?>?, Int32) -> Int32
    #endif
    private static let pipe2: Pipe2Function? = symbol("pipe2", as: Pipe2Function.self)
    private static let addCloseFrom: AddCloseFromFunction? = symbol("posix_spawn_file_actions_addclosefrom_np",
                                                                   as: AddCloseFromFunction.self)

    private static func symbol<F>(_ name: String, as type: F.Type) -> F? {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: type)
    }

    /// Writing to a pipe whose reader has exited raises SIGPIPE, fatal by default. The daemon
    /// ignores it already (CurlRuntime); make sure of it here too, unless someone installed a
    /// handler. Children get the default back (POSIX_SPAWN_SETSIGDEF).
    private static let sigpipeIgnored: Bool = {
        var current = sigaction()
        guard sigaction(SIGPIPE, nil, &current) == 0 else { return false }
        #if canImport(Glibc)
        let isDefault = current.__sigaction_handler.sa_handler == nil && current.sa_flags & SA_SIGINFO == 0
        #else
        let isDefault = current.__sigaction_u.__sa_handler == nil && current.sa_flags & SA_SIGINFO == 0
        #endif
        if isDefault { _ = signal(SIGPIPE, SIG_IGN) }
        return true
    }()

    private static func ignoreSIGPIPEOnce() { _ = sigpipeIgnored }

    static func milliseconds(_ d: Duration) -> Int {
        let (s, atto) = d.components
        guard s >= 0 else { return 0 }
        return Int(min(s, 1_000_000)) * 1000 + Int(atto / 1_000_000_000_000_000)
    }

    static func text(of code: Int32) -> String {
        String(cString: strerror(code))
    }
}
