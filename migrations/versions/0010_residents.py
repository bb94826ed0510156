"""residents: accounts linked to household members, claim codes and states, member collection
history, sign-in history, pending e-mail changes, contact number; Operators get Household

Revision ID: 0010_residents
Revises: 0008_hardening
Create Date: 2026-11-23 11:50:00

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0010_residents"
down_revision = "0008_hardening"
branch_labels = None
depends_on = None

OPERATOR, HOUSEHOLD_MODULE = 3, 4


def _account_index(*, unique: bool) -> None:
    """Rebuild household_members.account_id's index. MariaDB will not drop an index its foreign
    key uses, so the key is dropped first and added back (SQLite's batch copy does it in one)."""
    fk = "fk_household_members_account_id_accounts"
    mysql = op.get_bind().dialect.name in ("mysql", "mariadb")
    if mysql:
        op.drop_constraint(fk, "household_members", type_="foreignkey")
    with op.batch_alter_table("household_members", schema=None) as batch_op:
        batch_op.drop_index("ix_household_members_account_id")
        batch_op.create_index("ix_household_members_account_id", ["account_id"], unique=unique)
    if mysql:
        op.create_foreign_key(
            fk, "household_members", "accounts", ["account_id"], ["id"], ondelete="SET NULL"
        )


def upgrade():
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("contact_number", sa.String(length=40), nullable=True))

    # One member per account: the plain index becomes a unique one (several NULLs stay allowed).
    _account_index(unique=True)

    with op.batch_alter_table("reward_claims", schema=None) as batch_op:
        batch_op.add_column(sa.Column("code", sa.String(length=16), nullable=True))
        batch_op.add_column(
            sa.Column("state", sa.String(length=12), server_default="redeemed", nullable=False)
        )
        batch_op.add_column(sa.Column("redeemed_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("redeemed_by_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("cancelled_at", sa.DateTime(), nullable=True))
        batch_op.create_unique_constraint(batch_op.f("uq_reward_claims_code"), ["code"])
        batch_op.create_index(batch_op.f("ix_reward_claims_state"), ["state"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_reward_claims_redeemed_by_id_accounts"),
            "accounts",
            ["redeemed_by_id"],
            ["id"],
            ondelete="SET NULL",
        )

    op.create_table(
        "member_collections",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("collected_on", sa.Date(), nullable=False),
        sa.Column("waste_g", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("recorded_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["member_id"],
            ["household_members.id"],
            name=op.f("fk_member_collections_member_id_household_members"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["recorded_by_id"],
            ["accounts.id"],
            name=op.f("fk_member_collections_recorded_by_id_accounts"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_member_collections")),
    )
    with op.batch_alter_table("member_collections", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_member_collections_member_id"), ["member_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_member_collections_collected_on"), ["collected_on"], unique=False
        )

    op.create_table(
        "sign_ins",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("method", sa.String(length=20), nullable=False),
        sa.Column("user_agent", sa.String(length=255), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name=op.f("fk_sign_ins_account_id_accounts"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sign_ins")),
    )
    with op.batch_alter_table("sign_ins", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sign_ins_account_id"), ["account_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_sign_ins_at"), ["at"], unique=False)

    op.create_table(
        "email_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("new_email", sa.String(length=254), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_email_changes_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_email_changes")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_email_changes_token_hash")),
    )
    with op.batch_alter_table("email_changes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_email_changes_account_id"), ["account_id"], unique=False)

    # Operators credit waste and redeem claims inside Household (docs/roles.md).
    op.execute(
        sa.text(
            "INSERT INTO account_modules (account_id, module_id) "
            "SELECT a.id, :module FROM accounts a WHERE a.role_id = :role AND NOT EXISTS "
            "(SELECT 1 FROM account_modules m WHERE m.account_id = a.id AND m.module_id = :module)"
        ).bindparams(module=HOUSEHOLD_MODULE, role=OPERATOR)
    )


def downgrade():
    # Dropping a table drops its indexes (MariaDB refuses to drop an index a foreign key uses).
    op.drop_table("email_changes")
    op.drop_table("sign_ins")
    op.drop_table("member_collections")
    with op.batch_alter_table("reward_claims", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("fk_reward_claims_redeemed_by_id_accounts"), type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_reward_claims_state"))
        batch_op.drop_constraint(batch_op.f("uq_reward_claims_code"), type_="unique")
        batch_op.drop_column("cancelled_at")
        batch_op.drop_column("redeemed_by_id")
        batch_op.drop_column("redeemed_at")
        batch_op.drop_column("state")
        batch_op.drop_column("code")
    _account_index(unique=False)
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_column("contact_number")
