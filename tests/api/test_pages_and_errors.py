"""The shell every screen stands on: redirects, navigation, error answers, health."""

import pytest
from flask import abort

from sibol import create_app
from sibol.identity.access import public
from sibol.models import RoleId
from tests.conftest import base_overrides
from tests.factories import make_account, make_admin


def test_root_redirects_to_login(client):
    res = client.get("/")
    assert res.status_code == 302 and res.headers["Location"].endswith("/login")


def test_login_page_renders_the_form(client):
    html = client.get("/login").get_data(as_text=True)
    assert 'name="username"' in html and 'name="password"' in html
    assert "Sign in with Google" in html and 'href="/signup"' in html


def nav_links(html: str) -> list[str]:
    nav = html.split('aria-label="Main"', 1)[1].split("</nav>", 1)[0]
    return [part.split("</a>", 1)[0].rsplit(">", 1)[1] for part in nav.split("<a ")[1:]]


def test_navigation_shows_only_the_links_a_role_can_use(client, login):
    """no link that leads to a 403 page; the server still refuses them."""
    admin = make_admin()
    login(admin)
    links = nav_links(client.get("/dashboard").get_data(as_text=True))
    assert links == ["Dashboard", "SIBOL Machines", "Maintenance", "Household", "Chat Support", "Admin"]
    client.post("/logout")
    expected = {
        RoleId.STAFF: (["Dashboard", "SIBOL Machines", "Maintenance", "Household", "Chat Support"], []),
        # Operators hold Household by default (crediting waste, redeeming claims).
        RoleId.OPERATOR: (
            ["Dashboard", "SIBOL Machines", "Maintenance", "Household", "Chat Support"],
            ["/admin"],
        ),
        RoleId.HOUSEHOLD: (
            ["Dashboard", "Household", "Chat Support"],
            ["/sibol-machines", "/maintenance", "/admin"],
        ),
    }
    for role, (shown, refused) in expected.items():
        user = make_account(role=role)
        login(user)
        html = client.get("/dashboard").get_data(as_text=True)
        assert nav_links(html) == shown
        assert ">Logout</button>" in html and f">{user.full_name}</" in html
        for path in refused:
            assert client.get(path).status_code == 403, path
        client.post("/logout")


def test_pages_need_sign_in(client):
    res = client.get("/dashboard")
    assert res.status_code == 302 and "/login?next=" in res.headers["Location"]


def test_page_without_module_is_403(client, login):
    login(make_account(role=RoleId.HOUSEHOLD))
    res = client.get("/sibol-machines")
    assert res.status_code == 403
    assert "does not have access to SIBOL Machines" in res.get_data(as_text=True)


def test_unknown_page_is_a_styled_404(client):
    res = client.get("/no-such-page")
    assert res.status_code == 404 and res.mimetype == "text/html"
    html = res.get_data(as_text=True)
    assert "Page not found" in html and "/static/css/app.css" in html


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("get", "/api/no-such-thing", 404),
        ("get", "/api", 404),
        ("delete", "/api/auth/login", 405),
        ("get", "/api/auth/login", 405),
    ],
)
def test_api_routing_errors_answer_json(client, method, path, status):
    res = getattr(client, method)(path)
    assert res.status_code == status
    assert res.is_json and res.json["message"] and res.json["error"]


def test_api_needs_credentials(client):
    res = client.get("/api/modules/allowed")
    assert res.status_code == 401 and res.json["message"] == "Sign in to continue."


def test_api_500_is_json_without_a_stack_trace(database_url):
    app = create_app(base_overrides(database_url, PROPAGATE_EXCEPTIONS=False))

    @public
    def boom():
        raise RuntimeError("secret internals")

    @public
    def page_boom():
        abort(500)

    app.add_url_rule("/api/boom", "boom", boom)
    app.add_url_rule("/boom", "page_boom", page_boom)
    res = app.test_client().get("/api/boom")
    assert res.status_code == 500 and res.is_json
    assert "secret internals" not in res.get_data(as_text=True)
    assert res.json["message"] == "Something went wrong on our side. Please try again."
    page = app.test_client().get("/boom")
    assert page.status_code == 500 and page.mimetype == "text/html"


def test_route_without_access_declaration_is_refused(database_url):
    app = create_app(base_overrides(database_url))
    app.add_url_rule("/api/undeclared", "undeclared", lambda: {"ok": True})
    res = app.test_client().get("/api/undeclared")
    assert res.status_code == 403 and res.is_json


def test_healthz_ok(client):
    res = client.get("/healthz")
    assert res.status_code == 200 and res.json == {"status": "ok", "database": "ok"}


def test_healthz_503_when_the_database_is_gone(tmp_path, database_url):
    if database_url.startswith("sqlite"):
        broken = f"sqlite:///{tmp_path / 'missing-dir' / 'x.sqlite3'}"
    else:
        broken = "mysql+mysqldb://root@127.0.0.1:1/nowhere"
    app = create_app(base_overrides(broken))
    res = app.test_client().get("/healthz")
    assert res.status_code == 503
    assert res.json == {"status": "error", "database": "unavailable"}


def test_blueprint_level_declaration_covers_foreign_views(database_url):
    from flask import Blueprint

    from sibol.identity.access import PUBLIC, Access

    app = create_app(base_overrides(database_url))
    foreign = Blueprint("foreign", __name__)
    foreign.add_url_rule("/foreign", "view", lambda: "ok")
    foreign.sibol_access = Access(PUBLIC)
    app.register_blueprint(foreign)
    assert app.test_client().get("/foreign").status_code == 200


def test_ids_past_a_database_integer_are_404_everywhere(client, api_headers):
    admin = make_admin()
    headers = api_headers(admin)
    for path in ("/api/admin/9223372036854775808", "/api/admin/2147483648"):
        res = client.get(path, headers=headers)
        assert res.status_code == 404 and res.is_json, path
    res = client.post("/api/admin/pending-accounts/719119173716018069504/reject", json={}, headers=headers)
    assert res.status_code == 404 and res.is_json
