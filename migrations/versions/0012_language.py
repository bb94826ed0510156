"""language: an account's chosen language

Revision ID: 0012_language
Revises: 0011_telemetry
Create Date: 2026-11-23 09:10:00

"""

from alembic import op
import sqlalchemy as sa


revision = "0012_language"
down_revision = "0011_telemetry"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("language", sa.String(length=8), nullable=True))


def downgrade():
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_column("language")
