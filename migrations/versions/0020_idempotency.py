"""idempotency: the answers kept for retried writes (Idempotency-Key, one-time form ids)

Revision ID: 0020_idempotency
Revises: 0019_schedule_collector
Create Date: 2026-11-25 21:00:00

"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0020_idempotency"
down_revision = "0019_schedule_collector"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "idempotency_records",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(length=80), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("claim", sa.String(length=32), nullable=False),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("content_type", sa.String(length=120), nullable=True),
        sa.Column("location", sa.String(length=500), nullable=True),
        sa.Column(
            "body",
            sa.LargeBinary().with_variant(mysql.MEDIUMBLOB(), "mysql", "mariadb"),
            nullable=True,
        ),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_idempotency_records")),
        sa.UniqueConstraint("owner", "key_hash", name="uq_idempotency_records_owner_key_hash"),
    )
    with op.batch_alter_table("idempotency_records", schema=None) as batch_op:
        batch_op.create_index("ix_idempotency_records_created_at", ["created_at"], unique=False)


def downgrade():
    op.drop_table("idempotency_records")
