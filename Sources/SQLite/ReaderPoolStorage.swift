import Foundation

/// The pool's mutable state. `@unchecked Sendable`: all properties are guarded by
/// `condition`'s lock, and a `Connection` is only ever in `idle` or lent to one caller.
final class ReaderPoolStorage: @unchecked Sendable {
    private let condition = NSCondition()
    private let path: String
    private let options: Connection.Options
    private let maximumReaders: Int
    private var idle: [Connection] = []
    private var openCount = 0
    private var closed = false

    init(path: String, options: Connection.Options, maximumReaders: Int) {
        self.path = path
        self.options = options
        self.maximumReaders = maximumReaders
    }

    func prime() throws {
        let db = try Connection(path: path, options: options)
        condition.lock()
        openCount += 1
        idle.append(db)
        condition.unlock()
    }

    func checkOut() throws -> Connection {
        condition.lock()
        while idle.isEmpty && openCount >= maximumReaders && !closed { condition.wait() }
        if closed {
            condition.unlock()
            throw SQLiteError.misuse("the ReaderPool is closed")
        }
        if let db = idle.popLast() {
            condition.unlock()
            return db
        }
        openCount += 1
        condition.unlock()
        // Open outside the lock: opening touches the disk.
        do {
            return try Connection(path: path, options: options)
        } catch {
            condition.lock()
            openCount -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    func checkIn(_ db: Connection) {
        db.rollbackIfOpen()
        condition.lock()
        if closed {
            openCount -= 1
            condition.unlock()
            db.close()
            return
        }
        idle.append(db)
        condition.signal()
        condition.unlock()
    }

    func close() {
        condition.lock()
        closed = true
        let toClose = idle
        idle = []
        openCount -= toClose.count
        condition.broadcast()
        condition.unlock()
        for db in toClose { db.close() }
    }
}
