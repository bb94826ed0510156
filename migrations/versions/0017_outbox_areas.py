"""outbox and areas: the mail outbox, retired areas, a first area for every barangay without one

Revision ID: 0017_outbox_areas
Revises: 0016_auth_hardening
Create Date: 2026-12-08 09:00:00

"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0017_outbox_areas"
down_revision = "0016_auth_hardening"
branch_labels = None
depends_on = None

LONG_TEXT = sa.Text().with_variant(mysql.MEDIUMTEXT(), "mysql", "mariadb")
STARTER_AREA = "Purok 1"


def upgrade():
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.String(length=255), nullable=False),
        sa.Column("recipient", sa.String(length=254), nullable=False),
        sa.Column("subject", sa.String(length=500), nullable=False),
        sa.Column("body", LONG_TEXT, nullable=False),
        sa.Column("html", LONG_TEXT, nullable=False),
        sa.Column("template", sa.String(length=64), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(), nullable=False),
        sa.Column("lease_until", sa.DateTime(), nullable=True),
        sa.Column("last_error", sa.String(length=500), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mail_outbox")),
        sa.UniqueConstraint("message_id", name=op.f("uq_mail_outbox_message_id")),
    )
    op.create_index("ix_mail_outbox_state_next_attempt_at", "mail_outbox", ["state", "next_attempt_at"])
    with op.batch_alter_table("areas", schema=None) as batch_op:
        batch_op.add_column(sa.Column("retired_at", sa.DateTime(), nullable=True))
    # A barangay made before areas could be managed may have none, and then no machine could be
    # added there: it gets the area a new barangay starts with, to rename.
    barangays = sa.table("barangays", sa.column("id", sa.Integer()))
    areas = sa.table("areas", sa.column("name", sa.String()), sa.column("barangay_id", sa.Integer()))
    bind = op.get_bind()
    without = bind.execute(
        sa.select(barangays.c.id).where(
            ~sa.exists(sa.select(areas.c.barangay_id).where(areas.c.barangay_id == barangays.c.id))
        )
    ).scalars()
    rows = [{"name": STARTER_AREA, "barangay_id": barangay_id} for barangay_id in without]
    if rows:
        op.bulk_insert(areas, rows)


def downgrade():
    # A plain DROP COLUMN (SQLite has it since 3.35): a batch rebuild of areas would drop the
    # table that machines and schedules point at, which SQLite refuses with foreign keys on.
    op.drop_column("areas", "retired_at")
    op.drop_index("ix_mail_outbox_state_next_attempt_at", table_name="mail_outbox")
    op.drop_table("mail_outbox")
