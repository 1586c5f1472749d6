/// A phone number as a `tel:` link dials it: the digits and `+` without the spaces people write
/// for reading (`+49 30 555 0100` → `tel:+49305550100`). One rule for the check-in's emergency
/// and clinic numbers and the console's handout.
enum Telephone {
    static func dialable(_ number: String) -> String { number.filter { $0 != " " } }
}
