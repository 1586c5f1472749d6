"""The inbox's size: 25 alerts at 1,280×800 and a 390 px phone, both languages.
Tooling, not product code."""
import json
import os
import time

from browser.harness import CHROMIUM, EMERGENCY_NUMBER, PASSWORD, berlin_date


def run(t):
    """The contract's inbox check (docs/product.md, third round, "Settled details", C): 25 alerts
    fit in 1,600 px at a 1,280×800 viewport, English, notes collapsed; and a 390 px phone screen
    has no page-level horizontal overflow. Adds red patients BR-I01… until 25 alerts are unresolved."""
    d, c = t.d, t.c
    surgery, day = berlin_date(-12), berlin_date(-1)
    unresolved = [a for a in d.api("GET", "/v1/alerts") if a["state"] != "resolved"]
    for n in range(1, 26 - len(unresolved)):
        sid = f"BR-I{n:02d}"
        e = d.api("POST", "/v1/patients", {"studyId": sid, "surgeryDate": surgery, "timeZone": "Europe/Berlin", "age": 60,
                                           "sex": "male", "bmi": 25.0, "baselineWeightKg": 80.0, "fluidLimitMl": 1500.0})
        token = d.api("POST", "/v1/activate", {"studyId": sid, "code": e["activationCode"]}, token="none")["token"]
        body = {"emergencySymptoms": ["drowsiness"]} if n % 3 else {"weightMorningKg": 82.0, "fluidIntakeMl": 2000}
        d.api("PUT", f"/v1/me/days/{day}", body, token=token)
    browser = t.browser()
    for locale in ("en-GB", "de-DE"):
        for width, height in ((1280, 800), (390, 844)):
            page = t.console(browser, locale=locale, width=width, height=height, next_path="/console/alerts")
            ctx = page.context
            page.goto("/console/alerts")
            rows = page.locator("table.inbox tbody tr").count()
            opened = page.locator("details[open]").count()
            tall = page.evaluate("document.documentElement.scrollHeight")
            wide = page.evaluate("document.documentElement.scrollWidth")
            print(f"      inbox {locale} {width}×{height}: {rows} rows, scrollHeight {tall}, scrollWidth {wide}")
            if width == 1280 and locale == "en-GB":
                c.check("inbox: 25 alerts, notes collapsed, fit in 1,600 px at 1,280×800 (English)",
                        rows == 25 and opened == 0 and tall <= 1600, f"{rows} rows, {opened} open, scrollHeight {tall}")
            if width == 390:
                c.check(f"inbox: no horizontal overflow at 390 px ({locale})", wide <= 390, str(wide))
            t.screenshot(page, f"inbox-{locale[:2]}-{width}.png")
            ctx.close()
    browser.close()
