"""a page renders from its document alone. Its stylesheets' rules that can match
it are inline in the head, allowed by a sha256 in the CSP (never 'unsafe-inline'), and the full
stylesheets load at the end of the body, where they no longer hold back the first paint."""

import base64
import hashlib
import re

import pytest

from sibol.dashboard import seed as dashboard_seed
from sibol.household import seed as household_seed
from sibol.web import critical_css
from tests.factories import make_account

STYLE = re.compile(r"<style>(.*?)</style>", re.S)


def split_page(html: str) -> tuple[str, str]:
    head, body = html.split("</head>", 1)
    return head, body


def style_src(res) -> list[str]:
    csp = res.headers["Content-Security-Policy"]
    return csp.split("style-src ", 1)[1].split(";", 1)[0].split()


def sha256_source(css: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(css.encode()).digest()).decode() + "'"


@pytest.mark.parametrize("path", ["/login", "/signup"])
def test_public_pages_carry_their_css_inline_allowed_by_its_hash(client, path):
    res = client.get(path)
    html = res.get_data(as_text=True)
    head, body = split_page(html)
    styles = STYLE.findall(head)
    assert len(styles) == 1
    assert style_src(res) == ["'self'", sha256_source(styles[0])]
    assert "unsafe-inline" not in res.headers["Content-Security-Policy"]
    # No stylesheet blocks the first paint: the links are after the page's content.
    assert 'rel="stylesheet"' not in head
    links = re.findall(r'<link rel="stylesheet" href="/static/css/([a-z]+)\.css\?v=\w+">', body)
    assert links == ["app", "auth"]
    assert body.index('rel="stylesheet"') > body.index("</main>")


def test_inline_rules_are_the_ones_the_sign_in_page_can_use(client):
    html = client.get("/login").get_data(as_text=True)
    css = STYLE.search(html).group(1)
    # From app.css and auth.css, as written there (the files, not a copy).
    assert ".auth-card{background:#fff;" in css and ":root{--green:#1f7a4d;" in css
    assert ".btn--primary{" in css and "input,select,textarea{" in css
    # Rules for what the page does not contain stay in the stylesheets.
    assert ".table{" not in css and ".nav" not in css and ".badge" not in css
    assert len(css) < 10_000


def test_signed_in_page_inlines_its_own_sheet_and_the_top_bar(client, login):
    dashboard_seed.sample_data()
    household_seed.sample_data()
    login(make_account())
    res = client.get("/dashboard")
    head, body = split_page(res.get_data(as_text=True))
    css = STYLE.findall(head)[0]
    assert ".process__step--active{" in css and ".chart__svg{" in css  # dashboard.css
    assert style_src(res)[1] == sha256_source(css)
    assert re.findall(r'href="/static/css/(\w+)\.css', body) == ["app", "dashboard"]
    # The dashboard's old <noscript><style> (blocked by this CSP) is gone.
    assert "<noscript><style>" not in head


def test_the_page_is_compressed_after_the_css_went_in(client):
    import brotli

    res = client.get("/login", headers={"Accept-Encoding": "br"})
    assert res.headers["Content-Encoding"] == "br"
    html = brotli.decompress(res.data).decode()
    assert "<style>" in html and style_src(res)[1] == sha256_source(STYLE.search(html).group(1))
    assert len(res.data) < 6 * 1024  # the whole first response of /login, CSS included


def test_json_and_pages_without_stylesheets_are_left_alone(client):
    res = client.get("/healthz")
    assert style_src(res) == ["'self'"]
    assert critical_css.inline_critical("<html><head></head><body>x</body></html>") == (
        "<html><head></head><body>x</body></html>",
        None,
    )


# The selection itself, on a stylesheet of our own (STATIC_DIR pointed at a temporary folder).


@pytest.fixture
def sheet(tmp_path, monkeypatch):
    (tmp_path / "css").mkdir()
    monkeypatch.setattr(critical_css, "STATIC_DIR", tmp_path)
    critical_css._results.clear()

    def write(text: str) -> None:
        path = tmp_path / "css" / "x.css"
        path.write_text(text)
        import os

        stat = path.stat()
        os.utime(path, (stat.st_atime, stat.st_mtime + 1))  # a new version, even within a second

    return write


PAGE = (
    '<!doctype html><html><head><link rel="stylesheet" href="/static/css/x.css?v=1"></head>'
    '<body><main id="main" class="page"><p class="lead big">Hi</p><a href="#">x</a></main></body></html>'
)


def test_selection_keeps_matching_rules_media_and_keyframes(sheet):
    sheet(
        "/* comment */\n:root{--c:red}\nbody { margin : 0 }\n.lead{color:var(--c)}\n.lead.big{font-size:2em}\n"
        ".lead .missing{color:blue}\n.other{color:green}\n#main>p:not(.other){padding:0}\n"
        "a:hover,.nope{color:red}\np[data-x]{top:0}\n"
        "@media (max-width:600px){.lead{color:black}.other{color:white}}\n"
        "@media print{.other{display:none}}\n@keyframes spin{from{opacity:0}to{opacity:1}}\n"
    )
    html, source = critical_css.inline_critical(PAGE)
    css = STYLE.search(html).group(1)
    assert css == (
        ":root{--c:red}body{margin:0}.lead{color:var(--c)}.lead.big{font-size:2em}"
        "#main>p:not(.other){padding:0}a:hover,.nope{color:red}p[data-x]{top:0}"
        "@media (max-width:600px){.lead{color:black}}@keyframes spin{from{opacity:0}to{opacity:1}}"
    )
    assert source == sha256_source(css)
    assert html.endswith('<link rel="stylesheet" href="/static/css/x.css?v=1">\n</body></html>')


def test_a_changed_stylesheet_changes_the_inline_css_and_its_hash(sheet):
    sheet(".lead{color:red}")
    first = critical_css.inline_critical(PAGE)
    sheet(".lead{color:blue}")
    second = critical_css.inline_critical(PAGE)
    assert ".lead{color:blue}" in second[0] and first[1] != second[1]
