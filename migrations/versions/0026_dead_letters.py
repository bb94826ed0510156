"""MQTT: a refused message keeps its first 512 bytes; dead letters for messages no handler stored

Revision ID: 0026_dead_letters
Revises: 0025_totp_second_factor
Create Date: 2026-11-28 23:20:00

"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import mysql

revision = "0026_dead_letters"
down_revision = "0025_totp_second_factor"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("mqtt_refusals", schema=None) as batch_op:
        batch_op.add_column(sa.Column("payload", sa.LargeBinary(length=512), nullable=True))
    op.create_table(
        "mqtt_dead_letters",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("machine_id", sa.Integer(), nullable=False),
        sa.Column("suffix", sa.String(length=100), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("error", sa.String(length=300), nullable=False),
        sa.Column("payload", sa.LargeBinary().with_variant(mysql.MEDIUMBLOB(), "mysql"), nullable=False),
        sa.ForeignKeyConstraint(
            ["machine_id"],
            ["machines.id"],
            name=op.f("fk_mqtt_dead_letters_machine_id_machines"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mqtt_dead_letters")),
    )
    with op.batch_alter_table("mqtt_dead_letters", schema=None) as batch_op:
        batch_op.create_index("ix_mqtt_dead_letters_machine_id", ["machine_id", "id"], unique=False)
        batch_op.create_index("ix_mqtt_dead_letters_at", ["at"], unique=False)


def downgrade():
    op.drop_table("mqtt_dead_letters")
    with op.batch_alter_table("mqtt_refusals", schema=None) as batch_op:
        batch_op.drop_column("payload")
