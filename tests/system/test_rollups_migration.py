"""Migration 0022_wide_rollups on a populated database: one row per metric becomes one row per
(machine, period, start) with every metric's cells, and the downgrade gives the old rows back."""

from __future__ import annotations

from flask_migrate import downgrade, upgrade
from sqlalchemy import text

from sibol import create_app
from sibol.extensions import db
from tests.conftest import base_overrides

# Times as SQLAlchemy writes a DateTime on SQLite (MariaDB reads the same text); read back, the
# first 19 characters are compared (SQLite answers raw SQL with the text).
HOUR, DAY = "2026-05-01 08:00:00.000000", "2026-05-01 00:00:00.000000"
# (machine, period, metric, start, min, max, sum, count) as 0011_telemetry stored them.
NARROW = [
    (1, "d", "ph", DAY, 6.9, 7.4, 21.3, 3),
    (1, "d", "power_w", DAY, 1100.0, 1200.0, 2300.0, 2),
    (1, "d", "weight_kg", DAY, 0.0, 12.5, 20.0, 3),
    (1, "h", "ph", HOUR, 6.9, 7.4, 14.3, 2),
    (1, "h", "power_w", HOUR, 1150.0, 1150.0, 1150.0, 1),
    (1, "h", "weight_kg", HOUR, 0.0, 7.5, 7.5, 2),
    (2, "h", "methane_pct", HOUR, 55.0, 61.0, 116.0, 2),
]


def _narrow_rows(conn) -> list[tuple]:
    rows = conn.execute(
        text("SELECT machine_id, period, metric, start, min, max, sum, count FROM telemetry_rollups")
    )
    return sorted(_same_times(r, 3) for r in rows)


def _same_times(row, at: int) -> tuple:
    return (*row[:at], str(row[at])[:19], *row[at + 1 :])


def test_upgrade_pivots_the_rollups_and_downgrade_gives_them_back(fresh_database_url):
    app = create_app(base_overrides(fresh_database_url))
    with app.app_context():
        upgrade(revision="0015_mqtt")
        with db.engine.begin() as conn:
            barangay = conn.execute(text("SELECT id FROM barangays")).scalar()  # made by 0013_tenancy
            conn.execute(
                text("INSERT INTO areas (name, barangay_id) VALUES ('Purok 9', :b)"), {"b": barangay}
            )
            area = conn.execute(text("SELECT id FROM areas WHERE name = 'Purok 9'")).scalar()
            for machine in (1, 2):
                conn.execute(
                    text(
                        "INSERT INTO machines (id, name, area_id, barangay_id, created_at, updated_at)"
                        " VALUES (:id, :name, :area, :b, '2026-01-01', '2026-01-01')"
                    ),
                    {"id": machine, "name": f"Dig {machine}", "area": area, "b": barangay},
                )
            # SQLite: an hour's row as the single-reading path wrote its start before (no
            # microseconds), beside one of the same hour written through SQLAlchemy: merged.
            sqlite = conn.dialect.name == "sqlite"
            short = [(2, "h", "methane_pct", HOUR[:19], 50.0, 58.0, 108.0, 2)] if sqlite else []
            for row in NARROW + short:
                conn.execute(
                    text(
                        "INSERT INTO telemetry_rollups (machine_id, period, metric, start, min, max, sum, count)"
                        " VALUES (:m, :p, :metric, :start, :lo, :hi, :total, :n)"
                    ),
                    dict(zip(("m", "p", "metric", "start", "lo", "hi", "total", "n"), row, strict=True)),
                )
        upgrade(revision="0022_wide_rollups")
        with db.engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT machine_id, period, start, ph_min, ph_max, ph_sum, ph_n, power_w_sum, power_w_n,"
                    " weight_kg_min, weight_kg_n, methane_pct_sum, methane_pct_n, water_l_min, water_l_sum,"
                    " water_l_n FROM telemetry_rollups ORDER BY machine_id, period, start"
                )
            ).all()
            methane = conn.execute(text("SELECT methane_pct_min, methane_pct_max FROM telemetry_rollups"
                                        " WHERE machine_id = 2")).one()  # fmt: skip
        assert [_same_times(r, 2) for r in rows] == [
            (1, "d", DAY[:19], 6.9, 7.4, 21.3, 3, 2300.0, 2, 0.0, 3, None, 0, None, None, 0),
            (1, "h", HOUR[:19], 6.9, 7.4, 14.3, 2, 1150.0, 1, 0.0, 2, None, 0, None, None, 0),
            (2, "h", HOUR[:19], None, None, None, 0, None, 0, None, 0, *((224.0, 4) if sqlite else (116.0, 2)),
             None, None, 0),
        ]  # fmt: skip
        assert tuple(methane) == ((50.0, 61.0) if sqlite else (55.0, 61.0))
        with db.engine.begin() as conn:  # a new row takes n = 0 for the metrics it does not name
            conn.execute(
                text(
                    "INSERT INTO telemetry_rollups (machine_id, period, start, ph_min, ph_max, ph_sum, ph_n)"
                    " VALUES (2, 'd', :day, 7.0, 7.0, 7.0, 1)"
                ),
                {"day": DAY},
            )
            assert conn.execute(text("SELECT methane_pct_n FROM telemetry_rollups WHERE period = 'd'"
                                     " AND machine_id = 2")).scalar() == 0  # fmt: skip
        downgrade(revision="0015_mqtt")
        with db.engine.connect() as conn:
            expected = [*NARROW, (2, "d", "ph", DAY, 7.0, 7.0, 7.0, 1)]
            if sqlite:
                expected[-2] = (2, "h", "methane_pct", HOUR, 50.0, 61.0, 224.0, 4)
            assert _narrow_rows(conn) == sorted(_same_times(r, 3) for r in expected)
        downgrade(revision="base")
        db.engine.dispose()
