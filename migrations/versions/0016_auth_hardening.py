"""auth hardening: lockout per address with a flood meter, undo offers, token-to-session link

- login_failures gains last_failure_at, trusted_until and notified_at (sibol/identity/lockout.py:
  locks per address, a per-account flood meter, the addresses an account signed in from, and
  when its owner was last told of a lock).
- undo_offers: the server's record of each Undo offer, single use and bound to the account.
- api_tokens.page_session_id: the page session the same sign-in opened, ended with the token.
- reward_claims never reuses an id on SQLite (AUTOINCREMENT): an undone claim's row is deleted,
  and the next claim must not take its id.

Revision ID: 0016_auth_hardening
Revises: 0015_mqtt
Create Date: 2026-11-25 09:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0016_auth_hardening"
down_revision = "0015_mqtt"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("login_failures", schema=None) as batch_op:
        batch_op.add_column(sa.Column("last_failure_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("trusted_until", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("notified_at", sa.DateTime(), nullable=True))

    op.create_table(
        "undo_offers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
            name=op.f("fk_undo_offers_account_id_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_undo_offers")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_undo_offers_token_hash")),
    )
    with op.batch_alter_table("undo_offers", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_undo_offers_account_id"), ["account_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_undo_offers_expires_at"), ["expires_at"], unique=False)

    with op.batch_alter_table("api_tokens", schema=None) as batch_op:
        batch_op.add_column(sa.Column("page_session_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_api_tokens_page_session_id"), ["page_session_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_api_tokens_page_session_id_page_sessions"),
            "page_sessions",
            ["page_session_id"],
            ["id"],
            ondelete="SET NULL",
        )

    if op.get_bind().dialect.name == "sqlite":
        # The table is copied into one declared AUTOINCREMENT (SQLite then never hands out an id
        # again, even the highest one after it was deleted); nothing refers to reward_claims.
        with op.batch_alter_table(
            "reward_claims", recreate="always", table_kwargs={"sqlite_autoincrement": True}
        ):
            pass


def downgrade():
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table(
            "reward_claims", recreate="always", table_kwargs={"sqlite_autoincrement": False}
        ):
            pass

    with op.batch_alter_table("api_tokens", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_api_tokens_page_session_id_page_sessions"), type_="foreignkey"
        )
        batch_op.drop_index(batch_op.f("ix_api_tokens_page_session_id"))
        batch_op.drop_column("page_session_id")

    op.drop_table("undo_offers")

    with op.batch_alter_table("login_failures", schema=None) as batch_op:
        batch_op.drop_column("notified_at")
        batch_op.drop_column("trusted_until")
        batch_op.drop_column("last_failure_at")
