"""commands: machine commands and their events

Revision ID: 0014_commands
Revises: 0013_tenancy
Create Date: 2026-11-25 17:24:30.214629

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0014_commands"
down_revision = "0013_tenancy"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "machine_commands",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("machine_id", sa.Integer(), nullable=False),
        sa.Column("command", sa.String(length=20), nullable=False),
        sa.Column("value", sa.String(length=10), nullable=True),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("pending_kind", sa.String(length=20), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("delivered_at", sa.DateTime(), nullable=True),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_by_name", sa.String(length=210), nullable=False),
        sa.Column("detail", sa.String(length=500), nullable=False),
        sa.Column("barangay_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["barangay_id"], ["barangays.id"], name=op.f("fk_machine_commands_barangay_id_barangays")
        ),
        sa.ForeignKeyConstraint(
            ["created_by_id"],
            ["accounts.id"],
            name=op.f("fk_machine_commands_created_by_id_accounts"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["machine_id"],
            ["machines.id"],
            name=op.f("fk_machine_commands_machine_id_machines"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_machine_commands")),
        sa.UniqueConstraint("machine_id", "pending_kind", name="uq_machine_commands_machine_id_pending_kind"),
    )
    with op.batch_alter_table("machine_commands", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_machine_commands_barangay_id"), ["barangay_id"], unique=False)
        batch_op.create_index("ix_machine_commands_machine_id_id", ["machine_id", "id"], unique=False)
        batch_op.create_index("ix_machine_commands_status_expires_at", ["status", "expires_at"], unique=False)

    op.create_table(
        "machine_command_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("command_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor_name", sa.String(length=210), nullable=False),
        sa.Column("detail", sa.String(length=500), nullable=False),
        sa.Column("barangay_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["actor_id"],
            ["accounts.id"],
            name=op.f("fk_machine_command_events_actor_id_accounts"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["barangay_id"], ["barangays.id"], name=op.f("fk_machine_command_events_barangay_id_barangays")
        ),
        sa.ForeignKeyConstraint(
            ["command_id"],
            ["machine_commands.id"],
            name=op.f("fk_machine_command_events_command_id_machine_commands"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_machine_command_events")),
    )
    with op.batch_alter_table("machine_command_events", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_machine_command_events_barangay_id"), ["barangay_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_machine_command_events_command_id"), ["command_id"], unique=False
        )


def downgrade():
    # Tables only: their indexes go with them (MySQL refuses to drop indexes foreign keys need).
    op.drop_table("machine_command_events")
    op.drop_table("machine_commands")
