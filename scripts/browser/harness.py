"""What every browser check shares: the real daemon on a temporary data directory, the small
ward set up over the API, the check counter, chromium and a signed-in console page.
Tooling, not product code."""
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHROMIUM = os.environ.get("HYPONATRACK_CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
PASSWORD = "ward password 2026"
EMERGENCY_NUMBER = "999"
CLINIC_PHONE = "+49 30 555 0100"



class Failure(Exception):
    pass


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Daemon:
    def __init__(self, work):
        self.work = work
        cfg = os.path.join(work, "config")
        os.makedirs(cfg)
        for name in ("risk-model.json", "thresholds.json", "reminders.json", "instructions.json"):
            shutil.copy(os.path.join(ROOT, "config", name), cfg)
        self.config = os.path.join(cfg, "hyponatrack.json")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        # Web Push, so the check-in offers "Remind me on this phone" (scripts/browser/push.py).
        vapid = os.path.join(cfg, "vapid.pem")
        subprocess.run(["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", vapid], check=True)
        os.chmod(vapid, 0o600)
        with open(self.config, "w") as f:
            # Not the default 112: every emergency text must name the configured number.
            json.dump({"listen": "127.0.0.1:0", "dataDirectory": os.path.join(work, "data"),
                       "app": {"emergencyNumber": EMERGENCY_NUMBER, "clinicPhone": CLINIC_PHONE,
                               "clinicHours": "Mo-Fr 08:00-16:00", "publicURL": self.base},
                       # A yellow tier, so a yellow light on the check-in promises the clinic's call.
                       "hooks": [{"name": "ward", "type": "command", "path": "/bin/true", "events": []}],
                       "escalation": {"yellow": [{"afterMinutes": 0, "hooks": ["ward"]}],
                                      "red": [{"afterMinutes": 0, "hooks": ["ward"]}]},
                       "push": {"webPush": {"vapidKeyFile": vapid, "subject": "mailto:study@example.org",
                                            "allowedHosts": ["push.browser.test"]}}}, f)
        binary = os.path.join(os.environ.get("HYPONATRACK_BIN_DIR", os.path.join(ROOT, ".build", "debug")), "hyponatrackd")
        self.log = open(os.path.join(work, "daemon.log"), "w")
        self.proc = subprocess.Popen([binary, "--config", self.config, "--listen", f"127.0.0.1:{self.port}"],
                                     stdout=subprocess.DEVNULL, stderr=self.log, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise Failure(f"the daemon exited with {self.proc.returncode} (see {self.log.name})")
            try:
                urllib.request.urlopen(self.base + "/healthz", timeout=2)
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        else:
            raise Failure("the daemon did not become healthy within 60 s")
        self.admin = open(os.path.join(work, "data", "admin.token")).read().strip()

    def api(self, method, path, body=None, token=None, expect=(200, 201, 204)):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Authorization": f"Bearer {token or self.admin}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                status, text = r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            status, text = e.code, e.read().decode()
        if status not in expect:
            raise Failure(f"{method} {path}: {status} {text}")
        return json.loads(text) if text else None

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def berlin_date(days):
    from zoneinfo import ZoneInfo
    import datetime as dt
    return (dt.datetime.now(ZoneInfo("Europe/Berlin")) + dt.timedelta(days=days)).date().isoformat()


def offset(date):
    from zoneinfo import ZoneInfo
    import datetime as dt
    o = dt.datetime.fromisoformat(date + "T12:00").replace(tzinfo=ZoneInfo("Europe/Berlin")).utcoffset()
    minutes = int(o.total_seconds() // 60)
    return f"+{minutes // 60:02d}:{minutes % 60:02d}"


def ward(d):
    """BR-RED (red: drowsiness), BR-YEL (yellow: +2.5 % weight, fluid over the limit), BR-GRN (green)."""
    surgery = berlin_date(-12)
    day = berlin_date(-1)
    tokens = {}
    for sid in ("BR-RED", "BR-YEL", "BR-GRN"):
        e = d.api("POST", "/v1/patients", {"studyId": sid, "surgeryDate": surgery, "timeZone": "Europe/Berlin", "age": 55,
                                           "sex": "female", "bmi": 26.0, "baselineWeightKg": 80.0, "fluidLimitMl": 1500.0,
                                           "baselineReactionTimeMs": 600.0})
        a = d.api("POST", "/v1/activate", {"studyId": sid, "code": e["activationCode"]}, token="none")
        tokens[sid] = a["token"]
    symptom = {"id": "m1", "time": f"{day}T08:00:00{offset(day)}", "slot": "morning", "nausea": 0, "headache": 0,
               "fatigue": 0, "confusion": 0, "muscleCramps": 0, "vas": 9}
    levels = {
        "BR-RED": d.api("PUT", f"/v1/me/days/{day}", {"emergencySymptoms": ["drowsiness"]}, token=tokens["BR-RED"])["level"],
        "BR-YEL": d.api("PUT", f"/v1/me/days/{day}", {"weightMorningKg": 82.0, "fluidIntakeMl": 2000}, token=tokens["BR-YEL"])["level"],
        "BR-GRN": d.api("PUT", f"/v1/me/days/{day}", {"weightMorningKg": 80.4, "symptoms": [symptom]}, token=tokens["BR-GRN"])["level"],
    }
    if levels != {"BR-RED": "red", "BR-YEL": "yellow", "BR-GRN": "green"}:
        raise Failure(f"unexpected levels {levels}")
    for name, role in (("ward.nurse", "nurse"), ("ward.viewer", "viewer")):
        d.api("POST", "/v1/staff", {"name": name, "role": role})
        d.api("PUT", f"/v1/staff/{name}/password", {"password": PASSWORD})


class Checks:
    def __init__(self):
        self.failed = []
        self.count = 0

    def check(self, what, ok, detail=""):
        self.count += 1
        print(f"{'PASS' if ok else 'FAIL'}  {what}" + (f"  ({detail})" if detail and not ok else ""))
        if not ok:
            self.failed.append(what)


class Suite:
    """What a module's `run(t)` gets: playwright (`t.p`), the daemon (`t.d`), the checks
    (`t.c`), `t.accessible(page, what, skip=())` (axe), `t.screenshots` (a directory or None)."""

    def __init__(self, p, d, c, accessible, screenshots):
        self.p, self.d, self.c, self.accessible, self.screenshots = p, d, c, accessible, screenshots

    def browser(self):
        return self.p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])

    def console(self, browser, name="ward.nurse", locale="en-GB", width=1280, height=900, next_path="/console/"):
        """A new context signed in to the console as `name` (English or German by Accept-Language)."""
        language = "de-DE,de;q=0.9" if locale.startswith("de") else "en-GB,en;q=0.9"
        ctx = browser.new_context(base_url=self.d.base, locale=locale, viewport={"width": width, "height": height},
                                  extra_http_headers={"Accept-Language": language})
        page = ctx.new_page()
        page.goto("/console/login?next=" + next_path)
        page.fill("#name", name)
        page.fill("#password", PASSWORD)
        with page.expect_navigation():
            page.click("#signin button[type=submit]")
        return page

    def screenshot(self, page, name, full_page=True):
        if self.screenshots:
            page.screenshot(path=os.path.join(self.screenshots, name), full_page=full_page)

