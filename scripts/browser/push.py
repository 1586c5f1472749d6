"""'Remind me on this phone' on the web check-in in chromium: the control appears (the script runs
and the browser can push), the service worker registers at /app/sw.js, and a subscription posted
by the page's own script context with its CSRF token is registered. A real subscription needs a
push service, which is not reachable here: chromium's subscribe fails and the page says so.
With --screenshots: the control on today's page and the console patient page's push section at
1280 and 390 px, in English and German (push-*.png).
Tooling, not product code."""
import os

from playwright.sync_api import expect

from browser.harness import CHROMIUM, berlin_date


def run(t):
    p, d, c = t.p, t.d, t.c
    e = d.api("POST", "/v1/patients", {"studyId": "BR-PUSH", "surgeryDate": berlin_date(-6), "timeZone": "Europe/Berlin",
                                       "age": 58, "sex": "female", "bmi": 24.0, "baselineWeightKg": 66.0})
    browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
    ctx = browser.new_context(base_url=d.base, locale="en-GB", viewport={"width": 390, "height": 800}, is_mobile=True,
                              has_touch=True, permissions=["notifications"])
    page = ctx.new_page()
    page.goto("/app/activate")
    page.fill("#studyId", "BR-PUSH")
    page.fill("#code", e["activationCode"])
    with page.expect_navigation():
        page.click("button[type=submit]")
    control = page.locator("#remind-me")
    c.check("push: 'Remind me on this phone' is shown where the browser can push", control.is_visible(),
            page.evaluate("'PushManager' in window"))
    c.check("push: the control carries the VAPID public key (87 base64url characters)",
            len(control.get_attribute("data-vapid-key") or "") == 87)
    control.click()
    # Not wait_for_function: its string is compiled in the page, which the CSP's eval ban refuses.
    expect(page.locator("#remind-me-status")).not_to_have_text("", timeout=20000)
    registration = page.evaluate("navigator.serviceWorker.getRegistration('/app/').then(r => r ? r.scope : null)")
    c.check("push: the service worker is registered for /app/", (registration or "").endswith("/app/"), str(registration))
    # The registration request exactly as the script sends it, with a subscription made in the page.
    status = page.evaluate("""async () => {
        const key = await crypto.subtle.generateKey({name: 'ECDH', namedCurve: 'P-256'}, true, ['deriveBits']);
        const raw = new Uint8Array(await crypto.subtle.exportKey('raw', key.publicKey));
        const b64 = bytes => btoa(String.fromCharCode(...bytes)).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
        const control = document.getElementById('remind-me');
        const r = await fetch('/app/devices', {method: 'POST', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json', 'X-CSRF-Token': control.dataset.csrf},
            body: JSON.stringify({platform: 'webpush', language: 'en', subscription: {endpoint: 'https://push.browser.test/sub/1',
                expirationTime: null, keys: {p256dh: b64(raw), auth: b64(crypto.getRandomValues(new Uint8Array(16)))}}})});
        return r.status;
    }""")
    c.check("push: POST /app/devices registers the subscription with the cookie and the CSRF token", status == 201, str(status))
    devices = [x for x in (d.api("GET", "/v1/patients/BR-PUSH/reminders") or {}).get("devices", [])]
    c.check("push: staff see the browser as the patient's device", len(devices) == 1 and devices[0]["platform"] == "webpush",
            str(devices))
    t.accessible(page, "today's page with 'Remind me on this phone'")
    ctx.close()
    pictures(t, browser)
    browser.close()


def pictures(t, browser):
    """The control and the staff view at a desktop's and a phone's width, in both languages; the
    control must stay inside the page at 390 px."""
    for lang, locale in (("en", "en-GB"), ("de", "de-DE")):
        for width in (1280, 390):
            page = t.console(browser, locale=locale, width=width, height=900, next_path="/console/patients/BR-PUSH")
            section = page.locator("#reminders")
            section.scroll_into_view_if_needed()
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            t.c.check(f"push: the patient page's push section fits a {width} px screen ({lang})", overflow <= 0, str(overflow))
            if t.screenshots:   # the section only: from its heading down
                top = page.evaluate("document.getElementById('reminders').getBoundingClientRect().top + window.scrollY")
                page.screenshot(path=os.path.join(t.screenshots, f"push-console-{lang}-{width}.png"), full_page=True,
                                clip={"x": 0, "y": max(0, top - 16), "width": width, "height": 720})
            page.context.close()
    ctx = None
    for lang, locale in (("en", "en-GB"), ("de", "de-DE")):
        for width in (1280, 390):
            ctx = browser.new_context(base_url=t.d.base, locale=locale, viewport={"width": width, "height": 900},
                                      is_mobile=width < 500, has_touch=width < 500, permissions=["notifications"],
                                      extra_http_headers={"Accept-Language": f"{locale},{lang};q=0.9"})
            page = ctx.new_page()
            code = t.d.api("POST", "/v1/patients/BR-PUSH/activation", {"addDevice": True})["activationCode"]
            page.goto("/app/activate")
            page.fill("#studyId", "BR-PUSH")
            page.fill("#code", code)
            with page.expect_navigation():
                page.click("button[type=submit]")
            control = page.locator("#remind-me")
            box = control.bounding_box() or {"x": -1, "width": 0}
            t.c.check(f"push: 'Remind me' is inside a {width} px screen ({lang})",
                      control.is_visible() and box["x"] >= 0 and box["x"] + box["width"] <= width, str(box))
            t.screenshot(page, f"push-app-{lang}-{width}.png")
            ctx.close()
