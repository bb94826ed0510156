"""temporary password: when an administrator's temporary password stops signing in

Revision ID: 0018_temporary_password
Revises: 0017_outbox_areas
Create Date: 2026-11-25 09:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0018_temporary_password"
down_revision = "0017_outbox_areas"
branch_labels = None
depends_on = None


def _sqlite_foreign_keys(bind, on: bool) -> None:
    """Dropping the column rebuilds accounts on SQLite (copy, drop, rename). With foreign keys on,
    dropping it would cascade-delete the rows that hang off accounts (modules, tokens, sessions),
    so they are off meanwhile. The pragma is ignored inside a transaction: commit first."""
    if bind.dialect.name != "sqlite":
        return
    raw = bind.connection.dbapi_connection
    if raw.in_transaction:
        raw.commit()
    raw.execute(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")


def upgrade():
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("password_expires_at", sa.DateTime(), nullable=True))


def downgrade():
    bind = op.get_bind()
    _sqlite_foreign_keys(bind, False)
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_column("password_expires_at")
    _sqlite_foreign_keys(bind, True)
