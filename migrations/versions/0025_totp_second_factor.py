"""account_totp and totp_recovery_codes: the second factor (TOTP) and its recovery codes

Revision ID: 0025_totp_second_factor
Revises: 0024_member_area
Create Date: 2026-11-28 23:15:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0025_totp_second_factor"
down_revision = "0024_member_area"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "account_totp",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("secret_encrypted", sa.String(length=255), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(), nullable=True),
        sa.Column("last_step", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_account_totp_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("account_id", name=op.f("pk_account_totp")),
    )
    op.create_table(
        "totp_recovery_codes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_totp_recovery_codes_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_totp_recovery_codes")),
        sa.UniqueConstraint("code_hash", name=op.f("uq_totp_recovery_codes_code_hash")),
    )
    with op.batch_alter_table("totp_recovery_codes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_totp_recovery_codes_account_id"), ["account_id"], unique=False)


def downgrade():
    op.drop_table("totp_recovery_codes")  # its index goes with it (MariaDB refuses to drop it first)
    op.drop_table("account_totp")
