import CCurl
import CCurlShims

/// The `curl_slist` of envelope recipients for CURLOPT_MAIL_RCPT, freed in `deinit`; keep it
/// alive across `curl_easy_perform`.
final class SMTPRecipientList {
    private(set) var pointer: UnsafeMutablePointer<curl_slist>?

    /// - Parameter recipients: Addresses already checked by ``SMTPValidation``; each is sent
    ///   in angle brackets.
    init(_ recipients: [String]) throws(CurlFailure) {
        for recipient in recipients {
            let appended = "<\(recipient)>".withCString { curl_slist_append(pointer, $0) }
            guard let appended else {
                throw CurlFailure(kind: .other, detail: "curl_slist_append failed (out of memory)")
            }
            pointer = appended
        }
    }

    deinit {
        curl_slist_free_all(pointer)
    }
}
