from sibol import create_app


def test_factory_applies_overrides_and_wires_extensions(database_url):
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "k"})
    assert app.config["TESTING"] is True and app.config["SECRET_KEY"] == "k"
    for name in ("sqlalchemy", "migrate", "mail", "csrf", "limiter"):
        assert name in app.extensions, name
    assert hasattr(app, "login_manager")
    rules = {r.rule for r in app.url_map.iter_rules()}
    assert {
        "/",
        "/healthz",
        "/login",
        "/dashboard",
        "/admin",
        "/sibol-machines",
        "/household",
        "/maintenance",
        "/chat-support",
        "/api/auth/login",
    } <= rules


def test_two_apps_can_coexist(database_url):
    a = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "a"})
    b = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "b"})
    assert a.url_map is not b.url_map
    assert a.test_client().get("/").status_code == 302
    assert b.test_client().get("/").status_code == 302
