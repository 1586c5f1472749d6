"""The patient's web check-in on a 360 px phone screen: activation, a morning check with refused values
at their fields, a resend kept as one entry, German.
Tooling, not product code."""
import json
import os
import time

from browser.harness import CHROMIUM, EMERGENCY_NUMBER, PASSWORD, berlin_date


def run(t):
    """The web check-in on a phone-sized screen."""
    p, d, c, accessible, screenshots = t.p, t.d, t.c, t.accessible, t.screenshots
    e = d.api("POST", "/v1/patients", {"studyId": "BR-WEB", "surgeryDate": berlin_date(-6), "timeZone": "Europe/Berlin",
                                       "age": 61, "sex": "male", "bmi": 28.0, "baselineWeightKg": 80.0, "fluidLimitMl": 1500.0,
                                       "desmopressinPrescribed": True})
    browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
    ctx = browser.new_context(base_url=d.base, locale="en-GB", viewport={"width": 360, "height": 740}, is_mobile=True,
                              has_touch=True)
    page = ctx.new_page()
    page.goto("/app/")
    c.check("app: without a token the check-in asks for activation", page.url.endswith("/app/activate"), page.url)
    accessible(page, "the app's activation page")
    page.fill("#studyId", "BR-WEB")
    page.fill("#code", "WRONG-CODE1")
    page.click("button[type=submit]")
    c.check("app: a wrong code is shown at the code field", page.locator("#code-error").is_visible()
            and page.get_attribute("#code", "aria-invalid") == "true")
    page.fill("#studyId", "BR-WEB")
    page.fill("#code", e["activationCode"])
    # Left unticked ("I also use the HyponaTrack app"): the patient is web-only.
    with page.expect_navigation():
        page.click("button[type=submit]")
    c.check("app: activated, today's page is shown", page.url.endswith("/app/") and page.locator("#light").is_visible(), page.url)
    cookie = next((k for k in ctx.cookies() if k["name"] == "ht_patient"), None)
    c.check("app: the token is in ht_patient (HttpOnly, SameSite=Strict, Path=/app/, kept until it expires)",
            cookie is not None and cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == "/app/"
            and cookie["expires"] > time.time() + 7 * 86400, str(cookie))
    c.check("app: the token is not readable from script", "htp_" not in page.evaluate("document.cookie + JSON.stringify(localStorage) + JSON.stringify(sessionStorage)"))
    tasks = page.eval_on_selector_all("#tasks li", "ls => ls.map(l => l.dataset.task)")
    c.check("app: web-only hides the reaction and tapping tasks; desmopressin (prescribed) stays",
            tasks and not {"reaction_test", "tapping_test"} & set(tasks) and "desmopressin" in tasks, str(tasks))
    emergency = page.locator(".emergency").first.text_content()
    c.check("app: the emergency instruction names the configured emergency number, not 112",
            EMERGENCY_NUMBER in emergency and "112" not in emergency
            and page.locator(f"a.call[href='tel:{EMERGENCY_NUMBER}']").count() >= 1, emergency)
    wide = page.evaluate("document.documentElement.scrollWidth")
    c.check("app: nothing wider than a 360 px screen", wide <= 360, str(wide))
    accessible(page, "the app's today page")

    # A morning check.
    page.click("a.button[href='/app/morning']")
    accessible(page, "the morning check")
    before = d.api("GET", "/v1/patients/BR-WEB")
    page.fill("#weightMorningKg", "500")
    for item in ("nausea", "headache", "fatigue", "confusion", "muscleCramps"):
        page.check(f"#{item}-0")
    page.check("#vas-8")
    page.click("form[action='/app/morning'] button[type=submit]")
    c.check("app: an invalid weight is shown at its field", page.locator("#weightMorningKg-error").is_visible()
            and page.get_attribute("#weightMorningKg", "aria-invalid") == "true", page.url)
    c.check("app: and nothing was stored", d.api("GET", "/v1/patients/BR-WEB") == before)
    c.check("app: the other answers are kept in the re-shown form", page.is_checked("#vas-8"))
    page.fill("#weightMorningKg", "80,6")
    page.fill("#fluidIntakeMl", "a glass")
    page.click("form[action='/app/morning'] button[type=submit]")
    c.check("app: a refused fluid intake is shown at its field", page.locator("#fluidIntakeMl-error").is_visible(), page.url)
    page.fill("#fluidIntakeMl", "")
    page.evaluate("document.querySelector('.emergency input[type=checkbox]').value = 'bogus'")   # a stale or tampered form
    page.check(".emergency input[type=checkbox]")
    page.click("form[action='/app/morning'] button[type=submit]")
    c.check("app: a refused emergency sign is shown in the emergency box",
            page.locator("fieldset.emergency #emergencySymptoms-error").is_visible(), page.url)
    accessible(page, "the morning check with a refused emergency sign")
    page.fill("#weightMorningKg", "80,6")
    page.fill("#fluidIntakeMl", "600")
    page.check("#nausea-1")
    if screenshots:
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=os.path.join(screenshots, "app-morning.png"), full_page=False)
    with page.expect_navigation():
        page.click("form[action='/app/morning'] button[type=submit]")
    c.check("app: the check is saved and the light shown", "saved=morning" in page.url
            and page.locator("#light").get_attribute("data-level") in ("green", "yellow", "red"), page.url)
    c.check("app: the light has its instructions", len(page.locator("#instructions").text_content()) > 20)
    if screenshots:
        page.screenshot(path=os.path.join(screenshots, "app-today.png"), full_page=False)
    # The same form again (a resend): still one entry.
    page.goto("/app/morning")
    c.check("app: the form shows what was saved", page.input_value("#weightMorningKg") == "80.6" and page.is_checked("#nausea-1"))
    with page.expect_navigation():
        page.click("form[action='/app/morning'] button[type=submit]")
    day = next(t for t in d.api("GET", "/v1/patients/BR-WEB")["timeline"] if t["date"] == berlin_date(0))
    morning = [s for s in day["data"].get("symptoms", []) if s["slot"] == "morning"]
    c.check("app: a resent form is still one entry", len(morning) == 1 and morning[0]["id"].startswith("web-morning-"), json.dumps(morning))
    c.check("app: the morning check stored the fluid intake so far", day["data"].get("fluidIntakeMl") == 600, json.dumps(day["data"]))
    ctx.close()

    # German.
    de = browser.new_context(base_url=d.base, locale="de-DE", viewport={"width": 360, "height": 740},
                             extra_http_headers={"Accept-Language": "de-DE,de;q=0.9"})
    dp = de.new_page()
    dp.goto("/app/activate")
    c.check("app: German from Accept-Language", dp.get_attribute("html", "lang") == "de"
            and "Studien-ID" in dp.locator("label[for=studyId]").text_content())
    de.close()
    browser.close()
