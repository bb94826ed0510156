"""schedule collector: the account that collects a household collection schedule

Revision ID: 0019_schedule_collector
Revises: 0018_temporary_password
Create Date: 2026-11-25 12:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0019_schedule_collector"
down_revision = "0018_temporary_password"
branch_labels = None
depends_on = None


def _sqlite_foreign_keys(bind, on: bool) -> None:
    """Batch mode copies collection_schedules, drops it and renames the copy. With SQLite's
    foreign keys on, dropping it would cascade-delete its collection_areas rows, so they are off
    while the table is rebuilt. The pragma is ignored inside a transaction: commit first."""
    if bind.dialect.name != "sqlite":
        return
    raw = bind.connection.dbapi_connection
    if raw.in_transaction:
        raw.commit()
    raw.execute(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")


def upgrade():
    bind = op.get_bind()
    _sqlite_foreign_keys(bind, False)
    with op.batch_alter_table("collection_schedules", schema=None) as batch_op:
        batch_op.add_column(sa.Column("collector_id", sa.Integer(), nullable=True))
        batch_op.create_index("ix_collection_schedules_collector_id", ["collector_id"], unique=False)
        batch_op.create_foreign_key(
            "fk_collection_schedules_collector_id_accounts",
            "accounts",
            ["collector_id"],
            ["id"],
            ondelete="SET NULL",
        )
    _sqlite_foreign_keys(bind, True)


def downgrade():
    bind = op.get_bind()
    _sqlite_foreign_keys(bind, False)
    with op.batch_alter_table("collection_schedules", schema=None) as batch_op:
        batch_op.drop_constraint("fk_collection_schedules_collector_id_accounts", type_="foreignkey")
        batch_op.drop_index("ix_collection_schedules_collector_id")
        batch_op.drop_column("collector_id")
    _sqlite_foreign_keys(bind, True)
