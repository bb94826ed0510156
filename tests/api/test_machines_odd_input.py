"""Odd query strings never make the machines list or page fail with a 500."""

import pytest

from tests.factories import make_account, make_machine


@pytest.mark.parametrize(
    "query",
    [
        "q=%00",
        "q=%F0%9F%98%80",
        "q='",
        "q=\\",
        "page=100000000000000000000",
        "page=99999999999",
        "q=a&page=99999999999",
        "q=purok&page=99999999999",
        "q=%25%25",
        "per_page=-1",
        "q=" + "x" * 5000,
    ],
)
def test_odd_api_queries_answer_200_or_400(client, api_headers, query):
    make_machine("Alpha")
    res = client.get(f"/api/machines?{query}", headers=api_headers(make_account()))
    assert res.status_code in (200, 400), res.get_data(as_text=True)
    assert res.is_json


@pytest.mark.parametrize(
    "query",
    [
        "tab=machines&page=99999999999999999999",
        "tab=machines&q=%00",
        "machine_q=%00",
        "tab=machines&edit=99999999999999999999",
    ],
)
def test_odd_page_queries_still_render(client, login, query):
    make_machine("Alpha")
    login(make_account())
    assert client.get(f"/sibol-machines?{query}").status_code == 200
