import HTJSON
import HTTPServer
import HyponaTrackDomain

extension APIError {
    /// The one place a domain refusal becomes an HTTP status and an error code.
    init(_ error: DomainError) {
        switch error {
        case .rejected(let e): self = .from(e)
        case .notFound(let message, .alertOfPatient?):
            // The alert a body names (`alertId`), not one in the path.
            self = APIError(status: 404, code: "not_found", message: message, field: "alertId")
        case .notFound(let message, _): self = .notFound(message)
        case .conflict(let message, let field, _): self = .conflict(message, field: field)
        case .limitReached(let field, let limit):
            self = APIError(status: 409, code: "limit_reached",
                            message: "a day holds at most \(limit) \(field) items and this request would add more, "
                                + "so nothing of it was stored", field: field)
        case .devicesFull(let limit):
            self = APIError(status: 409, code: "limit_reached",
                            message: "a patient has at most \(limit) devices: remove one (DELETE /v1/me/devices/{deviceId}) "
                                + "or replace a registered deviceId", field: "deviceId")
        case .unauthenticated: self = .unauthenticated
        case .forbidden(let message): self = .forbidden(message)
        case .activation(.wrongCredentials):
            self = APIError(status: 401, code: "unauthenticated", message: "the study ID or activation code is not right")
        case .activation(.expired):
            self = APIError(status: 410, code: "expired",
                            message: "this activation code has expired; ask the study nurse for a new one")
        case .activation(.accessEnded(let lastDay)):
            self = APIError(status: 410, code: "expired",
                            message: "monitoring for this study ID has ended and the app's access ended on \(lastDay); "
                                + "the app can no longer be activated, and a new code would not help")
        case .activation(.locked(let seconds)):
            self = APIError(status: 429, code: "locked", message: "too many wrong codes; try again later", retryAfter: seconds)
        case .signIn(.wrongCredentials):
            self = APIError(status: 401, code: "unauthenticated", message: "the name or password is not right")
        case .signIn(.wrongCode):
            self = APIError(status: 401, code: "unauthenticated", message: "the code is not right or was used already", field: "code")
        case .signIn(.locked(let seconds)):
            self = APIError(status: 429, code: "locked", message: "too many failed sign-ins; try again later", retryAfter: seconds)
        case .busy(.signIns, let seconds):
            self = APIError(status: 503, code: "busy", message: "too many sign-ins at once; try again in a moment", retryAfter: seconds)
        case .busy(.longReads, let seconds):
            self = APIError(status: 503, code: "busy",
                            message: "too many long reads at once (audit verification and listing, exports, reports, statistics, "
                                + "backups); try again in a moment", retryAfter: seconds)
        case .upstream(let message): self = APIError(status: 502, code: "bad_gateway", message: message)
        case .integrity(let message): self = APIError(status: 500, code: "internal", message: message)
        }
    }
}

extension DomainError {
    /// The status, message and `Retry-After` the API would answer with: pages show the same.
    var httpAnswer: (status: HTTPStatus, message: String, retryAfter: Int?) {
        let e = APIError(self)
        return (HTTPStatus(rawValue: e.status), e.message, e.retryAfter)
    }
}
