"""/chat-support: the programme's questions and the office's contact details from configuration."""

import pytest

from sibol.models import RoleId
from tests.factories import make_account


@pytest.fixture
def app_overrides():
    return {
        "SIBOL_OFFICE_PHONE": "(049) 555 0199",
        "SIBOL_OFFICE_EMAIL": "help@fortune.gov.ph",
        "SIBOL_OFFICE_ADDRESS": "Barangay Hall, 12 Rizal Street",
    }


def test_chat_support_shows_questions_and_office_contacts(client, login):
    login(make_account(role=RoleId.HOUSEHOLD))
    res = client.get("/chat-support")
    assert res.status_code == 200
    html = res.get_data(as_text=True)
    assert "<h1>Chat Support</h1>" in html and "Frequently asked questions" in html
    assert html.count('class="card faq__item"') >= 6
    assert "How do I earn points?" in html
    assert 'href="tel:(049)5550199"' in html and "(049) 555 0199" in html
    assert 'href="mailto:help@fortune.gov.ph"' in html and "Barangay Hall, 12 Rizal Street" in html
    assert 'href="/chat-support" aria-current="page">Chat Support</a>' in html


def test_chat_support_needs_module_5(client, login):
    assert client.get("/chat-support").status_code == 302
    login(make_account(modules=[1, 4]))
    assert client.get("/chat-support").status_code == 403
