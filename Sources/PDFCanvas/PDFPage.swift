import CCairo

/// A point on the page.
public struct PDFPoint: Sendable, Equatable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// An sRGB colour.
public struct PDFColor: Sendable, Equatable {
    public var red: Double
    public var green: Double
    public var blue: Double

    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#rrggbb`; anything else is black.
    public init(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6, let v = UInt32(digits, radix: 16) else { self.init(red: 0, green: 0, blue: 0); return }
        self.init(red: Double(v >> 16 & 0xff) / 255, green: Double(v >> 8 & 0xff) / 255, blue: Double(v & 0xff) / 255)
    }

    public static let black = PDFColor(red: 0, green: 0, blue: 0)
    public static let white = PDFColor(red: 1, green: 1, blue: 1)
}

/// A font: family (fontconfig name), size in points, weight.
public struct PDFFont: Sendable, Hashable {
    public var family: String
    public var size: Double
    public var bold: Bool

    public init(family: String = "DejaVu Sans", size: Double, bold: Bool = false) {
        self.family = family
        self.size = size
        self.bold = bold
    }
}

public enum PDFTextAlignment: Sendable {
    case start, center, end
}

/// A text's extent in points; `baseline` is the first line's baseline below its top.
public struct PDFTextSize: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public var baseline: Double

    public init(width: Double, height: Double, baseline: Double) {
        self.width = width
        self.height = height
        self.baseline = baseline
    }
}

/// Drawing on one page of a `PDFDocument` (valid only inside `PDFDocument.page`).
public struct PDFPage {
    let document: PDFDocument
    private var cr: OpaquePointer { document.context }

    public var width: Double { document.pageWidth }
    public var height: Double { document.pageHeight }

    // MARK: paths

    /// Strokes an open polyline.
    public func stroke(_ points: [PDFPoint], color: PDFColor, width: Double = 1, dash: [Double] = []) {
        guard points.count > 1 else { return }
        path(points, closed: false)
        strokeCurrent(color: color, width: width, dash: dash)
    }

    /// Fills a closed polygon.
    public func fill(_ points: [PDFPoint], color: PDFColor, opacity: Double = 1) {
        guard points.count > 2 else { return }
        path(points, closed: true)
        fillCurrent(color: color, opacity: opacity)
    }

    /// Fills and/or strokes a rectangle.
    public func rectangle(x: Double, y: Double, width: Double, height: Double, fill: PDFColor? = nil,
                          stroke: PDFColor? = nil, lineWidth: Double = 1) {
        if let fill {
            cairo_rectangle(cr, x, y, width, height)
            fillCurrent(color: fill, opacity: 1)
        }
        if let stroke {
            cairo_rectangle(cr, x, y, width, height)
            strokeCurrent(color: stroke, width: lineWidth, dash: [])
        }
    }

    /// A filled circle, optionally outlined.
    public func circle(center: PDFPoint, radius: Double, fill: PDFColor, stroke: PDFColor? = nil, lineWidth: Double = 1) {
        cairo_new_path(cr)
        cairo_arc(cr, center.x, center.y, radius, 0, 2 * Double.pi)
        setColor(fill, opacity: 1)
        if let stroke {
            cairo_fill_preserve(cr)
            strokeCurrent(color: stroke, width: lineWidth, dash: [])
        } else {
            cairo_fill(cr)
        }
    }

    /// A filled polygon outlined in another colour (point markers).
    public func outlined(_ points: [PDFPoint], fill: PDFColor, stroke: PDFColor, lineWidth: Double = 1) {
        guard points.count > 2 else { return }
        path(points, closed: true)
        setColor(fill, opacity: 1)
        cairo_fill_preserve(cr)
        strokeCurrent(color: stroke, width: lineWidth, dash: [])
    }

    private func path(_ points: [PDFPoint], closed: Bool) {
        cairo_new_path(cr)
        cairo_move_to(cr, points[0].x, points[0].y)
        for p in points.dropFirst() { cairo_line_to(cr, p.x, p.y) }
        if closed { cairo_close_path(cr) }
    }

    private func setColor(_ c: PDFColor, opacity: Double) {
        if opacity < 1 {
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, opacity)
        } else {
            cairo_set_source_rgb(cr, c.red, c.green, c.blue)
        }
    }

    private func strokeCurrent(color: PDFColor, width: Double, dash: [Double]) {
        setColor(color, opacity: 1)
        cairo_set_line_width(cr, width)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        dash.withUnsafeBufferPointer { cairo_set_dash(cr, $0.baseAddress, Int32($0.count), 0) }
        cairo_stroke(cr)
    }

    private func fillCurrent(color: PDFColor, opacity: Double) {
        setColor(color, opacity: opacity)
        cairo_fill(cr)
    }

    // MARK: text

    /// One line of text with its baseline at `baseline`: left-aligned at `x`, centred on it, or ending at it.
    /// `angle` (radians, clockwise positive as cairo's y points down) turns the text about that point.
    public func text(_ text: String, x: Double, baseline: Double, font: PDFFont, color: PDFColor = .black,
                     alignment: PDFTextAlignment = .start, angle: Double = 0) {
        guard !text.isEmpty else { return }
        document.withLayout(text, font: font, width: nil) { layout in
            let size = PDFDocument.size(of: layout)
            let dx: Double
            switch alignment {
            case .start: dx = 0
            case .center: dx = -size.width / 2
            case .end: dx = -size.width
            }
            cairo_save(cr)
            cairo_translate(cr, x, baseline)
            if angle != 0 {
                cairo_rotate(cr, angle)
                pango_cairo_update_layout(cr, layout)
            }
            setColor(color, opacity: 1)
            cairo_move_to(cr, dx, -size.baseline)
            pango_cairo_show_layout(cr, layout)
            cairo_restore(cr)
            if angle != 0 {
                document.resetTextTransform()
                pango_layout_context_changed(layout)
            }
        }
    }

    /// A paragraph wrapped at `width`, its top at `top`; returns its size.
    @discardableResult
    public func paragraph(_ text: String, x: Double, top: Double, width: Double, font: PDFFont, color: PDFColor = .black,
                          alignment: PDFTextAlignment = .start) -> PDFTextSize {
        document.withLayout(text, font: font, width: width, alignment: alignment) { layout in
            setColor(color, opacity: 1)
            cairo_move_to(cr, x, top)
            pango_cairo_show_layout(cr, layout)
            return PDFDocument.size(of: layout)
        }
    }

    /// As `PDFDocument.measure`.
    public func measure(_ text: String, font: PDFFont, width: Double? = nil) -> PDFTextSize {
        document.measure(text, font: font, width: width)
    }
}
