// cairo (PDF surfaces, paths) and pango (text layout, through pangocairo) for the PDF report.
// Only the PDFCanvas target imports this module. The include paths (glib, harfbuzz, freetype…)
// come from pkg-config's `pangocairo` (Package.swift).
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>
