"""Cross-site forged forms (security review, finding 1) end to end in chromium.
Tooling, not product code."""
import json
import os
import time

from browser.harness import CHROMIUM, EMERGENCY_NUMBER, PASSWORD, berlin_date


class AttackerSite:
    """Another site on loopback (`localhost`, not the daemon's `127.0.0.1`): serves one page
    whose sandboxed iframe posts a form to the daemon with target=_top, as the security review
    reproduced it (issue 33, finding 1). Tooling, not product code."""

    def __init__(self, html):
        import http.server
        import threading
        body = html.encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except BrokenPipeError:
                    pass   # the page navigated away (the forged form) before the body was read

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://localhost:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


def forged_form(action, fields):
    """A page whose sandboxed iframe (an opaque origin: the browser sends Origin: null) posts
    `fields` to `action` in the top window as soon as it loads."""
    import html
    inputs = "".join(f"<input name='{k}' value='{v}'>" for k, v in fields.items())
    inner = (f"<form id='f' method='post' action='{action}' target='_top'>{inputs}</form>"
             "<script>document.getElementById('f').submit()</script>")
    return ("<!DOCTYPE html><html><head><title>Your results are ready</title></head><body>"
            f"<iframe sandbox='allow-forms allow-scripts allow-top-navigation' srcdoc=\"{html.escape(inner)}\"></iframe>"
            "</body></html>")


def run(t):
    """Finding 1 end to end in chromium: a page on another site switches neither the victim's
    web check-in nor a console session; the POSTs get 403 and the victim's cookie and data stay."""
    p, d, c = t.p, t.d, t.c
    victim = d.api("POST", "/v1/patients", {"studyId": "BR-VICTIM", "surgeryDate": berlin_date(-6), "timeZone": "Europe/Berlin",
                                           "age": 64, "sex": "female", "bmi": 23.5, "baselineWeightKg": 68.0})
    attacker = d.api("POST", "/v1/patients", {"studyId": "BR-ATTACK", "surgeryDate": berlin_date(-6), "timeZone": "Europe/Berlin",
                                             "age": 40, "sex": "male", "bmi": 25.0, "baselineWeightKg": 80.0})
    browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
    ctx = browser.new_context(base_url=d.base, locale="en-GB", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto("/app/activate")
    page.fill("#studyId", "BR-VICTIM")
    page.fill("#code", victim["activationCode"])
    with page.expect_navigation():
        page.click("button[type=submit]")
    c.check("csrf: the victim's own activation form (Origin: null under no-referrer) still works",
            page.url.endswith("/app/") and page.locator("#light").is_visible(), page.url)
    c.check("csrf: the check-in page shows whose study ID it is", "BR-VICTIM" in page.locator("#study-id").text_content())
    cookie_before = next(k["value"] for k in ctx.cookies() if k["name"] == "ht_patient")
    record_before = d.api("GET", "/v1/patients/BR-VICTIM")["timeline"]

    site = AttackerSite(forged_form(d.base + "/app/activate", {"studyId": "BR-ATTACK", "code": attacker["activationCode"]}))
    try:
        with page.expect_response(lambda r: r.url.endswith("/app/activate") and r.request.method == "POST") as info:
            page.goto(site.url)
        response = info.value
        page.wait_for_url(d.base + "/app/activate")
        sent = response.request.all_headers()
        c.check("csrf: chromium sent the forged post as the review saw it (Origin: null, cross-site)",
                sent.get("origin") == "null" and sent.get("sec-fetch-site") == "cross-site", json.dumps(sent))
        c.check("csrf: the forged activation is refused with 403", response.status == 403,
                f"{response.status}, sent Origin={sent.get('origin')} Sec-Fetch-Site={sent.get('sec-fetch-site')}")
        cookie_after = next((k["value"] for k in ctx.cookies() if k["name"] == "ht_patient"), None)
        c.check("csrf: the victim's cookie is unchanged", cookie_after == cookie_before)
        page.goto("/app/")
        c.check("csrf: the browser is still the victim's", "BR-VICTIM" in page.locator("#study-id").text_content())
        c.check("csrf: the victim's record is unchanged", d.api("GET", "/v1/patients/BR-VICTIM")["timeline"] == record_before)
        used = d.api("POST", "/v1/activate", {"studyId": "BR-ATTACK", "code": attacker["activationCode"]}, token="none",
                     expect=(200, 401, 410))
        c.check("csrf: the attacker's code was not used by the forged post", bool(used and used.get("token")), json.dumps(used))
    finally:
        site.close()

    # The console: a forged sign-in would put a nurse's browser in the attacker's account.
    d.api("POST", "/v1/staff", {"name": "attacker.nurse", "role": "viewer"})
    d.api("PUT", "/v1/staff/attacker.nurse/password", {"password": PASSWORD})
    site = AttackerSite(forged_form(d.base + "/console/login", {"name": "attacker.nurse", "password": PASSWORD}))
    try:
        with page.expect_response(lambda r: r.url.endswith("/console/login") and r.request.method == "POST") as info:
            page.goto(site.url)
        page.wait_for_url(d.base + "/console/login")
        c.check("csrf: the forged console sign-in is refused with 403", info.value.status == 403, str(info.value.status))
        c.check("csrf: and opened no console session", not any(k["name"] == "ht_session" for k in ctx.cookies()))
    finally:
        site.close()
    ctx.close()
    browser.close()
