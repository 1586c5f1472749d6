import Crypto
import HTJSON
import HTML
import HTTPServer
import HyponaTrackDomain

/// "Remind me on this phone" on the web check-in (docs/product.md, W, and settled W): where the
/// browser can push, a same-origin script (`/app/push.js`) registers the service worker
/// (`/app/sw.js`), subscribes with the server's VAPID public key (`data-vapid-key`) and registers
/// the subscription with `POST /app/devices` — the `ht_patient` cookie, the page's CSRF token
/// (`X-CSRF-Token`) and the API's JSON body. No inline script (the CSP allows only 'self'); the
/// control stays `hidden` without script, and the page works fully without it.
struct PushRegistration: Sendable {
    let devices: PushDeviceService
    /// base64url of the VAPID key's uncompressed public point; nil: Web Push not configured.
    let vapidPublicKey: String?

    static let scriptPath = "/app/push.js"

    func routes() -> [Route] {
        [
            Route(.get, "/app/sw.js", access: .anonymous, touches: .system) { _ in
                WebResponse.asset(Self.serviceWorker, type: "text/javascript; charset=utf-8", immutable: false)
            },
            Route(.get, Self.scriptPath, access: .anonymous, touches: .system) { _ in
                WebResponse.asset(Self.script, type: "text/javascript; charset=utf-8", immutable: false)
            },
            Route(.post, "/app/devices", access: .patient, touches: .ownRecord) { ctx in try register(ctx) },
        ]
    }

    /// The control for today's page (nothing when Web Push is not configured).
    func control(_ p: PatientWebSession, language: Language) -> HTML {
        guard let vapidPublicKey else { return HTML() }
        return """
            <p><button type="button" id="remind-me" class="secondary" hidden data-vapid-key="\(vapidPublicKey)" data-csrf="\(p.csrfToken)" \
            data-done="\(language.s("Reminders will come to this phone.", "Erinnerungen kommen auf dieses Telefon."))" \
            data-failed="\(language.s("This phone could not be set up for reminders.", "Dieses Telefon konnte nicht für Erinnerungen eingerichtet werden."))">\
            \(language.s("Remind me on this phone", "Auf diesem Telefon erinnern"))</button> <span id="remind-me-status" role="status"></span></p>
            <script src="\(Self.scriptPath)" defer></script>
            """
    }

    /// The subscription as the API's body; the device ID is derived from the endpoint, so the same
    /// subscription registered again replaces itself.
    private func register(_ ctx: PageContext) throws -> HTTPResponse {
        guard let p = ctx.patient else { throw DomainError.unauthenticated }
        let body: JSONValue
        do { body = try JSONParser.parse(ctx.request.http.body) } catch { return Self.json(.badRequest, ["error": "invalid_json"]) }
        var endpoint = ""
        if case .object(let o) = body, case .object(let s)? = o["subscription"], case .string(let e)? = s["endpoint"] { endpoint = e }
        let deviceId = "web-" + Crypto.hex(Crypto.sha256(Array(endpoint.utf8))).prefix(24)
        do {
            let registered = try devices.register(try DeviceBodies.command(body, patientId: p.patientId, deviceId: deviceId))
            return Self.json(registered.created ? .created : .ok, DeviceJSON.device.encode(registered.device))
        } catch let e as APIError {
            return Self.json(HTTPStatus(rawValue: e.status), e.body)
        } catch let e as DomainError {
            return Self.json(HTTPStatus(rawValue: APIError(e).status), APIError(e).body)
        }
    }

    private static func json(_ status: HTTPStatus, _ value: JSONValue) -> HTTPResponse {
        var h = WebResponse.securityHeaders()
        h.add(name: "Content-Type", value: "application/json")
        return HTTPResponse(status: status, headers: h, body: Array(JSONSerializer.string(value).utf8))
    }

    static let script = """
        // "Remind me on this phone": shown only where the browser can push (docs/product.md, W).
        (function () {
          var control = document.getElementById('remind-me');
          if (!control || !('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return;
          var status = document.getElementById('remind-me-status');
          control.hidden = false;
          function applicationServerKey(text) {
            var b64 = text.replace(/-/g, '+').replace(/_/g, '/');
            b64 += '==='.slice((b64.length + 3) % 4);
            var raw = atob(b64), key = new Uint8Array(raw.length);
            for (var i = 0; i < raw.length; i++) key[i] = raw.charCodeAt(i);
            return key;
          }
          control.addEventListener('click', function () {
            navigator.serviceWorker.register('/app/sw.js', {scope: '/app/'})
              .then(function () { return navigator.serviceWorker.ready; })
              .then(function (registration) {
                return Notification.requestPermission().then(function (permission) {
                  if (permission !== 'granted') throw new Error('permission ' + permission);
                  return registration.pushManager.subscribe({userVisibleOnly: true,
                    applicationServerKey: applicationServerKey(control.dataset.vapidKey)});
                });
              })
              .then(function (subscription) {
                return fetch('/app/devices', {method: 'POST', credentials: 'same-origin',
                  headers: {'Content-Type': 'application/json', 'X-CSRF-Token': control.dataset.csrf},
                  body: JSON.stringify({platform: 'webpush', subscription: subscription.toJSON(),
                                        language: document.documentElement.lang === 'de' ? 'de' : 'en'})});
              })
              .then(function (response) {
                if (!response.ok) throw new Error('HTTP ' + response.status);
                status.textContent = control.dataset.done;
              })
              .catch(function () { status.textContent = control.dataset.failed; });
          });
        })();
        """

    static let serviceWorker = """
        // The web check-in's service worker: shows each push reminder ({title, body, kind, date, slot}).
        self.addEventListener('push', function (event) {
          var data = {};
          try { data = event.data ? event.data.json() : {}; } catch (e) {}
          event.waitUntil(self.registration.showNotification(data.title || 'HyponaTrack',
            {body: data.body || '', tag: [data.kind, data.date, data.slot].join(':'), data: data}));
        });
        self.addEventListener('notificationclick', function (event) {
          event.notification.close();
          event.waitUntil(self.clients.openWindow('/app/'));
        });
        """
}
