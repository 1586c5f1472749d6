"""The complete web check-in (docs/product.md, W) on phone screens from 320 to 430 px: the
activation link pre-fills the form without using the code, every problem of a refused form shown
at once at its field, no horizontal overflow and emergency checkboxes that keep their size when
their labels wrap, German pages with plain words and German dates, yellow and red instructions
with the study ID, the clinic's and the emergency number; axe on every page.
Tooling, not product code."""
import json

from browser.harness import CLINIC_PHONE, EMERGENCY_NUMBER, berlin_date

WIDTHS = (320, 390, 430)


def phone(t, width, german=False):
    language = "de-DE,de;q=0.9" if german else "en-GB,en;q=0.9"
    return t.browser_instance.new_context(base_url=t.d.base, locale="de-DE" if german else "en-GB",
                                          viewport={"width": width, "height": 800}, is_mobile=True, has_touch=True,
                                          extra_http_headers={"Accept-Language": language})


def enrol(d, sid, **extra):
    body = {"studyId": sid, "surgeryDate": berlin_date(-6), "timeZone": "Europe/Berlin", "age": 66, "sex": "female",
            "bmi": 24.0, "baselineWeightKg": 70.0, "fluidLimitMl": 1500.0}
    body.update(extra)
    return d.api("POST", "/v1/patients", body)


def activate(page, url):
    page.goto(url)
    with page.expect_navigation():
        page.click("form[action='/app/activate'] button[type=submit]")


def layout_holds(t, page, what, width):
    """No horizontal overflow; every checkbox and radio at least 24 px square."""
    c = t.c
    wide = page.evaluate("document.documentElement.scrollWidth")
    c.check(f"webapp: {what} has no horizontal overflow at {width} px", wide <= width, f"scrollWidth {wide}")
    sizes = page.eval_on_selector_all("input[type=checkbox], input[type=radio]",
                                      "xs => xs.map(x => { const r = x.getBoundingClientRect(); return [x.id, r.width, r.height]; })")
    small = [s for s in sizes if s[1] < 24 or s[2] < 24]
    if sizes:
        c.check(f"webapp: {what}: every checkbox and radio ≥ 24 px at {width} px", not small, str(small))


def run(t):
    p, d, c = t.p, t.d, t.c
    browser = t.browser()
    t.browser_instance = browser

    # The activation link: a preview (GET) pre-fills, only the patient's POST uses the code.
    e = enrol(d, "BR-WA", desmopressinPrescribed=True)
    url = e.get("activationURL") or ""
    c.check("webapp: enrolment returns the activation link", url.startswith(d.base + "/app/activate?study=BR-WA&code="), url)
    ctx = phone(t, 320)
    page = ctx.new_page()
    page.goto(url.replace(d.base, ""))
    c.check("webapp: the link pre-fills study ID and code", page.input_value("#studyId") == "BR-WA"
            and page.input_value("#code") == e["activationCode"])
    c.check("webapp: opening the link does not activate", d.api("GET", "/v1/patients/BR-WA")["activatedAt"] is None)
    c.check("webapp: the app box reads 'I also use the HyponaTrack app' and is unticked",
            "I also use the HyponaTrack app" in page.locator("label[for=alsoApp]").text_content() and not page.is_checked("#alsoApp"))
    layout_holds(t, page, "the activation page", 320)
    t.accessible(page, "the activation page from the link (320 px)")
    with page.expect_navigation():
        page.click("form[action='/app/activate'] button[type=submit]")
    tasks = page.eval_on_selector_all("#tasks li", "ls => ls.map(l => l.dataset.task)")
    c.check("webapp: web-only by default: no reaction or tapping task, desmopressin stays",
            tasks and not {"reaction_test", "tapping_test"} & set(tasks) and "desmopressin" in tasks, str(tasks))

    # Every problem at once, each at its field.
    page.goto("/app/morning")
    page.fill("#weightMorningKg", "500")
    page.fill("#urineSG", "2")
    page.fill("#fluidIntakeMl", "a lot")
    page.fill("#vomitingEpisodes", "99")
    page.fill("#doseMcg", "5000")
    for item in ("nausea", "fatigue", "confusion", "muscleCramps"):
        page.check(f"#{item}-0")
    page.click("form[action='/app/morning'] button[type=submit]")
    expected = ["weightMorningKg", "urineSG", "fluidIntakeMl", "vomitingEpisodes", "doseMcg", "headache", "vas"]
    shown = page.eval_on_selector_all("p.error[id$='-error']", "ps => ps.map(p => p.id.replace(/-error$/, ''))")
    c.check("webapp: seven problems, seven messages", sorted(shown) == sorted(expected), str(shown))
    at_field = page.evaluate("""names => names.filter(n => {
        const f = document.getElementById(n), m = document.getElementById(n + '-error');
        const box = f && f.closest('.field, fieldset');
        return f && m && box && box.contains(m) && f.getAttribute('aria-invalid') === 'true'
            && (f.getAttribute('aria-describedby') || '').includes(n + '-error'); })""", expected)
    c.check("webapp: each message sits at its field and is tied to it", sorted(at_field) == sorted(expected), str(at_field))
    c.check("webapp: the summary links to each problem", page.locator("#error-summary a").count() == len(expected))
    day = [x for x in d.api("GET", "/v1/patients/BR-WA")["timeline"] if x["date"] == berlin_date(0)]
    c.check("webapp: nothing was stored", not day or not day[0].get("data"), json.dumps(day))
    c.check("webapp: the fluid limit is shown beside the fluid field", "1500" in page.locator("#fluidIntakeMl-hint").text_content())
    layout_holds(t, page, "the refused morning form", 320)
    t.accessible(page, "the refused morning form (320 px)")
    t.screenshot(page, "webapp-problems-320-en.png", full_page=False)
    ctx.close()

    # Phone widths and languages: the form and today's page, a yellow and a red patient.
    e = enrol(d, "BR-WY")
    token_y = d.api("POST", "/v1/activate", {"studyId": "BR-WY", "code": e["activationCode"]}, token="none")["token"]
    d.api("PUT", f"/v1/me/days/{berlin_date(0)}", {"weightMorningKg": 71.8}, token=token_y)
    e = enrol(d, "BR-WR")
    red_url = e["activationURL"].replace(d.base, "")
    for width in WIDTHS:
        for german in (False, True):
            lang = "de" if german else "en"
            ctx = phone(t, width, german)
            page = ctx.new_page()
            if width == WIDTHS[0] and not german:
                activate(page, red_url)
                page.goto("/app/evening")
                page.fill("#weightEveningKg", "70")
                page.fill("#fluidIntakeMl", "1200")
                page.fill("#vomitingEpisodes", "2")
                for item in ("nausea", "headache", "fatigue", "confusion", "muscleCramps"):
                    page.check(f"#{item}-1" if item == "nausea" else f"#{item}-0")
                page.check("#vas-6")
                with page.expect_navigation():
                    page.click("form[action='/app/evening'] button[type=submit]")
                c.check("webapp: two vomiting episodes on the web make a red", page.get_attribute("#light", "data-level") == "red")
                red_cookie = next(k for k in ctx.cookies() if k["name"] == "ht_patient")
            else:
                ctx.add_cookies([dict(red_cookie)])
            page.goto("/app/")
            light = page.locator("#light").text_content()
            c.check(f"webapp: red ({lang}, {width} px) names the study ID, the clinic and the emergency number",
                    "BR-WR" in light and CLINIC_PHONE in light and EMERGENCY_NUMBER in light, light)
            layout_holds(t, page, f"the red today page ({lang})", width)
            if width in (320, 390):
                t.screenshot(page, f"webapp-red-{width}-{lang}.png")
            page.goto("/app/evening")
            layout_holds(t, page, f"the evening form ({lang})", width)
            boxes = page.eval_on_selector_all(".emergency input[type=checkbox]", "xs => xs.map(x => x.getBoundingClientRect().width)")
            c.check(f"webapp: emergency checkboxes keep their size with wrapped labels ({lang}, {width} px)",
                    boxes and min(boxes) >= 24, str(boxes))
            if width in (320, 390):
                t.screenshot(page, f"webapp-evening-{width}-{lang}.png")
                if t.screenshots:
                    page.locator("fieldset.emergency").screenshot(path=f"{t.screenshots}/webapp-emergency-{width}-{lang}.png")
            if width == 320:
                t.accessible(page, f"the evening form ({lang}, 320 px)")
            ctx.clear_cookies()
            ctx.add_cookies([{"name": "ht_patient", "value": token_y, "url": d.base + "/app/"}])
            page.goto("/app/")
            light = page.locator("#light").text_content()
            words = "Tag 6 nach Ihrer Operation" if german else "Day 6 after your operation"
            today = berlin_date(0)
            months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                      "November", "December"]
            date = (f"{int(today[8:10])}.{int(today[5:7])}.{today[:4]}" if german
                    else f"{int(today[8:10])} {months[int(today[5:7]) - 1]} {today[:4]}")
            c.check(f"webapp: yellow ({lang}, {width} px) names the study ID, the clinic, the emergency number and the call",
                    "BR-WY" in light and CLINIC_PHONE in light and EMERGENCY_NUMBER in light
                    and ("Die Klinik ruft Sie" in light if german else "The clinic will call you" in light), light)
            day_line = page.locator("#day").text_content()
            c.check(f"webapp: plain words and the language's date ({lang})", words in day_line and date in day_line, day_line)
            layout_holds(t, page, f"the yellow today page ({lang})", width)
            if width in (320, 390):
                t.screenshot(page, f"webapp-yellow-{width}-{lang}.png")
            if width == 320:
                t.accessible(page, f"the yellow today page ({lang}, 320 px)")
            ctx.close()
    browser.close()
