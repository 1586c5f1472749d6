/// Why a request-target could not be parsed; becomes a 400 `bad_request` answer whose
/// message is written for the client developer who sent it.
struct RequestTargetError: Error, Equatable {
    let message: String

    init(_ message: String) { self.message = message }
}
