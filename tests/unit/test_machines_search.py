"""The search service against a brute-force reading of its rules, across both query plans."""

from __future__ import annotations

import itertools

import pytest

from sibol.machines import search
from sibol.models.machines import machine_terms
from tests.factories import make_machine

NAMES = (
    "Dig Dig",
    "dig digester",
    "Digester 1",
    "SIBOL digester 10",
    "Composter",
    "Mixer dig",
    "Big Dig 2",
    "dig",
    "Shredder 100",
    "diG DIG dig",
)
AREAS = ("Purok 1", "Purok 2", "Purok 3")


def expected(machines, q: str) -> list[int]:
    q = " ".join(q.lower().split())
    hits = []
    for m, area in machines:
        words = m.name.lower().split()
        by_name = any(" ".join(words[i:]).startswith(q) for i in range(len(words)))
        if by_name or q in area.lower():
            hits.append(m.id)
    return hits


def test_terms_mark_what_they_share_with_earlier_terms():
    assert machine_terms("Dig  DIG dig") == [("dig dig dig", 0), ("dig dig", 7), ("dig", 3)]
    assert machine_terms("SIBOL Machine 12") == [("sibol machine 12", 0), ("machine 12", 0), ("12", 0)]


@pytest.mark.parametrize("q", ["dig", "DIG DIG", "digester", "d", "digester 1", "sibol", "purok 2", "x", "1"])
def test_search_matches_brute_force_on_every_page_size(app, q):
    machines = []
    for name, area in zip(NAMES * 3, itertools.cycle(AREAS), strict=False):
        machines.append((make_machine(name, area=area), area))
    want = expected(machines, q)
    for per_page in (1, 2, 3, 7, 100):
        got = []
        for page in range(1, len(machines) // per_page + 2):
            result = search.search_machines(q, page, per_page)
            assert result.total == len(want), (q, per_page, page)
            got += [m.id for m in result.rows]
        assert got == want, (q, per_page)
        typeahead = [m.id for m in search.search_machines(q, 1, per_page, with_total=False).rows]
        assert len(typeahead) == len(set(typeahead)) == min(per_page, len(want))
        assert set(typeahead) <= set(want)
