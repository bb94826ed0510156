"""The collection day page: today's and tomorrow's schedules, every household once, one Save."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from sibol.extensions import db
from sibol.i18n.localtime import today
from sibol.identity import tenancy
from sibol.models import Barangay, HouseholdMember, MemberCollection, RoleId
from tests.factories import make_account
from tests.factories_household import make_member, make_schedule


def visible_text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


PAGE = "/household/collection-day"


def points(member) -> int:
    db.session.expire_all()
    return db.session.get(HouseholdMember, member.id).points


def test_the_page_lists_todays_and_tomorrows_schedules_and_every_household_once(client, staff_client):
    make_schedule(areas=("Purok Uno",), when=today())
    make_schedule(areas=("Purok Dos", "Purok Uno"), when=today() + timedelta(days=1))
    make_schedule(areas=("Purok Later",), when=today() + timedelta(days=2))
    rosa = make_member("Rosa", points=120)
    nilo = make_member("Nilo", points=5, active=False)
    res = client.get(PAGE)
    assert res.status_code == 200
    html = res.get_data(as_text=True)
    text = visible_text(html)
    assert "Purok Uno" in text and "Purok Dos" in text and "Purok Later" not in text
    assert html.count(f'name="kg-{rosa.id}"') == 1
    assert f'data-member-id="{nilo.id}" class="is-inactive"' in html
    nilo_input = html.split(f'name="kg-{nilo.id}"', 1)[1].split(">", 1)[0]
    assert "disabled" in nilo_input
    assert "120" in text


def area_groups(html: str) -> list[tuple[str, list[str]]]:
    """(heading, household names) of each row group, in page order."""
    groups = []
    for body in re.findall(r"<tbody data-area=[^>]*>(.*?)</tbody>", html, re.S):
        heading = visible_text(re.search(r'<th scope="rowgroup"[^>]*>(.*?)</th>', body, re.S).group(1))
        names = [visible_text(n) for n in re.findall(r"<label for=\"kg-[0-9]+\">(.*?)</label>", body)]
        groups.append((heading, names))
    return groups


def test_households_are_grouped_by_scheduled_area_each_once_then_the_rest(client, staff_client):
    make_schedule(areas=("Purok Uno",), when=today())
    make_schedule(areas=("purok dos", "Purok Uno"), when=today() + timedelta(days=1))
    make_schedule(areas=("Purok Tres",), when=today() + timedelta(days=2))  # not today or tomorrow
    make_schedule(areas=("Purok Kwatro",), when=today(), status="Cancelled")
    make_member("Rosa", area="Purok Uno")
    make_member("Ana", area="Purok Dos")
    make_member("Nilo", area="purok uno", active=False)
    make_member("Lito", area="Purok Tres")
    make_member("Bea", area="Purok Kwatro")
    make_member("Carlo")
    html = client.get(PAGE).get_data(as_text=True)
    assert area_groups(html) == [
        ("Purok Uno", ["Rosa", "Nilo"]),  # active first; the area's case does not matter
        ("purok dos", ["Ana"]),
        ("Other households", ["Bea", "Carlo", "Lito"]),
    ]
    nilo_row = html.split('<label for="kg-', 3)[2]
    assert "Inactive: cannot be credited" in nilo_row.split("</tr>", 1)[0]


def test_without_scheduled_areas_every_household_is_one_group(client, staff_client):
    make_member("Rosa", area="Purok Uno")
    make_member("Ana")
    assert area_groups(client.get(PAGE).get_data(as_text=True)) == [("Households", ["Ana", "Rosa"])]


def test_another_barangays_households_are_not_listed(client, staff_client):
    other = Barangay(name="Barangay Malayo", is_active=True)
    db.session.add(other)
    db.session.commit()
    with tenancy.scoped(other.id):
        make_member("Zqxfar")
    make_member("Rosa")
    assert "Zqxfar" not in client.get(PAGE).get_data(as_text=True)


def test_one_save_credits_every_household_typed(client, staff_client):
    rosa = make_member("Rosa", points=100)
    nilo = make_member("Nilo", points=0)
    ana = make_member("Ana", points=7)
    res = client.post(PAGE, data={f"kg-{rosa.id}": "2", f"kg-{nilo.id}": "0.5", f"kg-{ana.id}": ""})
    assert res.status_code == 302 and res.headers["Location"].endswith(PAGE)
    assert (points(rosa), points(nilo), points(ana)) == (160, 15, 7)
    page = visible_text(client.get(PAGE).get_data(as_text=True))
    assert "Saved: 2 households credited, 2.5 kg, 75 points." in page


def test_one_bad_field_saves_nothing_and_shows_the_error_beside_its_household(client, staff_client):
    rosa = make_member("Rosa", points=100)
    nilo = make_member("Nilo", points=0)
    res = client.post(PAGE, data={f"kg-{rosa.id}": "2", f"kg-{nilo.id}": "lots"})
    assert res.status_code == 400
    html = res.get_data(as_text=True)
    assert "Nothing was saved" in visible_text(html)
    error = html.split(f'id="kg-{nilo.id}-error"', 1)[1].split("</p>", 1)[0]
    assert "Food waste must be a number of kilograms." in error
    assert 'value="lots"' in html and 'value="2"' in html  # what was typed is kept
    assert (points(rosa), points(nilo)) == (100, 0)
    assert db.session.scalar(select(func.count(MemberCollection.id))) == 0


def test_an_inactive_household_sent_anyway_is_refused(client, staff_client):
    rosa = make_member("Rosa", points=100)
    nilo = make_member("Nilo", points=0, active=False)
    res = client.post(PAGE, data={f"kg-{rosa.id}": "1", f"kg-{nilo.id}": "1"})
    assert res.status_code == 400
    html = res.get_data(as_text=True)
    error = html.split(f'id="kg-{nilo.id}-error"', 1)[1].split("</p>", 1)[0]
    assert "Nilo is inactive and cannot be credited." in error
    assert (points(rosa), points(nilo)) == (100, 0)
    assert db.session.scalar(select(func.count(MemberCollection.id))) == 0


def test_a_household_of_another_barangay_sent_anyway_is_refused(client, staff_client):
    other = Barangay(name="Barangay Malayo", is_active=True)
    db.session.add(other)
    db.session.commit()
    with tenancy.scoped(other.id):
        far = make_member("Far", points=0)
    res = client.post(PAGE, data={f"kg-{far.id}": "1"})
    assert res.status_code == 400 and "This household no longer exists." in res.get_data(as_text=True)
    with tenancy.scoped(other.id):
        assert points(far) == 0


def test_an_empty_form_asks_for_at_least_one_weight(client, staff_client):
    rosa = make_member("Rosa")
    res = client.post(PAGE, data={f"kg-{rosa.id}": " "})
    assert res.status_code == 400
    assert "Type the kilograms of at least one household." in res.get_data(as_text=True)


@pytest.mark.parametrize("role", [RoleId.HOUSEHOLD])
def test_a_household_account_cannot_open_it(client, login, role):
    login(make_account(role=role))
    assert client.get(PAGE).status_code == 403
    assert client.post(PAGE, data={}).status_code == 403
