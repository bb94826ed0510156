"""login_failures.in_flight: password checks counted and still being compared

Revision ID: 0025_edges_login_in_flight
Revises: 0024_member_area
Create Date: 2026-11-28 23:40:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0025_edges_login_in_flight"
down_revision = "0024_member_area"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("login_failures", schema=None) as batch_op:
        batch_op.add_column(sa.Column("in_flight", sa.Integer(), server_default="0", nullable=False))


def downgrade():
    with op.batch_alter_table("login_failures", schema=None) as batch_op:
        batch_op.drop_column("in_flight")
