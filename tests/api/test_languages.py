"""Two languages: pages, API messages, e-mails, dates and the no-JavaScript switcher.

English stays exactly as before; Filipino comes from the account's choice, else the switcher's
cookie, else Accept-Language."""

from __future__ import annotations

import re
from datetime import date, datetime
from email import message_from_bytes
from email.policy import default as default_policy

import pytest
from flask import render_template_string
from flask_babel import refresh

from sibol.extensions import db
from sibol.i18n.languages import LANGUAGE_COOKIE
from sibol.models import Account, RoleId
from tests.factories import make_account, make_admin, make_machine
from tests.factories_admin import make_pending, session_client
from tests.support.smtp import mail_settings

pytestmark = pytest.mark.usefixtures("fresh_identity")

FIL = {"Accept-Language": "fil-PH,fil;q=0.9,en;q=0.5"}


def html_lang(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


def test_english_by_default_with_the_spec_texts(client):
    html = client.get("/login").get_data(as_text=True)
    assert html_lang(html) == "en"
    assert "Sign in to the SIBOL console" in html and "Forgot Password?" in html
    assert "<title>Sign in · SIBOL console</title>" in html
    # The switcher names each language in its own tongue, English pressed.
    assert re.search(r'value="en" lang="en"[^>]*aria-pressed="true">English<', html)
    assert re.search(r'value="fil" lang="fil"[^>]*aria-pressed="false">Filipino<', html)


def test_browser_asking_for_filipino_gets_the_sign_in_page_in_filipino(client):
    html = client.get("/login", headers=FIL).get_data(as_text=True)
    assert html_lang(html) == "fil"
    assert "Mag-sign in sa console ng SIBOL" in html
    assert "Nakalimutan ang Password?" in html
    assert "Sign in to the SIBOL console" not in html
    assert re.search(r'value="fil" lang="fil"[^>]*aria-pressed="true">Filipino<', html)


def test_the_account_choice_wins_over_the_browser(app):
    user = make_account(role=RoleId.STAFF, language="fil")
    client = session_client(app, user)
    html = client.get("/dashboard", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert html_lang(html) == "fil"
    assert ">Mag-logout<" in html  # the top bar
    assert ">Sambahayan<" in html and ">Mga Makina ng SIBOL<" in html  # module names, displayed
    assert ">Household<" not in html
    english = session_client(app, make_account(role=RoleId.STAFF))
    html = english.get("/dashboard", headers=FIL).get_data(as_text=True)
    assert html_lang(html) == "fil"  # no choice stored: the browser's
    english_user = make_account(role=RoleId.STAFF, language="en")
    html = session_client(app, english_user).get("/dashboard", headers=FIL).get_data(as_text=True)
    assert html_lang(html) == "en" and ">Logout<" in html and ">Household<" in html


def test_anonymous_switcher_sets_a_long_cookie_and_returns_to_the_page(client):
    res = client.post("/language", data={"language": "fil", "next": "/login?forgot=1"})
    assert res.status_code == 302 and res.headers["Location"] == "/login?forgot=1"
    cookie = res.headers["Set-Cookie"]
    assert f"{LANGUAGE_COOKIE}=fil" in cookie and "Max-Age=31536000" in cookie and "HttpOnly" in cookie
    # The cookie is read before Accept-Language.
    html = client.get("/login", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert html_lang(html) == "fil" and "Mag-sign in sa console ng SIBOL" in html
    client.post("/language", data={"language": "en", "next": "/login"})
    assert html_lang(client.get("/login", headers=FIL).get_data(as_text=True)) == "en"


@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", ""]
)
def test_switcher_never_redirects_off_site(client, target):
    """Anywhere but a path of this site leads home instead: for nobody signed in, the sign-in page."""
    res = client.post("/language", data={"language": "fil", "next": target})
    assert res.status_code == 302 and res.headers["Location"] == "/login"


def test_switcher_refuses_an_unknown_language(client):
    res = client.post("/language", data={"language": "xx", "next": "/login"}, headers=FIL)
    assert res.status_code == 302 and LANGUAGE_COOKIE not in res.headers.get("Set-Cookie", "")
    html = client.get("/login", headers=FIL).get_data(as_text=True)
    assert "Pumili ng isa sa mga wikang ito: en, fil." in html


def test_signed_in_switcher_stores_the_choice_on_the_account(app):
    user = make_account(role=RoleId.STAFF)
    client = session_client(app, user)
    res = client.post("/language", data={"language": "fil", "next": "/dashboard"})
    assert res.status_code == 302 and res.headers["Location"] == "/dashboard"
    db.session.expire_all()
    assert db.session.get(Account, user.id).language == "fil"
    # Another browser of the same account (no cookie) follows the account.
    other = session_client(app, db.session.get(Account, user.id))
    assert html_lang(other.get("/dashboard").get_data(as_text=True)) == "fil"


@pytest.mark.parametrize("app_overrides", [{"WTF_CSRF_ENABLED": True}])
def test_switcher_needs_the_csrf_token_and_works_without_javascript(app, client):
    assert client.post("/language", data={"language": "fil", "next": "/login"}).status_code == 400
    html = client.get("/login").get_data(as_text=True)
    form = html.split('class="language-switcher"', 1)[1].split("</form>", 1)[0]
    assert 'method="post" action="/language"' in html  # a plain form: no script needed
    token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    back = re.search(r'name="next" value="([^"]+)"', form).group(1)
    res = client.post("/language", data={"language": "fil", "next": back, "csrf_token": token})
    assert res.status_code == 302 and res.headers["Location"] == "/login"
    assert html_lang(client.get("/login").get_data(as_text=True)) == "fil"


def test_top_bar_has_the_switcher(app):
    client = session_client(app, make_account(role=RoleId.STAFF))
    html = client.get("/dashboard?period=week").get_data(as_text=True)
    topbar = html.split('<header class="topbar">', 1)[1].split("</header>", 1)[0]
    assert 'action="/language"' in topbar and 'name="next" value="/dashboard?period=week"' in topbar


def test_api_messages_follow_accept_language_and_the_account(client, api_headers):
    user = make_account(role=RoleId.STAFF)
    h = api_headers(user)
    res = client.get("/api/machines/999999", headers={**h, **FIL})
    assert res.status_code == 404 and res.json["message"] == "Hindi nahanap ang makina."
    assert client.get("/api/machines/999999", headers=h).json["message"] == "Machine not found."
    res = client.put("/api/me/language", json={"language": "fil"}, headers=h)
    assert res.status_code == 200 and res.json == {
        "success": True,
        "message": "Nai-save ang wika.",
        "language": "fil",
    }
    res = client.get("/api/machines/999999", headers={**h, "Accept-Language": "en"})
    assert res.json["message"] == "Hindi nahanap ang makina."
    # Field errors too, and the spec's module names stay English in the JSON.
    res = client.post("/api/machines", json={"name": "", "area": ""}, headers=h)
    assert res.status_code == 400 and res.json["message"].startswith(("Kailangan", "Dapat", "Pumili"))
    me = client.get("/api/languages", headers=h).json
    assert me["language"] == "fil" and {"code": "fil", "name": "Filipino"} in me["data"]


def test_api_language_refuses_bad_input(client, api_headers):
    h = api_headers(make_account(role=RoleId.STAFF))
    res = client.put("/api/me/language", json={"language": "tlh"}, headers=h)
    assert res.status_code == 400 and res.json["field"] == "language"
    assert res.json["errors"]["language"] == "Choose one of these languages: en, fil."
    res = client.put("/api/me/language", json={"language": ["fil"]}, headers={**h, **FIL})
    assert res.status_code == 400 and res.json["message"] == "Pumili ng isa sa mga wikang ito: en, fil."
    assert client.put("/api/me/language", json={"language": "fil"}).status_code == 401


def test_unauthenticated_api_error_in_filipino(client):
    res = client.get("/api/me", headers=FIL)
    assert res.status_code == 401 and res.json["message"] == "Mag-sign in para magpatuloy."


def test_page_field_errors_and_flashes_in_filipino(client):
    res = client.post("/login", data={"username": "nobody", "password": "wrong-Pass1!"}, headers=FIL)
    html = res.get_data(as_text=True)
    assert "Mali ang username o password." in html
    assert "Invalid username or password." not in html


def test_dates_and_numbers_follow_the_language(app):
    when = datetime(2026, 1, 5, 9, 30)  # UTC; 5:30 PM in Manila
    template = "{{ when | local_datetime }} | {{ when | local_date }} | {{ 12345 | number }}"
    # (The app fixture keeps one app context, where Flask-Babel caches the locale: refresh.)
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        refresh()
        assert render_template_string(template, when=when) == "Jan 5, 2026 5:30 PM | Jan 5, 2026 | 12,345"
    with app.test_request_context("/", headers=FIL):
        refresh()
        assert render_template_string(template, when=when) == "Ene 5, 2026 5:30 PM | Ene 5, 2026 | 12,345"
        assert render_template_string("{{ d | local_date }}", d=datetime(2026, 6, 1, 4)) == "Hun 1, 2026"


def test_machine_page_in_filipino_keeps_stored_names(app):
    make_machine("Digester Uno")
    user = make_account(role=RoleId.STAFF, language="fil")
    html = session_client(app, user).get("/sibol-machines?tab=machines").get_data(as_text=True)
    # The islands' Filipino texts ride along as JSON keyed by their English ids; the page itself is Filipino.
    shown = re.sub(
        r"<script type=\"application/json\" data-island-messages.*?</script>", "", html, flags=re.S
    )
    assert "data-island-messages" in html and "data-island-messages" not in shown
    assert "Digester Uno" in shown and "Pangalan ng Makina" in shown and "Machine Name" not in shown


@pytest.fixture
def app_overrides(request):
    if "smtp" in request.fixturenames:
        controller, _inbox = request.getfixturevalue("smtp")
        return mail_settings(controller.port)
    return {}


def _mail(envelope):
    message = message_from_bytes(envelope.content, policy=default_policy)
    text = message.get_body(preferencelist=("plain",)).get_content()
    html = message.get_body(preferencelist=("html",)).get_content()
    return message["Subject"], text, html


def test_email_goes_out_in_the_recipients_language(client, api_headers, smtp):
    _controller, inbox = smtp
    inbox.messages.clear()
    admin = make_admin(language="fil")  # the admin reads Filipino
    filipino = make_pending(email="maria@example.test", first_name="Maria", language="fil")
    english = make_pending(email="john@example.test", first_name="John")
    h = api_headers(admin)
    assert client.post(f"/api/admin/pending-accounts/{filipino.id}/approve", headers=h).status_code == 200
    res = client.post(f"/api/admin/pending-accounts/{english.id}/approve", headers=h)
    assert res.status_code == 200 and res.json["message"] == "Naaprubahan ang account"
    # ... but each message goes out in its recipient's language (no choice stored: English).
    by_to = {m.rcpt_tos[0]: _mail(m) for m in inbox.messages}
    subject, text, html = by_to["maria@example.test"]
    assert subject == "SIBOL: Naaprubahan ang iyong account"
    assert text.startswith("Magandang araw, Maria,")
    assert f"Naaprubahan na ang iyong account sa SIBOL console ({filipino.username})." in text
    assert "Magandang araw, Maria," in html and "Hello" not in html
    subject, text, _html = by_to["john@example.test"]
    assert subject == "SIBOL: Your account was approved"
    assert text.startswith("Hello John,") and "was approved" in text


# The audit of what a Filipino reader still saw in English -----------------------------------------


def _fil_page(app, url: str, role: RoleId = RoleId.ADMIN) -> str:
    client = session_client(app, make_account(role=role, language="fil"))
    res = client.get(url)
    assert res.status_code == 200, res.get_data(as_text=True)[:300]
    return res.get_data(as_text=True)


def test_dates_written_by_hand_now_follow_the_language(app):
    from tests.factories_household import make_schedule, make_waste

    make_schedule(when=date(2026, 11, 25), person="Ka Pedro")
    make_waste("Rizal St", date(2026, 11, 25), 2500)
    html = _fil_page(app, "/household?tab=schedule")
    assert ">Nob 25, 2026</time>" in html and "Nov 25, 2026" not in html
    html = _fil_page(app, "/dashboard")
    assert "(Nob 23 – Nob 29, 2026)" in html and "(Nobyembre 2026)" in html
    assert "Lingguhang kabuuan:" in html and "Buwanang kabuuan:" in html and "Nov 23" not in html
    assert "Basura bawat kalye (Lingguhan)" in html and "Weekly" not in html
    english = session_client(app, make_account(role=RoleId.ADMIN)).get("/dashboard").get_data(as_text=True)
    assert (
        "(Nov 23 – Nov 29, 2026)" in english and "Weekly total:" in english and "(November 2026)" in english
    )


def test_month_names_of_the_energy_chart_follow_the_language(app):
    from sibol.i18n.localtime import month_name

    with app.test_request_context("/", headers=FIL):
        refresh()
        assert month_name("November") == "Nobyembre" and month_name("September", "abbreviated") == "Set"
        assert month_name("Purok 1") == "Purok 1"
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        refresh()
        assert month_name("November") == "November" and month_name("November", "abbreviated") == "Nov"


def test_stored_labels_on_machine_pages_are_shown_in_filipino(app):
    from tests.factories_machines import make_additive

    machine = make_machine("Digester Dos")
    make_additive(machine, stage="Slurry Making")
    html = _fil_page(app, f"/sibol-machines?tab=chemical-additives&machine={machine.id}")
    table = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    assert ">Paggawa ng Slurry</td>" in table and "Slurry Making" not in table
    html = _fil_page(app, f"/sibol-machines?tab=analytics&machine={machine.id}")
    assert "Nakaraang 24 oras" in html and "Last 24 hours" not in html and "Last 7 days" not in html
    html = _fil_page(app, "/sibol-machines?tab=machines")
    assert "never" not in html.split('id="machines-table"', 1)[1].split("</table>", 1)[0]


def test_rule_errors_of_household_forms_and_api_are_filipino(client, api_headers):
    h = {**api_headers(make_account(role=RoleId.STAFF)), **FIL}
    res = client.post("/api/household/schedules", json={}, headers=h)
    assert res.status_code == 400
    assert res.json["errors"]["maintenancePerson"] == "Kailangan ang Maintenance."
    assert res.json["errors"]["dateOfCollection"] == "Kailangan ang Petsa ng Koleksyon."
    res = client.post("/api/household/schedules", json={"totalWaste": "heavy"}, headers=h)
    assert "is required" not in str(res.json["errors"]) and "must be" not in str(res.json["errors"])
    english = client.post("/api/household/schedules", json={}, headers={**h, "Accept-Language": "en"})
    assert english.json["errors"]["maintenancePerson"] == "Maintenance is required."


def test_maintenance_messages_are_filipino(client, api_headers):
    from tests.factories_maintenance import make_request

    user = make_account(role=RoleId.STAFF)
    h = {**api_headers(user), **FIL}
    res = client.post("/api/maintenance/requests", json={"issue": "x"}, headers=h)
    assert res.status_code == 400
    assert res.json["errors"]["assignedTo"] == "Kailangang piliin kung kanino itatalaga."
    assert res.json["errors"]["dueDate"] == "Kailangan ang Takdang petsa."
    req = make_request()
    res = client.post(f"/api/maintenance/requests/{req.id}/complete", json={"remarks": "Ayos na"}, headers=h)
    assert res.status_code == 200 and res.json["message"] == f"Natapos na ang request #{req.request_number}."
    req = make_request()
    res = client.post(
        f"/api/maintenance/requests/{req.id}/complete",
        json={"remarks": "Done"},
        headers={**h, "Accept-Language": "en"},
    )
    assert res.json["message"] == f"Request #{req.request_number} was completed."


def test_city_and_tenancy_messages_are_filipino(client, api_headers):
    city = make_account(role=RoleId.CITY_ADMIN, username="city.fil")
    h = {**api_headers(city), **FIL}
    res = client.get("/api/city/barangays/999999", headers=h)
    assert res.status_code == 404 and res.json["message"] == "Hindi nahanap ang barangay."
    res = client.post("/api/city/barangays", json={"name": "  "}, headers=h)
    assert res.status_code == 400 and res.json["message"] == "Kailangan ang pangalan."
    res = client.post("/api/city/barangays", json={"name": "San Roque"}, headers=h)
    assert res.status_code == 201 and res.json["message"] == "Nagawa ang Barangay San Roque."


def test_profile_name_error_is_filipino(client, api_headers):
    h = {**api_headers(make_account(role=RoleId.STAFF)), **FIL}
    res = client.put("/api/me", json={"firstName": "R2-D2!"}, headers=h)
    assert res.status_code == 400, res.json
    assert "may hold only" not in str(res.json) and "Mga titik, espasyo" in res.json["message"]


def test_notifications_are_written_in_each_readers_language(client, app):
    from sibol.models.telemetry import Notification
    from tests.factories_maintenance import make_operator, make_request
    from tests.factories_telemetry import device, healthy, iso, keyed_machine

    filipino, english = make_operator(language="fil"), make_operator()
    fil_request, en_request = make_request(assignee=filipino), make_request(assignee=english)
    db.session.commit()

    def titles(account):
        return [n.title for n in db.session.query(Notification).filter_by(account_id=account.id)]

    assert titles(filipino) == [f"Itinalaga sa iyo ang maintenance request #{fil_request.request_number}"]
    assert titles(english) == [f"Maintenance request #{en_request.request_number} assigned to you"]
    # A machine alert goes to every Machines holder, each in their own language.
    reader, other = make_admin(language="fil"), make_admin()
    machine, key = keyed_machine("Digester Tres")
    res = client.post(
        "/api/telemetry",
        json={"readings": [{"ts": iso(1), **healthy(temperature_c=95.0)}]},
        headers=device(key),
    )
    assert res.status_code < 300, res.get_data(as_text=True)
    assert "Digester Tres: nagbukas ang alerto sa Temperatura" in titles(reader)
    assert "Digester Tres: Temperature alert opened" in titles(other)
    html = session_client(app, reader).get("/notifications").get_data(as_text=True)
    assert "malusog na range 30–40." in html and "healthy range" not in html


def test_alert_list_and_report_show_metric_names_in_filipino(app, client):
    from tests.factories_telemetry import device, healthy, iso, keyed_machine

    machine, key = keyed_machine("Digester Kwatro")
    client.post(
        "/api/telemetry",
        json={"readings": [{"ts": iso(1), **healthy(temperature_c=95.0)}]},
        headers=device(key),
    )
    html = _fil_page(app, "/sibol-machines/alerts")
    row = html.split('id="alerts-table"', 1)[1].split("</table>", 1)[0]
    assert ">Alerto sa Temperatura #" in row and "Temperature" not in row
    assert '<td data-label="Na-acknowledge">hindi</td>' in row
    assert "Bukas, hindi pa na-acknowledge" in row and ">Babala<" in row and "bukas nang " in row
