"""foundation: reference data, accounts, tokens, machines

Revision ID: 0001_foundation
Revises:
Create Date: 2026-11-21 13:30:38.807483

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0001_foundation"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "barangays",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_barangays")),
        sa.UniqueConstraint("name", name=op.f("uq_barangays_name")),
    )
    op.create_table(
        "machine_statuses",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=50), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_machine_statuses")),
        sa.UniqueConstraint("name", name=op.f("uq_machine_statuses_name")),
    )
    op.create_table(
        "modules",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("key", sa.String(length=50), nullable=False),
        sa.Column("name", sa.String(length=50), nullable=False),
        sa.Column("path", sa.String(length=100), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_modules")),
        sa.UniqueConstraint("key", name=op.f("uq_modules_key")),
    )
    op.create_table(
        "roles",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("name", sa.String(length=50), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_roles")),
        sa.UniqueConstraint("name", name=op.f("uq_roles_name")),
    )
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=64), nullable=False),
        sa.Column("first_name", sa.String(length=100), nullable=False),
        sa.Column("last_name", sa.String(length=100), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("barangay_id", sa.Integer(), nullable=True),
        sa.Column("role_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("is_enabled", sa.Boolean(), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=True),
        sa.Column("session_epoch", sa.Integer(), nullable=False),
        sa.Column("is_sso", sa.Boolean(), nullable=False),
        sa.Column("google_subject", sa.String(length=255), nullable=True),
        sa.Column("rejection_reason", sa.String(length=500), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["barangay_id"], ["barangays.id"], name=op.f("fk_accounts_barangay_id_barangays")
        ),
        sa.ForeignKeyConstraint(["role_id"], ["roles.id"], name=op.f("fk_accounts_role_id_roles")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_accounts")),
        sa.UniqueConstraint("email", name=op.f("uq_accounts_email")),
        sa.UniqueConstraint("google_subject", name=op.f("uq_accounts_google_subject")),
        sa.UniqueConstraint("username", name=op.f("uq_accounts_username")),
    )
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_accounts_barangay_id"), ["barangay_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_accounts_role_id"), ["role_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_accounts_status"), ["status"], unique=False)

    op.create_table(
        "areas",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("barangay_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["barangay_id"], ["barangays.id"], name=op.f("fk_areas_barangay_id_barangays")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_areas")),
        sa.UniqueConstraint("name", name=op.f("uq_areas_name")),
    )
    with op.batch_alter_table("areas", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_areas_barangay_id"), ["barangay_id"], unique=False)

    op.create_table(
        "account_modules",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("module_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_account_modules_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["module_id"], ["modules.id"], name=op.f("fk_account_modules_module_id_modules")
        ),
        sa.PrimaryKeyConstraint("account_id", "module_id", name=op.f("pk_account_modules")),
    )
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
        sa.Column("last_used_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_api_tokens_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_api_tokens_token_hash")),
    )
    with op.batch_alter_table("api_tokens", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_api_tokens_account_id"), ["account_id"], unique=False)

    op.create_table(
        "machines",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("area_id", sa.Integer(), nullable=False),
        sa.Column("status_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["area_id"], ["areas.id"], name=op.f("fk_machines_area_id_areas")),
        sa.ForeignKeyConstraint(
            ["status_id"], ["machine_statuses.id"], name=op.f("fk_machines_status_id_machine_statuses")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_machines")),
    )
    with op.batch_alter_table("machines", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_machines_area_id"), ["area_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_machines_name"), ["name"], unique=False)
        batch_op.create_index(batch_op.f("ix_machines_status_id"), ["status_id"], unique=False)


def downgrade():
    # Dropping a table drops its indexes; MySQL refuses to drop an index a foreign key needs.
    for table in (
        "machines",
        "api_tokens",
        "account_modules",
        "areas",
        "accounts",
        "roles",
        "modules",
        "machine_statuses",
        "barangays",
    ):
        op.drop_table(table)
