"""Single sign-on in chromium through a real OpenID provider: Debian's glewlwyd, started and
configured by scripts/oidc-provider, in front of a daemon of its own whose console.oidc names it.
Per language and width a member clicks "Sign in with …" on the console's sign-in page, signs in
on glewlwyd's own login page, comes back through the continue page to the board (created from
their groups the first time); someone whose groups map to no role gets the refusal page; signing
out leads to the provider's logout. Screenshots of the provider's sign-in and the refusal page.
Tooling, not product code."""
import json
import os
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

from browser.harness import ROOT, Failure, free_port

USERS = {"nurse": ("anna.nurse", "anna-password-1"), "outsider": ("otto.outsider", "otto-password-1")}


class SingleSignOnDaemon:
    """glewlwyd, and a daemon whose console signs in through it (no password form)."""

    def __init__(self, work):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        provider_dir = os.path.join(work, "provider")
        self.provider = subprocess.Popen([os.path.join(ROOT, "scripts", "oidc-provider"), "--dir", provider_dir,
                                          "--redirect-url", self.base + "/console/oidc/callback",
                                          "--post-logout-url", self.base + "/console/login"],
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.provider.stdout.readline()
        if not line:
            raise Failure("oidc-provider did not start")
        self.info = json.loads(line)
        cfg = os.path.join(work, "config")
        os.makedirs(cfg)
        for name in ("risk-model.json", "thresholds.json", "reminders.json", "instructions.json"):
            with open(os.path.join(ROOT, "config", name)) as src, open(os.path.join(cfg, name), "w") as dst:
                dst.write(src.read())
        config = os.path.join(cfg, "hyponatrack.json")
        with open(config, "w") as f:
            json.dump({"dataDirectory": os.path.join(work, "data"),
                       "console": {"passwordSignIn": False,
                                   "oidc": {"issuer": self.info["issuer"], "clientId": self.info["clientId"],
                                            "clientSecretFile": self.info["clientSecretFile"], "caFile": self.info["ca"],
                                            "redirectURL": self.base + "/console/oidc/callback", "scopes": ["openid"],
                                            "displayName": "Hospital Login", "groupsClaim": "groups",
                                            "roles": {"ward-nurses": "nurse", "study-admins": "admin"}}}}, f)
        binary = os.path.join(os.environ.get("HYPONATRACK_BIN_DIR", os.path.join(ROOT, ".build", "debug")), "hyponatrackd")
        self.log_path = os.path.join(work, "daemon-oidc.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([binary, "--config", config, "--listen", f"127.0.0.1:{self.port}"],
                                     stdout=subprocess.DEVNULL, stderr=self.log, start_new_session=True)
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise Failure(f"the single sign-on daemon exited with {self.proc.returncode} (see {self.log_path})")
            try:
                urllib.request.urlopen(self.base + "/healthz", timeout=2)
                break
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() > deadline:
                    raise Failure("the single sign-on daemon did not become healthy")
                time.sleep(0.1)

    def stop(self):
        for p in (self.proc, self.provider):
            p.terminate()
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def provider_sign_in(page, user, password):
    """glewlwyd's login page (its own web app): the user name, the password, the button."""
    page.wait_for_selector("input[type=password]", timeout=20000)
    page.fill("input#usernameInput, input[name=username], input[type=text]", user)
    page.fill("input[type=password]", password)
    page.click("button[type=submit]")
    # Signed in there, glewlwyd asks what to do: continue to the client (its green button).
    page.wait_for_selector("button.btn-success", timeout=20000)
    page.click("button.btn-success")



def sign_in_page(browser, sso, locale, width):
    """A browser in `locale` at `width` px on the console's sign-in page. The provider's
    certificate comes from the test CA (the daemon checks it with caFile)."""
    language = "de-DE,de;q=0.9" if locale.startswith("de") else "en-GB,en;q=0.9"
    ctx = browser.new_context(base_url=sso.base, locale=locale, viewport={"width": width, "height": 900},
                              extra_http_headers={"Accept-Language": language}, ignore_https_errors=True)
    page = ctx.new_page()
    page.goto("/console/login")
    return ctx, page

def run(t):
    c = t.c
    work = tempfile.mkdtemp(prefix="hyponatrack-oidc.")
    sso = SingleSignOnDaemon(work)
    try:
        browser = t.browser()
        for locale, width in (("en-GB", 1280), ("de-DE", 390), ("en-GB", 390), ("de-DE", 1280)):
            lang = locale[:2]
            ctx, page = sign_in_page(browser, sso, locale, width)
            c.check(f"oidc {lang} {width}: the sign-in page offers the provider and no password form",
                    page.locator("#sso").count() == 1 and page.locator("input[type=password]").count() == 0, page.url)
            t.accessible(page, f"the {lang} single sign-on page at {width} px")
            t.screenshot(page, f"oidc-signin-{lang}-{width}.png")
            page.click("#sso")
            user, password = USERS["nurse"]
            try:
                page.wait_for_url(lambda url: url.startswith(sso.info["url"]), timeout=20000)
                page.wait_for_selector("input[type=password]", timeout=20000)
                t.screenshot(page, f"oidc-provider-{lang}-{width}.png")
                provider_sign_in(page, user, password)
                page.wait_for_url(lambda url: url.startswith(sso.base) and "/console/oidc/callback" not in url, timeout=30000)
            except Exception as e:
                t.screenshot(page, f"oidc-stuck-{lang}-{width}.png")
                c.check(f"oidc {lang} {width}: through the provider and back", False, f"{e}: {page.url} {page.content()[:600]}")
                ctx.close()
                continue
            page.wait_for_load_state()
            c.check(f"oidc {lang} {width}: back through the continue page on the board as {user}",
                    page.url == sso.base + "/console/" and user in page.content(), page.url)
            t.screenshot(page, f"oidc-board-{lang}-{width}.png")
            with page.expect_navigation():
                page.click("header form[action='/console/logout'] button")
            # The sign-out page continues by its meta refresh to the provider's end_session_endpoint.
            try:
                page.wait_for_url(lambda url: url.startswith(sso.info["issuer"] + "/end_session?client_id="), timeout=20000)
                left = True
            except Exception:
                left = False
            c.check(f"oidc {lang} {width}: signing out leads to the provider's logout", left, page.url)
            if left:
                t.screenshot(page, f"oidc-provider-logout-{lang}-{width}.png")
            ctx.close()
        # The refusal: someone whose groups give no role.
        for locale, width in (("en-GB", 1280), ("de-DE", 390)):
            lang = locale[:2]
            ctx, page = sign_in_page(browser, sso, locale, width)
            page.click("#sso")
            page.wait_for_selector("input[type=password]", timeout=20000)
            provider_sign_in(page, *USERS["outsider"])
            page.wait_for_url(lambda url: url.startswith(sso.base + "/console/oidc/callback"), timeout=30000)
            words = "keine Ihrer Gruppen" if lang == "de" else "none of your groups"
            c.check(f"oidc {lang} {width}: the refusal page says why", words in page.locator("#refusal").inner_text(), page.url)
            t.accessible(page, f"the {lang} refusal page at {width} px")
            t.screenshot(page, f"oidc-refused-{lang}-{width}.png")
            ctx.close()
        browser.close()
        with open(sso.log_path) as f:
            log = f.read()
        c.check("oidc: no token or code in the daemon's log", "eyJ" not in log and "code=" not in log, "")
    finally:
        sso.stop()
