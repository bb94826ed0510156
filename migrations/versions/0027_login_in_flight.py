"""login_failures.in_flight: password checks counted and still being compared

Revision ID: 0027_login_in_flight
Revises: 0026_dead_letters
Create Date: 2026-11-28 23:40:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0027_login_in_flight"
down_revision = "0026_dead_letters"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("login_failures", schema=None) as batch_op:
        batch_op.add_column(sa.Column("in_flight", sa.Integer(), server_default="0", nullable=False))


def downgrade():
    with op.batch_alter_table("login_failures", schema=None) as batch_op:
        batch_op.drop_column("in_flight")
