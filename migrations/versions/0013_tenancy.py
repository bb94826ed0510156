"""tenancy: barangays as tenants, a City Admin role

Every tenant-owned table gets barangay_id (NOT NULL, a foreign key, indexed); existing rows go
to the first barangay, created from SIBOL_DEFAULT_BARANGAY_NAME when there is none. Names that
were unique over the installation become unique per barangay. accounts.barangay_id stays
nullable (a City Admin belongs to no barangay).

Revision ID: 0013_tenancy
Revises: 0012_language
Create Date: 2026-11-23 15:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0013_tenancy"
down_revision = "0012_language"
branch_labels = None
depends_on = None

# Tables whose rows belong to one barangay (sibol.models.core.TenantOwned), parents first.
TENANT_TABLES = (
    "machines",
    "machine_terms",
    "chemical_additives",
    "waste_containers",
    "collection_schedules",
    "collection_areas",
    "household_members",
    "rewards",
    "reward_claims",
    "point_rules",
    "waste_collections",
    "energy_readings",
    "member_collections",
    "maintenance_requests",
    "maintenance_attachments",
    "maintenance_events",
    "audit_entries",
    "device_keys",
    "telemetry_thresholds",
    "telemetry_alerts",
)
# Entries about a City Admin belong to no barangay.
NULLABLE = ("audit_entries",)
# Composite indexes leading with barangay_id, for the lists that sort or filter within one.
COMPOSITE_INDEXES = (
    ("machine_terms", "ix_machine_terms_barangay_term", ["barangay_id", "term", "shared", "machine_id"]),
    ("household_members", "ix_household_members_barangay_points", ["barangay_id", "points"]),
    ("waste_collections", "ix_waste_collections_barangay_date", ["barangay_id", "collected_on"]),
    ("audit_entries", "ix_audit_entries_barangay_created", ["barangay_id", "created_at"]),
    ("telemetry_alerts", "ix_telemetry_alerts_barangay_closed", ["barangay_id", "closed_at"]),
)


def _default_name() -> str:
    try:
        from flask import current_app

        return current_app.config.get("SIBOL_DEFAULT_BARANGAY_NAME") or "Barangay Fortune"
    except RuntimeError:  # alembic run without the Flask app
        return "Barangay Fortune"


def _sqlite_foreign_keys(bind, on: bool) -> None:
    """Batch mode copies a table, drops it and renames the copy. With SQLite's foreign keys on,
    dropping machines (or any parent) would cascade-delete its children's rows, so they are off
    while this migration rebuilds tables. The pragma is ignored inside a transaction: commit first."""
    if bind.dialect.name != "sqlite":
        return
    raw = bind.connection.dbapi_connection
    if raw.in_transaction:
        raw.commit()
    raw.execute(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")


def upgrade():
    bind = op.get_bind()
    _sqlite_foreign_keys(bind, False)
    with op.batch_alter_table("barangays", schema=None) as batch_op:
        batch_op.add_column(sa.Column("is_active", sa.Boolean(), server_default=sa.true(), nullable=False))
        batch_op.add_column(sa.Column("created_at", sa.DateTime(), nullable=True))

    barangays = sa.table("barangays", sa.column("id", sa.Integer), sa.column("name", sa.String))
    first_id = bind.execute(sa.select(sa.func.min(barangays.c.id))).scalar()
    if first_id is None:
        bind.execute(sa.insert(barangays).values(name=_default_name()))
        first_id = bind.execute(sa.select(sa.func.min(barangays.c.id))).scalar()
    first_name = bind.execute(sa.select(barangays.c.name).where(barangays.c.id == first_id)).scalar()

    roles = sa.table("roles", sa.column("id", sa.Integer), sa.column("name", sa.String))
    if bind.execute(sa.select(roles.c.id).where(roles.c.id == 5)).scalar() is None:
        bind.execute(sa.insert(roles).values(id=5, name="City Admin"))

    # Accounts and areas had a nullable barangay_id already.
    # Rows moved into the first barangay: on a new, empty database none, and nothing to say.
    moved = bind.execute(
        sa.text("UPDATE accounts SET barangay_id = :b WHERE barangay_id IS NULL").bindparams(b=first_id)
    ).rowcount
    moved += bind.execute(
        sa.text("UPDATE areas SET barangay_id = :b WHERE barangay_id IS NULL").bindparams(b=first_id)
    ).rowcount
    with op.batch_alter_table("areas", schema=None) as batch_op:
        batch_op.alter_column("barangay_id", existing_type=sa.Integer(), nullable=False)
        batch_op.drop_constraint("uq_areas_name", type_="unique")
        batch_op.create_unique_constraint("uq_areas_barangay_id_name", ["barangay_id", "name"])

    for table in TENANT_TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("barangay_id", sa.Integer(), nullable=True))
        moved += bind.execute(
            sa.text(f"UPDATE {table} SET barangay_id = :b").bindparams(b=first_id)  # noqa: S608
        ).rowcount
        with op.batch_alter_table(table, schema=None) as batch_op:
            if table not in NULLABLE:
                batch_op.alter_column("barangay_id", existing_type=sa.Integer(), nullable=False)
            batch_op.create_index(f"ix_{table}_barangay_id", ["barangay_id"], unique=False)
            batch_op.create_foreign_key(
                f"fk_{table}_barangay_id_barangays", "barangays", ["barangay_id"], ["id"]
            )

    with op.batch_alter_table("energy_readings", schema=None) as batch_op:
        batch_op.drop_constraint("uq_energy_readings_month", type_="unique")
        batch_op.create_unique_constraint("uq_energy_readings_barangay_id_month", ["barangay_id", "month"])
    with op.batch_alter_table("maintenance_requests", schema=None) as batch_op:
        batch_op.drop_constraint("uq_maintenance_requests_request_number", type_="unique")
        batch_op.create_unique_constraint(
            "uq_maintenance_requests_barangay_id_request_number", ["barangay_id", "request_number"]
        )
    for table, name, columns in COMPOSITE_INDEXES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.create_index(name, columns, unique=False)

    if bind.dialect.name == "sqlite":
        broken = bind.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(f"Foreign keys broken by the migration: {broken[:5]}")
    _sqlite_foreign_keys(bind, True)
    if moved:
        print(f"Existing data was put in barangay {first_name} (id {first_id}).")


def downgrade():
    bind = op.get_bind()
    _sqlite_foreign_keys(bind, False)
    for table, name, _columns in COMPOSITE_INDEXES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_index(name)
    with op.batch_alter_table("maintenance_requests", schema=None) as batch_op:
        batch_op.drop_constraint("uq_maintenance_requests_barangay_id_request_number", type_="unique")
        batch_op.create_unique_constraint("uq_maintenance_requests_request_number", ["request_number"])
    with op.batch_alter_table("energy_readings", schema=None) as batch_op:
        batch_op.drop_constraint("uq_energy_readings_barangay_id_month", type_="unique")
        batch_op.create_unique_constraint("uq_energy_readings_month", ["month"])
    for table in reversed(TENANT_TABLES):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(f"fk_{table}_barangay_id_barangays", type_="foreignkey")
            batch_op.drop_index(f"ix_{table}_barangay_id")
            batch_op.drop_column("barangay_id")
    with op.batch_alter_table("areas", schema=None) as batch_op:
        batch_op.drop_constraint("uq_areas_barangay_id_name", type_="unique")
        batch_op.create_unique_constraint("uq_areas_name", ["name"])
        batch_op.alter_column("barangay_id", existing_type=sa.Integer(), nullable=True)
    op.execute("DELETE FROM roles WHERE id = 5")
    with op.batch_alter_table("barangays", schema=None) as batch_op:
        batch_op.drop_column("created_at")
        batch_op.drop_column("is_active")
    _sqlite_foreign_keys(bind, True)
