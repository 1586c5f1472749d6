import Crypto
import HyponaTrackDomain

/// The console's one stylesheet, served as a static file under a name that carries its hash
/// (so it may be cached for a year and a new release is fetched at once). No external fonts.
/// Colours meet WCAG AA contrast against their backgrounds; the level is always a word too.
enum ConsoleStylesheet {
    static let css = """
        :root { color-scheme: light; --ink: #1a1a1a; --muted: #4a4a4a; --line: #c8c8c8; --link: #0b4f9c; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.45 "DejaVu Sans", Verdana, sans-serif; color: var(--ink); background: #fff; }
        a { color: var(--link); }
        a:focus, button:focus, input:focus, select:focus, textarea:focus { outline: 3px solid #f29d00; outline-offset: 2px; }
        .skip { position: absolute; left: -9999px; }
        .skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px 8px; z-index: 10; }
        header { display: flex; flex-wrap: wrap; gap: 12px 24px; align-items: center; justify-content: space-between;
                 padding: 8px 16px; border-bottom: 2px solid var(--line); background: #f4f6f8; }
        header nav a { margin-right: 16px; font-weight: bold; }
        header .who { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
        header form { display: inline; margin: 0; }
        main { padding: 8px 16px 24px; max-width: 1400px; }
        footer { padding: 8px 16px; color: var(--muted); border-top: 1px solid var(--line); font-size: 14px; }
        h1 { font-size: 24px; margin: 12px 0; }
        h2 { font-size: 20px; margin: 20px 0 8px; }
        table { border-collapse: collapse; margin: 8px 0 16px; }
        th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
        th { background: #eef1f4; }
        td.num, th.num { text-align: right; }
        .level { display: inline-block; min-width: 6.5em; padding: 1px 8px; border-radius: 4px; font-weight: bold; text-align: center;
                 border: 2px solid transparent; }
        .level-red { background: #a4001d; color: #fff; }
        .level-yellow { background: #ffd23f; color: #1a1a1a; border-color: #8a6d00; }
        .level-green { background: #1b6e35; color: #fff; }
        .level-info, .level-none { background: #e4e4e4; color: #1a1a1a; border-color: #8a8a8a; }
        .table-scroll { max-width: 100%; overflow-x: auto; }
        .table-scroll table { margin-top: 0; }
        ul.reasons { margin: 0; padding-left: 1.1em; }
        #board caption { text-align: left; }
        #board th[scope=row] { background: none; font-weight: normal; white-space: nowrap; }
        #board td.nowrap, #board span.nowrap { white-space: nowrap; }
        #board.with-site th, #board.with-site td { padding: 4px 6px; }
        #board.with-site .level { min-width: 4.5em; }
        form.board-filter label { margin-top: 0; }
        form.board-filter input[type=text], form.board-filter select { min-width: 10em; }
        tr.row-red th:first-child, tr.row-red td:first-child { border-left: 6px solid #a4001d; }
        tr.row-yellow th:first-child, tr.row-yellow td:first-child { border-left: 6px solid #8a6d00; }
        .flag { color: #8a0017; font-weight: bold; }
        .muted { color: var(--muted); }
        .error { color: #8a0017; font-weight: bold; margin: 4px 0; }
        .notice { background: #eef6ee; border: 1px solid #1b6e35; padding: 8px 12px; }
        form.inline { display: inline-flex; flex-wrap: wrap; gap: 8px; align-items: flex-end; margin: 4px 0; }
        label { display: block; font-weight: bold; margin: 8px 0 2px; }
        input, select, textarea, button { font: inherit; }
        input[type=text], input[type=password], input[type=number], input[type=datetime-local], textarea, select {
            padding: 6px 8px; border: 1px solid #6a6a6a; border-radius: 3px; min-width: 14em; }
        button { padding: 6px 14px; border: 1px solid #0b3d78; background: #0b4f9c; color: #fff; border-radius: 3px; cursor: pointer; }
        button.secondary { background: #fff; color: #0b3d78; }
        .field { margin-bottom: 10px; }
        form.manage { max-width: 46em; }
        form.manage input[type=text], form.manage input[type=date], form.manage select { width: 100%; max-width: 24em; min-width: 0; }
        input[type=date] { padding: 6px 8px; border: 1px solid #6a6a6a; border-radius: 3px; }
        fieldset.group { border: 1px solid var(--line); margin: 0 0 12px; padding: 4px 12px 8px; }
        fieldset.group legend { font-weight: bold; padding: 0 4px; }
        fieldset.checks { border: 0; padding: 0; margin: 8px 0 10px; }
        fieldset.checks legend { font-weight: bold; padding: 0; }
        .check { display: flex; gap: 8px; align-items: baseline; }
        .check label { display: inline; font-weight: normal; margin: 0; }
        fieldset.checks .check { margin: 2px 0; }
        .field.check { margin: 6px 0 10px; }
        .hint { display: block; color: var(--muted); font-size: 14px; }
        .required { font-weight: normal; color: var(--muted); }
        [aria-invalid=true] { border: 2px solid #8a0017 !important; }
        .error-summary { border: 2px solid #8a0017; padding: 4px 12px; margin: 8px 0 12px; }
        .error-summary ul { margin: 4px 0; padding-left: 1.2em; }
        button.danger { background: #8a0017; border-color: #5c0010; }
        nav.toc a { display: inline-block; margin: 0 12px 4px 0; }
        code.activation-code { font-size: 28px; font-weight: bold; letter-spacing: 0.08em; white-space: nowrap; }
        @media (max-width: 480px) { code.activation-code { font-size: 22px; letter-spacing: 0.04em; } }
        ol.instructions li { margin: 4px 0; }
        .charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 540px), 1fr)); gap: 16px; }
        .chart { border: 1px solid var(--line); padding: 8px; margin: 0; min-width: 0; }
        .chart h3 { font-size: 16px; margin: 0 0 4px; }
        .chart svg { display: block; width: 100%; max-width: 760px; height: auto; }
        .chart svg .ht-chart-title { display: none; }
        span.share { white-space: nowrap; }
        details { margin: 4px 0 8px; }
        details.contact { margin: 2px 0; }
        details.contact summary { cursor: pointer; color: var(--link); }
        dl.profile { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; }
        dl.profile dt { font-weight: bold; }
        dl.profile dd { margin: 0; }
        .login { max-width: 26em; margin: 40px auto; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        nav.filters p { margin: 2px 0; }
        nav.filters a { display: inline-block; padding: 0 6px; }
        nav.filters a.current { font-weight: bold; text-decoration: none; color: var(--ink); border-bottom: 3px solid var(--ink); }
        .filter-name { font-weight: bold; }
        nav.pager { margin: 4px 0 8px; }
        nav.pager a { margin-left: 12px; }
        table.inbox { width: 100%; font-size: 14px; line-height: 1.3; margin: 6px 0; }
        table.inbox th, table.inbox td { padding: 3px 6px; }
        table.inbox .level { min-width: 5.5em; padding: 0 4px; }
        table.inbox td.act, table.inbox td.since, table.inbox td.patient { white-space: nowrap; }
        table.inbox td.why { width: 45%; }
        table.inbox td.handling { width: 22%; }
        table.inbox td.act form.quick { display: inline; margin: 0 6px 0 0; }
        button.small { padding: 1px 8px; font-size: 14px; }
        table.inbox details.more { display: inline-block; margin: 0; vertical-align: top; }
        table.inbox details.more summary { cursor: pointer; color: var(--link); }
        table.inbox details.more[open] { display: block; white-space: normal; min-width: 18em; }
        .more-body h3 { font-size: 14px; margin: 8px 0 0; }
        .more-body p, .more-body ul { margin: 2px 0; }
        .more-body form.inline { display: flex; }
        .more-body input[type=text], .more-body select { min-width: 0; width: 100%; }
        .more { white-space: nowrap; }
        @media (max-width: 700px) {
            main { padding: 8px; }
            table.inbox, table.inbox tbody, table.inbox tr, table.inbox td { display: block; width: 100%; }
            table.inbox thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
            table.inbox tr { border: 1px solid var(--line); margin-bottom: 8px; }
            table.inbox td { border: 0; }
            table.inbox td.act, table.inbox td.since, table.inbox td.patient, table.inbox td.why, table.inbox td.handling {
                white-space: normal; width: 100%; }
        }
        figure.qr { margin: 1rem 0; }
        figure.qr svg { width: 180px; height: 180px; display: block; }
        .activation-url { overflow-wrap: anywhere; font-size: 0.85rem; }
        @media print {
            @page { size: A4; margin: 12mm; }
            .no-print { display: none !important; }
            figure.qr svg { width: 50mm; height: 50mm; }
            body { font-size: 11pt; }
            header, footer, nav, form, button, details > summary, .skip, #refresh-switch { display: none !important; }
            details { display: block; }
            main { padding: 0; max-width: none; }
            table { width: 100%; max-width: 100%; table-layout: auto; page-break-inside: auto; }
            tr { page-break-inside: avoid; }
            th, td { padding: 2px 4px; overflow-wrap: break-word; }
            table.inbox td.act, table.inbox th:last-child { display: none; }
            .charts { display: block; }
            .chart { page-break-inside: avoid; max-width: 100%; }
            .chart svg { width: 100%; height: auto; }
            a { color: inherit; text-decoration: none; }
        }
        """

    /// `console-<first 12 hex of SHA-256>.css`.
    static let fileName = "console-" + String(Crypto.hex(Crypto.sha256(Array(css.utf8))).prefix(12)) + ".css"
    static let path = "/console/static/" + fileName
}
