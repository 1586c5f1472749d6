import CCairo
import Synchronization

/// A PDF document drawn with cairo, its text laid out by pango: fixed-size pages drawn one after
/// another into memory. The only Swift code that touches cairo or pango; callers see points
/// (1/72 in), the origin at the top left of the page and y growing downwards (cairo's default).
///
/// cairo and pango objects are not thread-safe (https://www.cairographics.org/manual/ — a
/// `cairo_t` belongs to one thread; pango's font maps cache state). `render` therefore runs one
/// document at a time per process, with its own surface and context, all freed before it returns;
/// the one font map is shared under the same lock so fontconfig is read once.
public final class PDFDocument {
    public let pageWidth: Double
    public let pageHeight: Double
    private let sink: ByteSink
    private let surface: OpaquePointer
    private let cr: OpaquePointer
    private let pango: OpaquePointer
    private var fonts: [PDFFont: OpaquePointer] = [:]
    /// Every text laid out so far: a text measured while the pages are laid out is shaped once
    /// and drawn from the same layout. Freed with the document.
    private var layouts: [LayoutKey: OpaquePointer] = [:]
    public private(set) var pageCount = 0

    /// A4 in points (ISO 216: 210 × 297 mm).
    public static let a4 = (width: 595.0, height: 842.0)

    /// Creates a document, lets `draw` add its pages, and returns the finished PDF.
    /// - Throws: `PDFError` when cairo reports a failure (out of memory, a write error), or what `draw` throws.
    public static func render(width: Double = a4.width, height: Double = a4.height, title: String, creator: String,
                              _ draw: (PDFDocument) throws -> Void) throws -> [UInt8] {
        try renderLock.withLock { fontMap throws -> [UInt8] in
            if fontMap == nil { fontMap = FontMap(pointer: pango_cairo_font_map_new()) }
            let document = try PDFDocument(width: width, height: height, fontMap: fontMap!.pointer, title: title, creator: creator)
            defer { document.release() }
            try draw(document)
            return try document.finish()
        }
    }

    private static let renderLock = Mutex<FontMap?>(nil)

    private init(width: Double, height: Double, fontMap: OpaquePointer, title: String, creator: String) throws {
        pageWidth = width
        pageHeight = height
        sink = ByteSink()
        surface = cairo_pdf_surface_create_for_stream(ByteSink.write, Unmanaged.passUnretained(sink).toOpaque(), width, height)
        cr = cairo_create(surface)
        pango = pango_font_map_create_context(UnsafeMutablePointer(fontMap))
        pango_cairo_update_context(cr, pango)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, creator)
        try check()
    }

    private var released = false

    private func release() {
        guard !released else { return }
        released = true
        for layout in layouts.values { g_object_unref(UnsafeMutableRawPointer(layout)) }
        layouts = [:]
        for description in fonts.values { pango_font_description_free(description) }
        fonts = [:]
        g_object_unref(UnsafeMutableRawPointer(pango))
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    private func finish() throws -> [UInt8] {
        cairo_surface_finish(surface)
        try check()
        return sink.bytes
    }

    private func check() throws {
        let status = cairo_surface_status(surface)
        let drawing = cairo_status(cr)
        for s in [status, drawing] where s != CAIRO_STATUS_SUCCESS {
            throw PDFError(message: "cairo: " + String(cString: cairo_status_to_string(s)))
        }
    }

    /// Adds a page and lets `draw` fill it.
    public func page(_ draw: (PDFPage) throws -> Void) throws {
        cairo_save(cr)
        try draw(PDFPage(document: self))
        cairo_restore(cr)
        cairo_show_page(cr)
        pageCount += 1
        try check()
    }

    // MARK: text

    /// The size of `text` set in `font`, wrapped at `width` when given (words, then characters).
    public func measure(_ text: String, font: PDFFont, width: Double? = nil) -> PDFTextSize {
        withLayout(text, font: font, width: width) { Self.size(of: $0) }
    }

    func withLayout<T>(_ text: String, font: PDFFont, width: Double?, alignment: PDFTextAlignment = .start,
                       _ body: (OpaquePointer) -> T) -> T {
        let key = LayoutKey(text: text, font: font, width: width, alignment: alignment)
        if let layout = layouts[key] { return body(layout) }
        let layout = pango_layout_new(pango)!
        layouts[key] = layout
        pango_layout_set_font_description(layout, description(font))
        if let width {
            pango_layout_set_width(layout, Int32((width * Double(PANGO_SCALE)).rounded(.down)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            switch alignment {
            case .start: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
            case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
            case .end: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
            }
        }
        pango_layout_set_text(layout, text, -1)
        return body(layout)
    }

    static func size(of layout: OpaquePointer) -> PDFTextSize {
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_size(layout, &w, &h)
        let scale = Double(PANGO_SCALE)
        return PDFTextSize(width: Double(w) / scale, height: Double(h) / scale,
                           baseline: Double(pango_layout_get_baseline(layout)) / scale)
    }

    /// Font sizes are absolute (points on the page): pango's relative sizes assume 96 dpi.
    private func description(_ font: PDFFont) -> OpaquePointer {
        if let d = fonts[font] { return d }
        let d = pango_font_description_new()!
        pango_font_description_set_family(d, font.family)
        pango_font_description_set_absolute_size(d, font.size * Double(PANGO_SCALE))
        pango_font_description_set_weight(d, font.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        fonts[font] = d
        return d
    }

    var context: OpaquePointer { cr }

    /// After drawing under a rotation: pango's context follows cairo's matrix again.
    func resetTextTransform() { pango_cairo_update_context(cr, pango) }
}

private struct LayoutKey: Hashable {
    var text: String
    var font: PDFFont
    var width: Double?
    var alignment: PDFTextAlignment
}

/// What cairo reported.
public struct PDFError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}

/// The process's pango font map (owned for the process's lifetime, used only under the render lock).
private struct FontMap: @unchecked Sendable {
    let pointer: OpaquePointer

    init(pointer: UnsafeMutablePointer<PangoFontMap>) { self.pointer = OpaquePointer(pointer) }
}

/// Collects the bytes cairo writes (`cairo_pdf_surface_create_for_stream`).
private final class ByteSink {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(256 * 1024) }

    static let write: cairo_write_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
    }
}
