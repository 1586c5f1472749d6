/// One job submitted to a `GroupCommitWriter`, on its way from a submitter to the writer
/// thread and back.
///
/// `@unchecked Sendable` because it crosses threads in a controlled hand-off: it is created
/// by the submitter, handed to the writer thread through `WriteQueue`'s lock (which orders
/// the accesses), run and completed only on the writer thread, and the submitter reads its
/// result only after `completion` has signalled it.
final class PendingWrite: @unchecked Sendable {
    private var body: ((Connection) throws -> Void)?
    private let completion: ((any Error)?) -> Void

    /// - Parameters:
    ///   - body: runs the job on the writer's connection and stores its value for the submitter.
    ///   - completion: called once, after COMMIT (or the failure that replaced it), with the
    ///     job's error or nil.
    init(body: @escaping (Connection) throws -> Void, completion: @escaping ((any Error)?) -> Void) {
        self.body = body
        self.completion = completion
    }

    /// Runs the job's closure (at most once) and releases it before returning. Releasing
    /// early matters: the blocking `write` lends a non-escaping closure through
    /// `withoutActuallyEscaping`, which traps if the closure is still referenced when the
    /// submitter resumes.
    func run(on db: Connection) throws {
        guard let body else { return }
        self.body = nil
        try body(db)
    }

    /// Reports the outcome to the submitter; drops the closure if it never ran.
    func complete(_ error: (any Error)?) {
        body = nil
        completion(error)
    }
}
