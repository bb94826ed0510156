"""wide rollups: one telemetry_rollups row per (machine, period, start) with every metric's cells

A reading used to fold into 18 rollup rows (9 metrics x hour and day), one per metric; it now
folds into two, each carrying {metric}_min, _max, _sum (NULL while no reading of the period had
the metric) and _n (0 then). The old rows are copied pivoted; the downgrade un-pivots them.

Revision ID: 0022_wide_rollups
Revises: 0021_public_pages
Create Date: 2026-11-25 09:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0022_wide_rollups"
down_revision = "0021_public_pages"
branch_labels = None
depends_on = None

# The series metrics as of this revision (sibol.models.telemetry.SERIES_METRICS).
METRICS = (
    "weight_kg",
    "ph",
    "temperature_c",
    "pressure_kpa",
    "methane_pct",
    "voltage_v",
    "current_a",
    "water_l",
    "power_w",
)
FK = "fk_telemetry_rollups_machine_id_machines"


def _set_aside(name: str) -> None:
    """Rename telemetry_rollups to `name`, freeing its foreign key's name for the new table
    (MariaDB names constraints per database; SQLite per table, and keeps the old one as is)."""
    op.rename_table("telemetry_rollups", name)
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(FK, name, type_="foreignkey")


def _keys() -> list[sa.Column]:
    return [
        sa.Column("machine_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("period", sa.String(length=1), nullable=False),
    ]


def _constraints(*key: str) -> list[sa.Constraint]:
    return [
        sa.ForeignKeyConstraint(["machine_id"], ["machines.id"], name=op.f(FK), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint(*key, name=op.f("pk_telemetry_rollups")),
    ]


def upgrade():
    _set_aside("telemetry_rollups_narrow")
    cells = []
    for m in METRICS:
        cells += [
            sa.Column(f"{m}_min", sa.Float(), nullable=True),
            sa.Column(f"{m}_max", sa.Float(), nullable=True),
            sa.Column(f"{m}_sum", sa.Float(), nullable=True),
            sa.Column(f"{m}_n", sa.Integer(), server_default="0", nullable=False),
        ]
    op.create_table(
        "telemetry_rollups",
        *_keys(),
        sa.Column("start", sa.DateTime(), nullable=False),
        *cells,
        *_constraints("machine_id", "period", "start"),
    )
    # On SQLite a start is text: rows written by the single-reading path before it used
    # SQLAlchemy's format lack the ".000000" of the others. Such rows of one hour are merged here
    # (every start is a whole hour), so every cell is folded as the rollups fold readings.
    sqlite = op.get_bind().dialect.name == "sqlite"
    start = "substr(start, 1, 19) || '.000000'" if sqlite else "start"
    names, picks = [], []
    for m in METRICS:
        names += [f"{m}_min", f"{m}_max", f"{m}_sum", f"{m}_n"]
        picks += [
            f"MIN(CASE WHEN metric = '{m}' THEN min END)",
            f"MAX(CASE WHEN metric = '{m}' THEN max END)",
            f"SUM(CASE WHEN metric = '{m}' THEN sum END)",
            f"COALESCE(SUM(CASE WHEN metric = '{m}' THEN count END), 0)",
        ]
    listed = ", ".join(f"'{m}'" for m in METRICS)
    op.execute(
        f"INSERT INTO telemetry_rollups (machine_id, period, start, {', '.join(names)})"  # noqa: S608 - constants
        f" SELECT machine_id, period, {start}, {', '.join(picks)} FROM telemetry_rollups_narrow"
        f" WHERE metric IN ({listed}) GROUP BY machine_id, period, {start}"
    )
    op.drop_table("telemetry_rollups_narrow")


def downgrade():
    _set_aside("telemetry_rollups_wide")
    op.create_table(
        "telemetry_rollups",
        *_keys(),
        sa.Column("metric", sa.String(length=20), nullable=False),
        sa.Column("start", sa.DateTime(), nullable=False),
        sa.Column("min", sa.Float(), nullable=False),
        sa.Column("max", sa.Float(), nullable=False),
        sa.Column("sum", sa.Float(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        *_constraints("machine_id", "period", "metric", "start"),
    )
    for m in METRICS:
        op.execute(
            "INSERT INTO telemetry_rollups (machine_id, period, metric, start, min, max, sum, count)"  # noqa: S608
            f" SELECT machine_id, period, '{m}', start, {m}_min, {m}_max, {m}_sum, {m}_n"
            f" FROM telemetry_rollups_wide WHERE {m}_n > 0"
        )
    op.drop_table("telemetry_rollups_wide")
