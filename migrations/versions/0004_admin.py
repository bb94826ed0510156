"""admin audit log

Revision ID: 0004_admin
Revises: 0002_account_tokens
Create Date: 2026-11-21 13:39:18.339469

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0004_admin"
down_revision = "0002_account_tokens"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "audit_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor_username", sa.String(length=64), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("target_username", sa.String(length=64), nullable=False),
        sa.Column("details", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["actor_id"],
            ["accounts.id"],
            name=op.f("fk_audit_entries_actor_id_accounts"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["target_id"],
            ["accounts.id"],
            name=op.f("fk_audit_entries_target_id_accounts"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_entries")),
    )
    with op.batch_alter_table("audit_entries", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_audit_entries_action"), ["action"], unique=False)
        batch_op.create_index(batch_op.f("ix_audit_entries_actor_id"), ["actor_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_audit_entries_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_audit_entries_target_id"), ["target_id"], unique=False)


def downgrade():
    op.drop_table("audit_entries")  # drops its indexes with it
