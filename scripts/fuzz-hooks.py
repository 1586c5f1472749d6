"""Schemathesis hooks and checks for scripts/fuzz (loaded through SCHEMATHESIS_HOOKS).

Two jobs:

1. A custom check, `error_body_conformance`: every 4xx/5xx answer carries the docs/product.md error
   body `{"error": {"code", "message", "field"}}` with a code that belongs to its status. The
   built-in response_schema_conformance only sees statuses the spec documents; this check also
   covers the ones it does not (405, a 400 from the HTTP layer, ...).

2. Steering generation towards requests the server can accept. The schema cannot say that a
   surgery date lies in the last 60 days, that a time zone exists, or that a day lies in the
   patient's monitoring window, so purely random "valid" data almost always ends in a 400/404
   and the handlers' success paths would go untested. For most *positive* cases we therefore
   swap in real values (a recent date, an enrolled study ID, a stored lab, ...). Negative cases
   are never touched: they must stay invalid. Every choice is derived from a hash of what
   Hypothesis generated, so a run with a given seed stays reproducible.

scripts/fuzz passes what it created through the environment:
  FUZZ_KNOWN       JSON: {"studyId", "spareStudyId", "date", "list", "itemId", "labId",
                          "alertId", "timeZone", "surgeryDate", "protectedStaff": [...]}
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from zoneinfo import ZoneInfo

import schemathesis
from schemathesis import GenerationMode

KNOWN = json.loads(os.environ.get("FUZZ_KNOWN", "{}"))
ZONE = ZoneInfo(KNOWN.get("timeZone", "Europe/Berlin"))
VALID_ZONES = ["Europe/Berlin", "UTC", "America/New_York", "Asia/Kolkata", "Australia/Sydney", "Europe/London"]

# docs/product.md "Errors": the codes each status may carry. The ones marked "extra" are answered by
# the server but missing from docs/product.md's list; they are accepted here so that the run is about
# bugs, and docs/product.md should name them.
ERROR_CODES = {
    400: {"invalid_json", "invalid_value", "unknown_field", "not_allowed",
          "bad_request"},  # extra: HTTPServer/ServerCore.swift, a request target it cannot parse
    401: {"unauthenticated", "expired_token"},
    403: {"forbidden"},
    404: {"not_found"},
    405: {"method_not_allowed"},  # extra: the router (Router.locate)
    409: {"conflict", "limit_reached"},
    410: {"expired"},
    413: {"too_large"},
    415: {"unsupported_media_type"},
    429: {"locked", "rate_limited"},
    502: {"bad_gateway"},  # extra: /v1/sync/check and /v1/sync/reconcile when REDCap fails
}


def _pick(seed: object, n: int) -> int:
    """A deterministic number in [0, n) derived from a generated value."""
    digest = hashlib.sha256(repr(seed).encode()).digest()
    return int.from_bytes(digest[:8], "big") % n


def _is_positive(case) -> bool:
    meta = getattr(case, "meta", None)
    return meta is not None and meta.generation.mode == GenerationMode.POSITIVE


def _today() -> dt.date:
    """Today in the study's time zone (the server's idea of today, not the machine's)."""
    return dt.datetime.now(ZONE).date()


def _offset(day: dt.date) -> str:
    """The study zone's UTC offset at 08:00 local time on `day`, as +HH:MM."""
    return dt.datetime(day.year, day.month, day.day, 8, tzinfo=ZONE).isoformat()[-6:]


# --- 1. the error body check --------------------------------------------------------------

@schemathesis.check
def error_body_conformance(ctx, response, case):
    """4xx/5xx: JSON body {"error": {"code", "message", "field"}} with a code allowed for the status."""
    status = response.status_code
    if status < 400 or case.method.upper() == "HEAD":
        return None
    ctype = response.headers.get("content-type", [""])
    ctype = ctype[0] if isinstance(ctype, list) else ctype
    assert ctype.split(";")[0].strip().lower() == "application/json", \
        f"error {status} with Content-Type {ctype!r}, expected application/json"
    try:
        body = json.loads(response.content)
    except ValueError as exc:
        raise AssertionError(f"error {status} body is not JSON: {exc}") from exc
    assert isinstance(body, dict) and set(body) == {"error"} and isinstance(body["error"], dict), \
        f"error {status} body is not {{\"error\": {{...}}}}: {body!r}"
    err = body["error"]
    assert set(err) == {"code", "message", "field"}, f"error members are {sorted(err)}, expected code, message, field"
    assert isinstance(err["message"], str) and err["message"], "error.message is empty or not a string"
    assert err["field"] is None or isinstance(err["field"], str), "error.field is neither a string nor null"
    allowed = ERROR_CODES.get(status)
    assert allowed is not None, f"status {status} ({err['code']}) is not one docs/product.md defines (a 5xx is a bug)"
    assert err["code"] in allowed, f"status {status} with code {err['code']!r}, expected one of {sorted(allowed)}"
    return True


# --- 2. steering positive cases towards the success paths ------------------------------------

def _phase(case) -> str:
    meta = getattr(case, "meta", None)
    return str(meta.phase.name) if meta is not None else ""


@schemathesis.hook
def map_case(context, case):
    path, method = case.operation.path, case.method.upper()
    params = dict(case.path_parameters or {})
    # Never revoke the accounts the fuzz run authenticates with (any phase, any mode: the
    # stateful phase finds their names in GET /v1/staff).
    if path == "/v1/staff/{name}/revocation" and params.get("name") in KNOWN.get("protectedStaff", []):
        params["name"] = "fuzz.no-such-member"
        case.path_parameters = params
    # The rest only for positive cases outside the stateful phase, whose values come from
    # earlier responses (links) and must stay as they are.
    if not _is_positive(case) or _phase(case) == "stateful":
        return case
    # What Hypothesis drew for this case: the seed of every choice below.
    drawn = (repr(sorted(params.items())), repr(case.query), repr(case.body))

    # Staff routes on a patient or alert: usually the enrolled patient (with a stored day, item
    # and lab) and its open alert.
    if path.startswith(("/v1/patients/", "/v1/alerts/")):
        for name in ("studyId", "date", "list", "itemId", "labId", "alertId"):
            if name in params and name in KNOWN and _pick((name, drawn), 4) != 0:
                params[name] = KNOWN[name]
        # ...but never withdraw or re-key the patients the other passes still need.
        if method == "POST" and path.endswith(("/withdrawal", "/activation")) and params.get("studyId") == KNOWN.get("studyId"):
            params["studyId"] = KNOWN.get("spareStudyId", params["studyId"])

    # Enrolment and profile changes: a surgery date in the last 60 days and a real time zone.
    if path.startswith("/v1/patients") and method in ("POST", "PATCH") and isinstance(case.body, dict):
        today = _today()
        if "surgeryDate" in case.body and _pick(("surgeryDate", drawn), 4) != 0:
            case.body["surgeryDate"] = (today - dt.timedelta(days=_pick(("ago", drawn), 61))).isoformat()
        if "timeZone" in case.body and _pick(("timeZone", drawn), 4) != 0:
            case.body["timeZone"] = VALID_ZONES[_pick(("zone", drawn), len(VALID_ZONES))]

    # The patient's day: a date inside the monitoring window (POD 1 to today), item times on
    # that date, and item IDs unique within their list (the schema cannot say so).
    if path == "/v1/me/days/{date}" and "date" in params and _pick(("date", drawn), 4) != 0:
        surgery = dt.date.fromisoformat(KNOWN.get("surgeryDate", _today().isoformat()))
        span = max((_today() - surgery).days, 1)
        day = surgery + dt.timedelta(days=1 + _pick(("pod", drawn), span))
        params["date"] = day.isoformat()
        if isinstance(case.body, dict):
            for items in case.body.values():
                if not isinstance(items, list):
                    continue
                for i, item in enumerate(items):
                    if not isinstance(item, dict):
                        continue
                    if isinstance(item.get("id"), str):
                        item["id"] = f"{i}-{item['id']}"[:64]
                    if "time" in item:
                        hour, minute = 6 + _pick(("hour", i, drawn), 16), _pick(("minute", i, drawn), 60)
                        item["time"] = f"{day.isoformat()}T{hour:02d}:{minute:02d}:00{_offset(day)}"
    case.path_parameters = params
    return case
