import HTJSON
import HyponaTrackDomain

extension ServerConfiguration {
    /// `push`: `apns`, `fcm`, `webPush` (each configures its platform), `caFile`. Key files are
    /// only named here; the daemon reads and checks them at start (`PushKeys`).
    static func parsePush(_ r: ObjectReader, into config: inout ServerConfiguration, resolve: (String) -> String) throws(FieldError) {
        guard let block = try r.optional("push", .any) else { return }
        let pr = try ObjectReader(block, path: "push")
        let path = JSONRead.string(length: 1...4096)
        func url(_ reader: ObjectReader, _ key: String) throws(FieldError) -> String? {
            guard let url = try reader.optional("url", .string(length: 9...2000)) else { return nil }
            if let problem = Push.urlProblem(url) { throw FieldError.invalid("push.\(key).url", problem) }
            return url
        }
        if let a = try pr.optional("apns", .any) {
            let ar = try ObjectReader(a, path: "push.apns")
            let id = JSONRead.string(length: 10...10, expected: "Apple's 10-character ID") { $0.utf8.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) } }
            var apns = Push.APNs(keyFile: resolve(try ar.required("keyFile", path)), keyId: try ar.required("keyId", id),
                                 teamId: try ar.required("teamId", id),
                                 topic: try ar.required("topic", .string(length: 1...255, expected: "the app's bundle ID") {
                                     $0.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } }))
            apns.url = try url(ar, "apns") ?? apns.url
            try ar.finish()
            config.push.apns = apns
        }
        if let f = try pr.optional("fcm", .any) {
            let fr = try ObjectReader(f, path: "push.fcm")
            var fcm = Push.FCM(serviceAccountFile: resolve(try fr.required("serviceAccountFile", path)))
            fcm.url = try url(fr, "fcm") ?? fcm.url
            try fr.finish()
            config.push.fcm = fcm
        }
        if let w = try pr.optional("webPush", .any) {
            let wr = try ObjectReader(w, path: "push.webPush")
            let subject = JSONRead.string(length: 8...500, expected: "a mailto: or https: contact") {
                $0.hasPrefix("mailto:") || $0.hasPrefix("https://") }
            var webPush = Push.WebPush(vapidKeyFile: resolve(try wr.required("vapidKeyFile", path)),
                                       subject: try wr.required("subject", subject))
            let host = JSONRead.string(length: 1...253, expected: "a host name, *.domain or *") {
                $0.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x2F } }
            webPush.allowedHosts = try wr.optionalArray("allowedHosts", maxCount: 100) { v, p throws(FieldError) in
                try host.convert(v, p)
            } ?? webPush.allowedHosts
            try wr.finish()
            config.push.webPush = webPush
        }
        config.push.caFile = try pr.optional("caFile", path).map(resolve)
        try pr.finish()
    }
}
