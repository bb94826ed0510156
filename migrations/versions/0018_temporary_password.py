"""temporary password: when an administrator's temporary password stops signing in

Revision ID: 0018_temporary_password
Revises: 0015_mqtt
Create Date: 2026-11-25 09:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0018_temporary_password"
down_revision = "0015_mqtt"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("password_expires_at", sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_column("password_expires_at")
