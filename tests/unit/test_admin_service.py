"""Admin rules that need no HTTP: username derivation, module parsing, the sample seed."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from sibol.admin import queries, service
from sibol.admin import seed as admin_seed
from sibol.errors import Invalid
from sibol.extensions import db
from sibol.identity import usernames
from sibol.models import Account, AccountStatus
from tests.factories import make_account


@pytest.mark.parametrize(
    ("first", "last", "expected"),
    [
        ("Maria Clara", "De la Cruz", "maria.clara.de.la.cruz"),
        ("  Juan ", " Pablo  ", "juan.pablo"),
        ("O'Brien", "Smith-Jones", "obrien.smith-jones"),
        ("Ñino", "Año", "ino.ao"),
        ("A" * 20, "B" * 20, ("a" * 20 + "." + "b" * 9)),
        ("", "", ""),
    ],
)
def test_derive_username(first, last, expected):
    assert usernames.from_names(first, last) == expected


def test_unique_username_stays_within_30_characters(app):
    base = "x" * 30
    make_account(username=base)
    assert usernames.unique(base) == "x" * 29 + "2"
    assert usernames.unique("") == "user"
    make_account(username="X" * 29 + "2")  # taken whatever the case
    assert usernames.unique(base) == "x" * 29 + "3"


def test_resolve_modules_accepts_ids_names_and_keys(app):
    ids = [
        m.id for m in service.resolve_modules([6, "2", "maintenance", "Chat Support", {"Module_id": 1}, 2])
    ]
    assert ids == [1, 2, 3, 5, 6]
    for bad in ([True], ["7"], [None], [1.5], ["9" * 20]):
        with pytest.raises(Invalid):
            service.resolve_modules(bad)


def test_sample_accounts_are_seeded_once(app):
    admin_seed.sample_data()
    admin_seed.sample_data()
    assert db.session.scalar(select(func.count(Account.id))) == len(admin_seed.SAMPLE_ACCOUNTS)
    assert queries.pending_count() == 2
    pending = db.session.scalar(select(Account).where(Account.username == "ana.garcia"))
    pending.status = AccountStatus.REJECTED
    db.session.commit()
    admin_seed.sample_data()  # an admin's decision is kept
    assert queries.pending_count() == 1
