"""mqtt: each device's broker credential and its refused messages

Revision ID: 0015_mqtt
Revises: 0014_commands
Create Date: 2026-11-24 09:00:00

"""

import sqlalchemy as sa
from alembic import op

revision = "0015_mqtt"
down_revision = "0014_commands"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "mqtt_devices",
        sa.Column("machine_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("password_hash", sa.String(length=100), nullable=True),
        sa.Column("salt", sa.String(length=40), nullable=True),
        sa.Column("iterations", sa.Integer(), nullable=True),
        sa.Column("refused_count", sa.Integer(), nullable=False),
        sa.Column("last_refused_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["machine_id"],
            ["machines.id"],
            name=op.f("fk_mqtt_devices_machine_id_machines"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("machine_id", name=op.f("pk_mqtt_devices")),
    )
    op.create_table(
        "mqtt_refusals",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("machine_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("reason", sa.String(length=300), nullable=False),
        sa.ForeignKeyConstraint(
            ["machine_id"],
            ["machines.id"],
            name=op.f("fk_mqtt_refusals_machine_id_machines"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mqtt_refusals")),
    )
    with op.batch_alter_table("mqtt_refusals", schema=None) as batch_op:
        batch_op.create_index("ix_mqtt_refusals_machine_id", ["machine_id", "id"], unique=False)


def downgrade():
    # The table goes with its index: on MariaDB the index alone cannot go while the foreign key
    # on machine_id leans on it.
    op.drop_table("mqtt_refusals")
    op.drop_table("mqtt_devices")
