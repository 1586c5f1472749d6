import Crypto
import HyponaTrackDomain

/// The web check-in's stylesheet and home-screen assets: large controls and labels, one column
/// that works from 360 px, WCAG AA contrast, the level always a word too. Served as static files
/// under names that carry their hash.
enum AppAssets {
    static let css = """
        :root { color-scheme: light; --ink: #1a1a1a; --muted: #4a4a4a; --line: #9a9a9a; --link: #0b4f9c; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 18px/1.5 "DejaVu Sans", Verdana, sans-serif; color: var(--ink); background: #fff; }
        a { color: var(--link); }
        a:focus, button:focus, input:focus, label:focus-within { outline: 3px solid #f29d00; outline-offset: 2px; }
        .skip { position: absolute; left: -9999px; }
        .skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px 8px; }
        header { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 4px 8px; padding: 8px 12px;
                 border-bottom: 2px solid #c8c8c8; background: #f4f6f8; }
        header strong { font-size: 20px; }
        header .who { font-weight: bold; font-size: 16px; }
        main { padding: 8px 12px 24px; max-width: 640px; margin: 0 auto; }
        footer { padding: 12px; color: var(--muted); font-size: 15px; border-top: 1px solid #c8c8c8; max-width: 640px; margin: 0 auto; }
        h1 { font-size: 26px; margin: 12px 0; }
        h2 { font-size: 21px; margin: 20px 0 8px; }
        .light { border-radius: 10px; padding: 14px 16px; margin: 12px 0; border: 3px solid transparent; }
        .light-red { background: #a4001d; color: #fff; }
        .light-yellow { background: #ffd23f; color: #1a1a1a; border-color: #8a6d00; }
        .light-green { background: #1b6e35; color: #fff; }
        .light-none { background: #e4e4e4; color: #1a1a1a; border-color: #8a8a8a; }
        .light .word { display: block; font-size: 28px; font-weight: bold; letter-spacing: 0.05em; }
        .emergency { border: 3px solid #a4001d; border-radius: 10px; padding: 12px 14px; margin: 16px 0; background: #fff5f6; }
        .emergency a.call { display: inline-block; margin-top: 6px; padding: 10px 18px; background: #a4001d; color: #fff;
                            border-radius: 8px; font-weight: bold; text-decoration: none; font-size: 20px; }
        .actions { display: flex; flex-direction: column; gap: 12px; margin: 16px 0; }
        .button, button { display: block; width: 100%; min-height: 52px; padding: 12px 16px; font: inherit; font-weight: bold;
                          border-radius: 8px; border: 2px solid #0b3d78; background: #0b4f9c; color: #fff; text-align: center;
                          text-decoration: none; cursor: pointer; }
        .button.secondary, button.secondary { background: #fff; color: #0b3d78; }
        ul.tasks { list-style: none; padding: 0; margin: 0; }
        ul.tasks li { padding: 8px 0; border-bottom: 1px solid #d8d8d8; }
        .done { color: #1b6e35; font-weight: bold; }
        .open { color: #8a0017; font-weight: bold; }
        .field { margin: 16px 0; }
        label, legend { display: block; font-weight: bold; margin-bottom: 6px; overflow-wrap: anywhere; }
        legend { max-width: 100%; white-space: normal; }
        .hint { margin: 0 0 6px; color: var(--muted); }
        span.date { white-space: nowrap; }
        .contact { list-style: none; padding: 8px 0 0; margin: 8px 0 0; border-top: 2px solid currentColor; }
        .contact li { padding: 4px 0; overflow-wrap: anywhere; }
        .contact strong, .contact a { white-space: nowrap; }
        .light-red a, .light-green a { color: #fff; font-weight: bold; }
        .light-yellow a, .light-none a { color: #1a1a1a; font-weight: bold; }
        .error-summary { border: 3px solid #8a0017; border-radius: 8px; padding: 8px 12px; margin: 12px 0; }
        .error-summary ul { margin: 4px 0 0; padding-left: 20px; }
        .error-summary a { color: #8a0017; }
        input[type=text], input[type=number] { width: 100%; min-height: 52px; font: inherit; font-size: 22px; padding: 8px 12px;
                                               border: 2px solid #6a6a6a; border-radius: 8px; }
        fieldset { border: 2px solid #c8c8c8; border-radius: 8px; padding: 10px 12px; margin: 16px 0; }
        .choices { display: flex; flex-wrap: wrap; gap: 8px; }
        .choices label { display: flex; align-items: center; gap: 8px; font-weight: normal; min-height: 48px; padding: 6px 12px;
                         border: 2px solid #9a9a9a; border-radius: 8px; margin: 0; max-width: 100%; }
        /* A wrapped label must not squeeze its box: the control keeps its 28 px whatever the text's length. */
        .choices input { flex: 0 0 auto; width: 28px; height: 28px; min-width: 28px; margin: 0; }
        .choices .hint { flex-basis: 100%; }
        .error { color: #8a0017; font-weight: bold; margin: 6px 0; }
        .notice { background: #eef6ee; border: 2px solid #1b6e35; border-radius: 8px; padding: 10px 12px; }
        .notice.warn { background: #fff8e1; border-color: #8a6d00; }
        .muted { color: var(--muted); }
        """

    static let cssName = "app-" + String(Crypto.hex(Crypto.sha256(Array(css.utf8))).prefix(12)) + ".css"
    static let cssPath = "/app/static/" + cssName

    /// A plain home-screen icon: the light in three colours.
    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="18" fill="#0b4f9c"/>\
        <rect x="30" y="10" width="36" height="76" rx="10" fill="#1a1a1a"/><circle cx="48" cy="27" r="9" fill="#d4002a"/>\
        <circle cx="48" cy="48" r="9" fill="#ffd23f"/><circle cx="48" cy="69" r="9" fill="#2eaa55"/></svg>
        """

    /// The web app manifest (added to the home screen, it opens `/app/` full screen).
    static func manifest(name: String) -> String {
        """
        {"name": "\(name)", "short_name": "HyponaTrack", "start_url": "/app/", "scope": "/app/", "display": "standalone",
         "background_color": "#ffffff", "theme_color": "#0b4f9c", "lang": "en",
         "icons": [{"src": "/app/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}]}
        """
    }
}
