"""public pages and reminders: a barangay's slug and former slugs, a household's consent to its
name shown, the barangay's reminder hour and SMS cap, reminder subscriptions and messages

Revision ID: 0021_public_pages
Revises: 0020_idempotency
Create Date: 2026-11-25 21:10:00

"""

import re
import unicodedata

from alembic import op
import sqlalchemy as sa


revision = "0021_public_pages"
down_revision = "0020_idempotency"
branch_labels = None
depends_on = None


def _slug(name):
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:70] or "barangay"


def upgrade():
    # Added in place (no table copy: SQLite cannot rebuild a table other tables point to).
    op.add_column("barangays", sa.Column("slug", sa.String(length=80), nullable=True))
    op.create_index("ix_barangays_slug", "barangays", ["slug"], unique=True)
    op.add_column("barangays", sa.Column("reminder_hour", sa.Integer(), server_default="18", nullable=False))
    op.add_column("barangays", sa.Column("sms_daily_cap", sa.Integer(), server_default="200", nullable=False))
    op.add_column(
        "barangays", sa.Column("collection_window", sa.String(length=20), server_default="", nullable=False)
    )
    with op.batch_alter_table("household_members", schema=None) as batch_op:
        batch_op.add_column(sa.Column("public_name", sa.Boolean(), server_default=sa.false(), nullable=False))
    op.create_table(
        "barangay_former_slugs",
        sa.Column("slug", sa.String(length=80), nullable=False),
        sa.Column("barangay_id", sa.Integer(), nullable=False),
        sa.Column("replaced_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["barangay_id"],
            ["barangays.id"],
            name="fk_barangay_former_slugs_barangay_id_barangays",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("slug", name="pk_barangay_former_slugs"),
    )
    op.create_index("ix_barangay_former_slugs_barangay_id", "barangay_former_slugs", ["barangay_id"])
    op.create_table(
        "reminder_subscriptions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("mobile", sa.String(length=16), nullable=True),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("by_sms", sa.Boolean(), nullable=False),
        sa.Column("by_email", sa.Boolean(), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("consent_at", sa.DateTime(), nullable=False),
        sa.Column("consent_by_id", sa.Integer(), nullable=True),
        sa.Column("stop_token", sa.String(length=32), nullable=False),
        sa.Column("stopped_at", sa.DateTime(), nullable=True),
        sa.Column("barangay_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["member_id"],
            ["household_members.id"],
            name="fk_reminder_subscriptions_member_id_household_members",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["consent_by_id"],
            ["accounts.id"],
            name="fk_reminder_subscriptions_consent_by_id_accounts",
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["barangay_id"], ["barangays.id"], name="fk_reminder_subscriptions_barangay_id_barangays"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_reminder_subscriptions"),
        sa.UniqueConstraint("stop_token", name="uq_reminder_subscriptions_stop_token"),
    )
    op.create_index(
        "ix_reminder_subscriptions_member_id", "reminder_subscriptions", ["member_id"], unique=True
    )
    op.create_index("ix_reminder_subscriptions_barangay_id", "reminder_subscriptions", ["barangay_id"])
    op.create_table(
        "reminder_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("subscription_id", sa.Integer(), nullable=False),
        sa.Column("schedule_id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=8), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("cost_centavos", sa.Integer(), nullable=False),
        sa.Column("error", sa.String(length=255), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.Column("barangay_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["subscription_id"],
            ["reminder_subscriptions.id"],
            name="fk_reminder_messages_subscription_id_reminder_subscriptions",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["schedule_id"],
            ["collection_schedules.id"],
            name="fk_reminder_messages_schedule_id_collection_schedules",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["barangay_id"], ["barangays.id"], name="fk_reminder_messages_barangay_id_barangays"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_reminder_messages"),
        sa.UniqueConstraint("schedule_id", "subscription_id", "channel", name="uq_reminder_messages_once"),
    )
    for column in ("subscription_id", "schedule_id", "status", "created_at", "barangay_id"):
        op.create_index(f"ix_reminder_messages_{column}", "reminder_messages", [column])
    # Every existing barangay gets its default slug (a number added on a clash).
    conn = op.get_bind()
    taken = set()
    for barangay_id, name in conn.execute(sa.text("SELECT id, name FROM barangays ORDER BY id")).all():
        base = slug = _slug(name)
        n = 2
        while slug in taken:
            slug, n = f"{base}-{n}", n + 1
        taken.add(slug)
        conn.execute(
            sa.text("UPDATE barangays SET slug = :slug WHERE id = :id"), {"slug": slug, "id": barangay_id}
        )


def downgrade():
    op.drop_table("reminder_messages")
    op.drop_table("reminder_subscriptions")
    op.drop_column("barangays", "collection_window")
    op.drop_column("barangays", "sms_daily_cap")
    op.drop_column("barangays", "reminder_hour")
    op.drop_table("barangay_former_slugs")  # its index goes with it (MariaDB refuses it first)
    with op.batch_alter_table("household_members", schema=None) as batch_op:
        batch_op.drop_column("public_name")
    op.drop_index("ix_barangays_slug", table_name="barangays")
    op.drop_column("barangays", "slug")
