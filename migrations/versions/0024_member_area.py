"""household_members.area: the area a household is collected in

Revision ID: 0024_member_area
Revises: 0023_point_rule_changes
Create Date: 2026-11-26 00:40:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0024_member_area"
down_revision = "0023_point_rule_changes"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("household_members", schema=None) as batch_op:
        batch_op.add_column(sa.Column("area", sa.String(length=100), server_default="", nullable=False))


def downgrade():
    with op.batch_alter_table("household_members", schema=None) as batch_op:
        batch_op.drop_column("area")
