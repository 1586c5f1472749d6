import CCurl
import CCurlShims

/// Maps a `CURLcode` to an ``HTTPClientError/Kind``
/// (codes: https://curl.se/libcurl/c/libcurl-errors.html).
enum CurlCodeClassification {
    static func kind(of code: CURLcode) -> HTTPClientError.Kind {
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .couldNotResolve
        case CURLE_COULDNT_CONNECT:
            return .couldNotConnect
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_CRL_BADFILE, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
             CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
             CURLE_USE_SSL_FAILED, CURLE_SSL_CLIENTCERT:
            return .tlsFailure
        case CURLE_FILESIZE_EXCEEDED:
            // CURLOPT_MAXFILESIZE_LARGE: "the transfer will not start and
            // CURLE_FILESIZE_EXCEEDED will be returned" when Content-Length is too large.
            return .responseTooLarge
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return .invalidURL
        case CURLE_SEND_ERROR:
            return .sendFailed
        case CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE:
            return .receiveFailed
        case CURLE_ABORTED_BY_CALLBACK:
            // Only the cancellation check returns non-zero from the progress callback.
            return .cancelled
        default:
            return .other
        }
    }
}
