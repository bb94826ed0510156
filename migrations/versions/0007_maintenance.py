"""maintenance requests

Revision ID: 0007_maintenance
Revises: 0006_household
Create Date: 2026-11-21 13:39:24.006957

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0007_maintenance"
down_revision = "0006_household"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "maintenance_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("request_number", sa.Integer(), nullable=False),
        sa.Column("issue", sa.String(length=2000), nullable=False),
        sa.Column("priority", sa.String(length=10), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("request_date", sa.Date(), nullable=False),
        sa.Column("due_date", sa.Date(), nullable=True),
        sa.Column("date_completed", sa.Date(), nullable=True),
        sa.Column("assignee_id", sa.Integer(), nullable=True),
        sa.Column("contact_phone", sa.String(length=40), nullable=True),
        sa.Column("remarks", sa.String(length=1000), nullable=True),
        sa.Column("cancel_reason", sa.String(length=1000), nullable=True),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["assignee_id"],
            ["accounts.id"],
            name=op.f("fk_maintenance_requests_assignee_id_accounts"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["created_by_id"],
            ["accounts.id"],
            name=op.f("fk_maintenance_requests_created_by_id_accounts"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_maintenance_requests")),
        sa.UniqueConstraint("request_number", name=op.f("uq_maintenance_requests_request_number")),
    )
    with op.batch_alter_table("maintenance_requests", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_maintenance_requests_assignee_id"), ["assignee_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_maintenance_requests_priority"), ["priority"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_maintenance_requests_request_date"), ["request_date"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_maintenance_requests_status"), ["status"], unique=False)

    op.create_table(
        "maintenance_attachments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("request_id", sa.Integer(), nullable=False),
        sa.Column("stored_name", sa.String(length=80), nullable=False),
        sa.Column("original_name", sa.String(length=255), nullable=False),
        sa.Column("content_type", sa.String(length=40), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["request_id"],
            ["maintenance_requests.id"],
            name=op.f("fk_maintenance_attachments_request_id_maintenance_requests"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_maintenance_attachments")),
        sa.UniqueConstraint("stored_name", name=op.f("uq_maintenance_attachments_stored_name")),
    )
    with op.batch_alter_table("maintenance_attachments", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_maintenance_attachments_request_id"), ["request_id"], unique=False
        )

    op.create_table(
        "maintenance_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("request_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("note", sa.String(length=1000), nullable=True),
        sa.Column("due_date", sa.Date(), nullable=True),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor_name", sa.String(length=210), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["actor_id"],
            ["accounts.id"],
            name=op.f("fk_maintenance_events_actor_id_accounts"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["request_id"],
            ["maintenance_requests.id"],
            name=op.f("fk_maintenance_events_request_id_maintenance_requests"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_maintenance_events")),
    )
    with op.batch_alter_table("maintenance_events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_maintenance_events_request_id"), ["request_id"], unique=False)


def downgrade():
    # Tables only: their indexes go with them (MySQL refuses to drop indexes foreign keys need).
    op.drop_table("maintenance_events")
    op.drop_table("maintenance_attachments")
    op.drop_table("maintenance_requests")
