"""The second factor in chromium: "Set up sign-in codes" with its inline-SVG QR, confirmed with
a first code, then the sign-in form's code step — English and German, 1280 and 390 px wide.
The codes come from pyotp (scripts/totp-peer), the authenticator the integration tests use.
Tooling, not product code."""
import os
import subprocess

from browser.harness import PASSWORD

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def totp(secret, steps=0):
    out = subprocess.run([os.path.join(ROOT, "scripts", "totp-peer"), "code", f"otpauth://totp/x?secret={secret}", str(steps)],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


def run(t):
    """Per language and width a new member sets up codes on the console, confirms with pyotp's
    code and lands on the board; signing in again, the same form asks for the code."""
    d, c = t.d, t.c
    browser = t.browser()
    for locale, width in (("en-GB", 1280), ("de-DE", 390), ("en-GB", 390), ("de-DE", 1280)):
        lang = locale[:2]
        name = f"mfa.{lang}{width}"
        d.api("POST", "/v1/staff", {"name": name, "role": "nurse", "allSites": True})
        d.api("PUT", f"/v1/staff/{name}/password", {"password": PASSWORD})
        page = t.console(browser, name=name, locale=locale, width=width, height=900)
        page.goto("/console/mfa")
        with page.expect_navigation():
            page.click("#mfa-start")
        qr = page.locator("#mfa-qr svg")
        c.check(f"mfa {lang} {width}: the set-up page shows the QR as inline SVG, the key and 10 recovery codes",
                qr.count() == 1 and page.locator("#mfa-recovery li").count() == 10, page.url)
        box = qr.bounding_box()
        c.check(f"mfa {lang} {width}: the QR fits the screen", box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width,
                str(box))
        t.accessible(page, f"the {lang} set-up page at {width} px")
        t.screenshot(page, f"mfa-setup-{lang}-{width}.png")
        secret = page.locator("#mfa-secret").inner_text().strip()
        page.fill("#code", totp(secret))
        with page.expect_navigation():
            page.click("#mfa-confirm")
        c.check(f"mfa {lang} {width}: a first code activates the factor and opens the board",
                page.url.endswith("/console/"), page.url)
        page.context.close()

        language = "de-DE,de;q=0.9" if lang == "de" else "en-GB,en;q=0.9"
        ctx = browser.new_context(base_url=d.base, locale=locale, viewport={"width": width, "height": 900},
                                  extra_http_headers={"Accept-Language": language})
        page = ctx.new_page()
        page.goto("/console/login")
        page.fill("#name", name)
        page.fill("#password", PASSWORD)
        with page.expect_navigation():
            page.click("#signin button[type=submit]")
        c.check(f"mfa {lang} {width}: after the password the same form asks for the code",
                page.locator("#signin #code").count() == 1 and page.locator("#password").count() == 0, page.url)
        t.accessible(page, f"the {lang} code step at {width} px")
        t.screenshot(page, f"mfa-code-{lang}-{width}.png")
        page.fill("#code", totp(secret, 1))
        with page.expect_navigation():
            page.click("#signin button[type=submit]")
        c.check(f"mfa {lang} {width}: the code signs in", page.url.endswith("/console/"), page.url)
        ctx.close()
    browser.close()
