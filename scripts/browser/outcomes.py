"""Outcomes on the console: the outcome form on a patient's page (every refused field at once,
nothing stored) and the outcome report's page with its three SVG charts, at 1280 and 390 px, in
English and German. Tooling, not product code."""
from browser.harness import berlin_date


def run(t):
    """A nurse records BR-RED's hyponatremia today through the form (its red day yesterday warned
    of it a day ahead) after a refused try; the report page then counts the episode, draws three
    bar charts with data tables, and fits a phone without scrolling sideways; axe on each page."""
    d, c = t.d, t.c
    browser = t.browser()
    page = t.console(browser, next_path="/console/patients/BR-RED")
    page.goto("/console/patients/BR-RED")
    page.select_option("#outcome-kind", "hyponatremia")
    page.fill("#outcome-date", "2001-01-01")
    page.fill("#outcome-sodium", "99")
    with page.expect_navigation():
        page.click("#outcome-form button[type=submit]")
    errors = [page.locator(f"#outcome-{f}-error").count() for f in ("date", "sodium")]
    stored = d.api("GET", "/v1/patients/BR-RED/outcomes")
    c.check("outcomes: a refused form shows the date and the sodium at their fields at once, nothing stored",
            errors == [1, 1] and stored == [], f"{errors} {stored}")
    c.check("outcomes: the refused form keeps what was typed",
            page.input_value("#outcome-sodium") == "99" and page.input_value("#outcome-kind") == "hyponatremia")
    page.fill("#outcome-date", berlin_date(0))
    page.fill("#outcome-sodium", "129")
    page.fill("#outcome-note", "seen in the emergency department")
    with page.expect_navigation():
        page.click("#outcome-form button[type=submit]")
    row = page.locator("#outcome-list tr[data-kind=hyponatremia]")
    c.check("outcomes: the recorded outcome is listed on the patient's page",
            row.count() == 1 and "seen in the emergency department" in row.first.inner_text(), page.url)
    t.accessible(page, "a patient's page with an outcome")
    page.context.close()

    for locale, width in (("en-GB", 1280), ("de-DE", 390), ("en-GB", 390), ("de-DE", 1280)):
        page = t.console(browser, locale=locale, width=width, height=900, next_path="/console/outcomes")
        page.goto("/console/outcomes")
        charts = page.locator("svg.ht-bar-chart").count()
        episode = page.locator("#episode-list tr", has_text="BR-RED").count()
        heading = page.locator("h1").first.inner_text()
        c.check(f"outcomes page ({locale}, {width} px): three bar charts, the episode listed, in the page's language",
                charts == 3 and episode == 1 and heading == ("Ergebnisse" if locale.startswith("de") else "Outcomes"),
                f"{charts} {episode} {heading}")
        wide = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        c.check(f"outcomes page ({locale}, {width} px): no sideways scrolling", wide[0] <= wide[1], str(wide))
        leads = page.locator("#table-lead tbody tr").first.locator("th, td").all_text_contents()
        c.check(f"outcomes page ({locale}, {width} px): the lead-time table says one episode warned a day ahead",
                len(leads) == 3 and leads[0] == "1" and leads[1].startswith("1 ") and leads[2].startswith("1 "), str(leads))
        # A share's figure and its interval each stay on one line (at 390 px the cell broke at every space).
        lines = page.evaluate("""() => [...document.querySelectorAll('#outcome-figures span.share')].map(s => {
            const height = parseFloat(getComputedStyle(s).lineHeight) || parseFloat(getComputedStyle(s).fontSize) * 1.2;
            return Math.round(s.getBoundingClientRect().height / height); })""")
        c.check(f"outcomes page ({locale}, {width} px): each share and its interval on one line",
                lines and max(lines) == 1, str(lines))
        # Each chart's title once: the figure's heading; the SVG's own title is for the SVG alone.
        shown = page.evaluate("""() => [...document.querySelectorAll('figure.chart svg .ht-chart-title')]
            .filter(e => e.getBoundingClientRect().height > 0).length""")
        c.check(f"outcomes page ({locale}, {width} px): each chart's title shown once, as its heading", shown == 0, str(shown))
        t.screenshot(page, f"outcomes-{locale[:2]}-{width}.png")
        t.accessible(page, f"the outcomes page ({locale}, {width} px)")
        # The statistics page shares the outcome figures' number format (ConsoleText.number).
        page.goto("/console/statistics")
        heading = page.locator("h1").first.inner_text()
        c.check(f"statistics page ({locale}, {width} px): in the page's language",
                heading == ("Statistik" if locale.startswith("de") else "Statistics"), heading)
        wide = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        c.check(f"statistics page ({locale}, {width} px): no sideways scrolling", wide[0] <= wide[1], str(wide))
        t.screenshot(page, f"statistics-{locale[:2]}-{width}.png")
        t.accessible(page, f"the statistics page ({locale}, {width} px)")
        page.context.close()
    browser.close()
