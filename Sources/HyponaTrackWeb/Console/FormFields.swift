import HTML
import HyponaTrackDomain

/// The fields of one console form (`form` names it in `FormErrors` and prefixes its ids): each
/// with its label, the value to show (what was typed when the form comes back refused, else
/// `initial`), and its message right under it, tied to the input by `aria-describedby`.
struct FormFields {
    let form: String
    let errors: FormErrors
    /// What the form shows when it was not refused (the stored profile, say).
    var initial: [String: String] = [:]
    /// Said after a required field's label ("required", "Pflicht").
    var requiredWord = ""

    /// The id of a field's input (`katB.podSodium` → `profile-katB-podSodium`).
    func id(_ name: String) -> String { "\(form)-\(name.replacingOccurrences(of: ".", with: "-"))" }

    /// What the field holds: as typed when the form was refused, else as stored.
    func value(_ name: String) -> String {
        errors.values[form] != nil ? errors.value(form, name) : initial[name] ?? ""
    }

    /// A text input (`type` text, date or number-like text with `inputmode`).
    func input(_ name: String, _ label: String, type: String = "text", inputmode: String? = nil, required: Bool = false,
               hint: String? = nil, extra: HTML = HTML()) -> HTML {
        let mode: HTML = inputmode.map { " inputmode=\"\($0)\"" } ?? HTML()
        let hintHTML: HTML = hint.map { "<span class=\"hint\" id=\"\(id(name))-hint\">\($0)</span>" } ?? HTML()
        return """
            <div class="field"><label for="\(id(name))">\(label)\(mark(required))</label>\(hintHTML)\
            <input type="\(type)" id="\(id(name))" name="\(name)"\(mode)\(required ? " required" : "")\(extra) value="\(value(name))"\
            \(described(name, hint: hint != nil))>\(error(name))</div>
            """
    }

    /// A drop-down list of `options` (value, words); `blank` first when given.
    func select(_ name: String, _ label: String, _ options: [(value: String, label: String)], blank: String? = nil,
                required: Bool = false) -> HTML {
        let chosen = value(name)
        let all = (blank.map { [(value: "", label: $0)] } ?? []) + options
        let items: [HTML] = all.map { o in "<option value=\"\(o.value)\"\(chosen == o.value ? " selected" : "")>\(o.label)</option>" }
        return """
            <div class="field"><label for="\(id(name))">\(label)\(mark(required))</label>\
            <select id="\(id(name))" name="\(name)"\(required ? " required" : "")\(described(name))>\(items)</select>\(error(name))</div>
            """
    }

    /// A checkbox; checked when the value is `1` (as stored) or `on`/`1` (as posted).
    func checkbox(_ name: String, _ label: String) -> HTML {
        let checked = ["1", "on", "true"].contains(value(name))
        return """
            <div class="field check"><input type="checkbox" id="\(id(name))" name="\(name)" value="1"\(checked ? " checked" : "")\
            \(described(name))><label for="\(id(name))">\(label)</label>\(error(name))</div>
            """
    }

    /// Checkboxes for several codes under one name (a list such as the risk medications).
    func checkboxes(_ name: String, _ legend: String, _ options: [(value: String, label: String)]) -> HTML {
        let chosen = Set(value(name).split(separator: ",").map(String.init))
        let boxes: [HTML] = options.enumerated().map { i, o in
            let boxId = "\(id(name))-\(i)"
            return """
                <span class="check"><input type="checkbox" id="\(boxId)" name="\(name)" value="\(o.value)"\
                \(chosen.contains(o.value) ? " checked" : "")><label for="\(boxId)">\(o.label)</label></span>
                """
        }
        return """
            <fieldset class="field checks" id="\(id(name))"\(described(name))><legend>\(legend)</legend>\(boxes)\(error(name))</fieldset>
            """
    }

    /// Above a refused form: nothing was saved, and a link to each refused field (in `order`),
    /// so a field far down a long form is one step away.
    func summary(_ said: String, order: [String], label: (String) -> String) -> HTML {
        guard let messages = errors.messages[form], !messages.isEmpty else { return HTML() }
        let names = order.filter { messages[$0] != nil } + messages.keys.filter { !order.contains($0) }.sorted()
        let links: [HTML] = names.map { "<li><a href=\"#\(id($0))\">\(label($0))</a></li>" }
        return "<div class=\"error-summary\" role=\"alert\"><p class=\"error\">\(said)</p><ul>\(links)</ul></div>"
    }

    /// The message under a field that does not have one of the inputs above (a form-wide refusal).
    func error(_ name: String) -> HTML {
        errors.message(form, name).map { "<p class=\"error\" id=\"\(id(name))-error\">\($0)</p>" } ?? HTML()
    }

    private func mark(_ required: Bool) -> HTML {
        required && !requiredWord.isEmpty ? "<span class=\"required\"> (\(requiredWord))</span>" : HTML()
    }

    private func described(_ name: String, hint: Bool = false) -> HTML {
        let refused = errors.message(form, name) != nil
        let ids = (hint ? ["\(id(name))-hint"] : []) + (refused ? ["\(id(name))-error"] : [])
        let invalid: HTML = refused ? " aria-invalid=\"true\"" : HTML()
        return ids.isEmpty ? invalid : "\(invalid) aria-describedby=\"\(ids.joined(separator: " "))\""
    }
}
