"""The CSV downloads for Excel on the German console, and an inbox action that keeps its filter.
Tooling, not product code."""
import csv
import io


def run(t):
    """On the German statistics page each CSV download has a "für Excel" link beside it; the file
    it saves starts with the UTF-8 byte order mark, is separated by ';' and writes BR-YEL's 82 kg
    as 82,0. Then, on the inbox filtered to red, acknowledging an alert comes back to the same
    filtered inbox."""
    d, c = t.d, t.c
    browser = t.browser()
    page = t.console(browser, locale="de-DE", next_path="/console/statistics")
    page.goto("/console/statistics")
    links = page.locator("a.excel")
    texts = [links.nth(i).inner_text() for i in range(links.count())]
    c.check("exports: a 'für Excel' link beside each of the four CSV downloads (German)",
            texts == ["für Excel"] * 4, str(texts))
    with page.expect_download() as info:
        page.click("a.excel[href^='/console/export/days.csv']")
    path = info.value.path()
    data = open(path, "rb").read()
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), delimiter=";"))
    header, body = rows[0], [dict(zip(rows[0], r)) for r in rows[1:]]
    yellow = [r for r in body if r.get("record_id") == "BR-YEL"]
    c.check("exports: the Excel file has a byte order mark, ';' and German decimal commas",
            data[:3] == b"\xef\xbb\xbf" and header[:3] == ["record_id", "site", "dm_date"]
            and bool(yellow) and yellow[0].get("weight_morning_kg") == "82,0",
            f"{data[:40]!r} {yellow[:1]}")
    t.accessible(page, "the German statistics page with the Excel links")
    page.context.close()

    page = t.console(browser, next_path="/console/alerts?level=red")
    page.goto("/console/alerts?level=red")
    quick = page.locator("form.quick button")
    if quick.count() == 0:
        c.check("inbox: an unacknowledged red alert to acknowledge", False, "none on the red filter")
    else:
        with page.expect_navigation():
            quick.first.click()
        c.check("inbox: acknowledging from the red filter returns to the red filter",
                "/console/alerts?level=red#alert-" in page.url, page.url)
    page.context.close()
    browser.close()
