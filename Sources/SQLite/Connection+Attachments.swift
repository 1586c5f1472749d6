/// Values an application keeps with one connection, one per type: what its own code needs
/// wherever it is handed only the connection (e.g. the key a write path signs rows with). The
/// same idea as SQLite's `sqlite3_set_clientdata` (https://sqlite.org/c3ref/get_clientdata.html),
/// kept on the Swift side so any Swift value can be attached without a C destructor.
///
/// Like the connection itself, attachments are used by one thread at a time; they live as long
/// as the connection object.
extension Connection {
    /// Attaches `value`, replacing an earlier value of the same type.
    public func attach<Value>(_ value: Value) {
        attachments[ObjectIdentifier(Value.self)] = value
    }

    /// The attached value of type `Value`, or nil if none was attached.
    public func attachment<Value>(_ type: Value.Type = Value.self) -> Value? {
        attachments[ObjectIdentifier(Value.self)] as? Value
    }
}
