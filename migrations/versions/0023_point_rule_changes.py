"""point_rule_changes: the point system in force from each change on

Revision ID: 0023_point_rule_changes
Revises: 0022_wide_rollups
Create Date: 2026-11-25 21:10:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0023_point_rule_changes"
down_revision = "0022_wide_rollups"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "point_rule_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("valid_from", sa.DateTime(), nullable=False),
        sa.Column("waste_g", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("barangay_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["barangay_id"], ["barangays.id"], name=op.f("fk_point_rule_changes_barangay_id_barangays")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_point_rule_changes")),
    )
    with op.batch_alter_table("point_rule_changes", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_point_rule_changes_barangay_id"), ["barangay_id"], unique=False)
        batch_op.create_index(
            "ix_point_rule_changes_barangay_valid_from", ["barangay_id", "valid_from"], unique=False
        )


def downgrade():
    op.drop_table("point_rule_changes")
