"""Managing patients from the console (docs/product.md, third round, C): enrol (the code shown
once, not cached), edit the profile, a new code, correct a day's value, delete a wrong lab value,
withdraw; each with a refused value shown at its field (what was typed kept) and then a success,
in English and German, at a 1,280 px ward PC and a 390 px phone; axe on every page; a German page
without English words; a viewer sees no forms and is refused.
Tooling, not product code."""
import os
import re

from browser.harness import berlin_date

# Words of these pages that must not appear in a German page's text (level and role words too).
ENGLISH = re.compile(r"\b(red|yellow|green|nurse|viewer|admin|required|reason|save|withdraw|choose|enrol|"
                     r"patient's|activation|correct|delete|value|valid|issue|time zone|weight|consent)\b", re.I)


def fill(page, values):
    """Types each value into its field (`#id`: text, or a select's option value when the field is a select)."""
    for selector, value in values.items():
        if page.locator(selector).evaluate("e => e.tagName") == "SELECT":
            page.select_option(selector, value)
        else:
            page.fill(selector, value)


def submit(page, form):
    """Submits `form` (a CSS selector) and returns the response the browser ended on."""
    with page.expect_navigation() as nav:
        page.click(f"{form} button[type=submit]")
    return nav.value


def error_at_field(page, field_id):
    """The field's message is shown, visible, directly under its input (within 40 px)."""
    error = page.locator(f"#{field_id}-error")
    field = page.locator(f"#{field_id}")
    if error.count() != 1 or not error.is_visible():
        return False
    e, f = error.bounding_box(), field.bounding_box()
    return f is not None and e is not None and 0 <= e["y"] - (f["y"] + f["height"]) <= 40


def in_view(page, element_id):
    """The element is on screen as the page opened (the form's action carries its section's fragment)."""
    box = page.locator(f"#{element_id}").bounding_box()
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= page.viewport_size["height"]


def run(t):
    d, c = t.d, t.c
    browser = t.browser()
    surgery = berlin_date(-3)
    for locale in ("en-GB", "de-DE"):
        de = locale.startswith("de")
        for width, height in ((1280, 900), (390, 844)):
            tag = f"{locale[:2]}-{width}"
            sid = f"BR-M{locale[:2].upper()}{width}"
            page = t.console(browser, locale=locale, width=width, height=height)

            def look(what, name):
                t.accessible(page, f"{what} ({tag})")
                wide = page.evaluate("document.documentElement.scrollWidth")
                c.check(f"manage: {what} has no horizontal overflow at {width} px ({locale})", wide <= width, str(wide))
                if de:
                    english = sorted(set(m.lower() for m in ENGLISH.findall(page.inner_text("main"))))
                    c.check(f"manage: the German {what} has no English words ({width} px)", not english, ", ".join(english))
                t.screenshot(page, f"manage-{name}-{tag}.png")

            # Enrol: a refused age and BMI at their fields, what was typed kept; then the code page.
            page.goto("/console/")
            with page.expect_navigation():
                page.click("a[href='/console/enrolment']")
            fill(page, {"#enrol-studyId": sid, "#enrol-surgeryDate": surgery, "#enrol-age": "7", "#enrol-sex": "female",
                        "#enrol-bmi": "viel", "#enrol-baselineWeightKg": "68", "#enrol-fluidLimitMl": "1500"})
            r = submit(page, "#enrol-form")
            c.check(f"manage: a refused enrolment shows the age and the BMI at their fields ({tag})",
                    r.status == 400 and error_at_field(page, "enrol-age") and error_at_field(page, "enrol-bmi"), str(r.status))
            c.check(f"manage: the refused enrolment keeps what was typed ({tag})",
                    page.input_value("#enrol-studyId") == sid and page.input_value("#enrol-bmi") == "viel")
            look("refused enrolment", "enrol-refused")
            c.check(f"manage: nothing was enrolled ({tag})", all(p["studyId"] != sid for p in d.api("GET", "/v1/patients")))
            fill(page, {"#enrol-age": "64", "#enrol-bmi": "23,5" if de else "23.5"})
            r = submit(page, "#enrol-form")
            code = page.locator("#activation-code").inner_text() if page.locator("#activation-code").count() else ""
            c.check(f"manage: enrolled, the code page shows the code once, not cached ({tag})",
                    r.status == 200 and len(code) == 11 and r.headers.get("cache-control") == "no-store", f"{r.status} {code!r}")
            look("code page", "code")
            qr = page.locator("#activation-qr svg")
            box = qr.bounding_box() if qr.count() else None
            c.check(f"manage: the code page draws the activation link as a QR code ({tag})",
                    box is not None and box["width"] >= 150 and code in page.locator("#activation-url").inner_text(), str(box))
            if width == 1280:
                # Printed, the page is the patient's one-page handout: no navigation, no notes for staff.
                page.emulate_media(media="print")
                pdf = page.pdf(format="A4")
                page.emulate_media(media="screen")
                pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
                c.check(f"manage: the printed code page is one A4 page ({locale})", pages == 1, f"{pages} pages")
                if t.screenshots:
                    with open(os.path.join(t.screenshots, f"manage-handout-{locale[:2]}.pdf"), "wb") as fh:
                        fh.write(pdf)
            again = page.goto(f"/console/patients/{sid}/code")
            c.check(f"manage: the code page shows nothing on a second look ({tag})",
                    again.status == 410 and page.locator("#activation-code").count() == 0, str(again.status))

            # Edit the profile: a fluid limit out of range at its field; then saved and confirmed.
            page.goto(f"/console/patients/{sid}")
            with page.expect_navigation():
                page.click(f"a[href='/console/patients/{sid}/manage']")
            fill(page, {"#profile-fluidLimitMl": "100", "#profile-katB-podSodium": "133"})
            r = submit(page, "#profile-form")
            c.check(f"manage: a refused profile shows the fluid limit at its field ({tag})",
                    r.status == 400 and error_at_field(page, "profile-fluidLimitMl")
                    and page.input_value("#profile-katB-podSodium") == "133", str(r.status))
            look("refused profile", "profile-refused")
            page.fill("#profile-fluidLimitMl", "1200")
            r = submit(page, "#profile-form")
            stored = d.api("GET", f"/v1/patients/{sid}")["profile"]
            c.check(f"manage: the profile is saved and confirmed ({tag})",
                    page.locator("#done").count() == 1 and stored["fluidLimitMl"] == 1200 and stored["katB"]["podSodium"] == 133,
                    f"{r.status} {stored.get('fluidLimitMl')}")

            # Correct a day's value: a wrong value and no reason, both at their fields; then saved.
            page.goto(f"/console/patients/{sid}/manage#correct")
            fill(page, {"#correct-field": "weightMorningKg", "#correct-value": "8000"})
            r = submit(page, "#correct-form")
            c.check(f"manage: a refused correction shows the value and the missing reason at their fields ({tag})",
                    r.status == 400 and error_at_field(page, "correct-value") and error_at_field(page, "correct-reason"), str(r.status))
            c.check(f"manage: the refused correction opens at its form, the first message on screen ({tag})",
                    in_view(page, "correct-value-error"), str(page.locator("#correct-value-error").bounding_box()))
            look("refused correction", "correct-refused")
            fill(page, {"#correct-value": "69,1" if de else "69.1", "#correct-reason": "Waage falsch abgelesen" if de else "scale misread"})
            r = submit(page, "#correct-form")
            days = d.api("GET", f"/v1/patients/{sid}")["timeline"]
            c.check(f"manage: the corrected value is stored and confirmed ({tag})",
                    page.locator("#done").count() == 1 and any(x["data"].get("weightMorningKg") == 69.1 for x in days), str(r.status))

            # Delete a wrong lab value: no reason at its field; then deleted.
            d.api("POST", f"/v1/patients/{sid}/labs", {"sodium": 121})
            page.goto(f"/console/patients/{sid}/manage#delete-lab")
            page.select_option("#delete-lab-labId", index=1)
            r = submit(page, "#delete-lab-form")
            c.check(f"manage: a lab deletion without a reason is refused at the reason ({tag})",
                    r.status == 400 and error_at_field(page, "delete-lab-reason") and in_view(page, "delete-lab-reason-error"), str(r.status))
            page.fill("#delete-lab-reason", "Probe verwechselt" if de else "wrong patient's sample")
            r = submit(page, "#delete-lab-form")
            labs = [lab for x in d.api("GET", f"/v1/patients/{sid}")["timeline"] for lab in x["data"].get("labSodium", [])]
            c.check(f"manage: the lab value is deleted and confirmed ({tag})", page.locator("#done").count() == 1 and not labs)

            # A new code: shown once.
            page.goto(f"/console/patients/{sid}/manage#code")
            r = submit(page, "#code-form")
            c.check(f"manage: a new code is shown once ({tag})",
                    r.status == 200 and page.locator("#activation-code").count() == 1, str(r.status))

            # Withdraw: a date in the future at its field; then withdrawn.
            page.goto(f"/console/patients/{sid}/manage#withdraw")
            fill(page, {"#withdraw-date": berlin_date(5), "#withdraw-reason": "zieht um" if de else "moving away"})
            r = submit(page, "#withdraw-form")
            c.check(f"manage: a withdrawal dated in the future is refused at the date, the reason kept ({tag})",
                    r.status == 400 and error_at_field(page, "withdraw-date") and page.input_value("#withdraw-reason") != "", str(r.status))
            look("refused withdrawal", "withdraw-refused")
            page.fill("#withdraw-date", "")
            r = submit(page, "#withdraw-form")
            c.check(f"manage: the patient is withdrawn and it is confirmed ({tag})",
                    page.locator("#done").count() == 1 and d.api("GET", f"/v1/patients/{sid}")["withdrawn"], str(r.status))
            page.context.close()

    # A viewer: no enrol link, no management link, the pages refused.
    page = t.console(browser, name="ward.viewer")
    c.check("manage: a viewer's board has no enrol link", page.locator("a[href='/console/enrolment']").count() == 0)
    page.goto("/console/patients/BR-GRN")
    c.check("manage: a viewer's patient page has no management link",
            page.locator("a[href='/console/patients/BR-GRN/manage']").count() == 0)
    r = page.goto("/console/patients/BR-GRN/manage")
    c.check("manage: a viewer is refused the management page", r.status == 403, str(r.status))
    page.context.close()
    browser.close()
