import HTML

extension QRCode {
    /// The symbol as a standalone SVG element for inline HTML (the console's CSP blocks `data:`
    /// images, scripts and inline styles, so everything here is a presentation attribute): a
    /// white square with the quiet zone, then one `<path>` of the dark modules, each row's runs
    /// as rectangles, in module units scaled by `width`/`height`. `shape-rendering="crispEdges"`
    /// keeps the module edges unblurred; the `<title>` is the image's accessible name.
    /// - Parameters:
    ///   - moduleSize: CSS pixels per module (at least 1).
    ///   - quietZone: light modules around the symbol; ISO/IEC 18004 §6.3.8 asks for 4.
    ///   - title: what the code is for, e.g. "Activation link for BR-0042"; escaped as any
    ///     interpolated `HTML` text is.
    /// - Returns: Markup to interpolate into a page as it is (`"<figure>\(svg)</figure>"`).
    public func svg(moduleSize: Int = 4, quietZone: Int = 4, title: String = "QR code") -> HTML {
        precondition(moduleSize >= 1 && quietZone >= 0, "a QR code needs a module size ≥ 1 and a quiet zone ≥ 0")
        let side = size + 2 * quietZone
        var path = ""
        for row in 0..<size {
            var column = 0
            while column < size {
                guard isDark(row: row, column: column) else {
                    column += 1
                    continue
                }
                let start = column
                while isDark(row: row, column: column) { column += 1 }
                path += "M\(start + quietZone) \(row + quietZone)h\(column - start)v1h-\(column - start)z"
            }
        }
        let pixels = side * moduleSize
        // `path` holds only digits and "Mhvz -": escaping it as text changes nothing.
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\" width=\"\(pixels)\" "
            + "height=\"\(pixels)\" shape-rendering=\"crispEdges\" role=\"img\"><title>\(title)</title>"
            + "<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/><path fill=\"#000\" d=\"\(path)\"/></svg>"
    }
}
