"""machines search terms, chemical additives, waste containers

Revision ID: 0005_machines
Revises: 0004_admin
Create Date: 2026-11-21 13:38:58.545140

"""

import os.path

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0005_machines"
down_revision = "0004_admin"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "chemical_additives",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("machine_id", sa.Integer(), nullable=False),
        sa.Column("chemical_input", sa.String(length=100), nullable=False),
        sa.Column("stage", sa.String(length=50), nullable=False),
        sa.Column("value", sa.String(length=20), nullable=False),
        sa.Column("units", sa.String(length=20), nullable=False),
        sa.Column("area", sa.String(length=20), nullable=False),
        sa.Column("added_on", sa.Date(), nullable=False),
        sa.Column("added_at", sa.Time(), nullable=False),
        sa.Column("person_in_charge", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["machine_id"],
            ["machines.id"],
            name=op.f("fk_chemical_additives_machine_id_machines"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chemical_additives")),
    )
    with op.batch_alter_table("chemical_additives", schema=None) as batch_op:
        batch_op.create_index(
            "ix_chemical_additives_machine_date", ["machine_id", "added_on", "id"], unique=False
        )

    op.create_table(
        "machine_terms",
        sa.Column("term", sa.String(length=100), nullable=False),
        sa.Column("machine_id", sa.Integer(), nullable=False),
        sa.Column("shared", sa.SmallInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["machine_id"],
            ["machines.id"],
            name=op.f("fk_machine_terms_machine_id_machines"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("term", "machine_id", name=op.f("pk_machine_terms")),
    )
    with op.batch_alter_table("machine_terms", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_machine_terms_machine_id"), ["machine_id"], unique=False)
        batch_op.create_index("ix_machine_terms_term_shared", ["term", "shared", "machine_id"], unique=False)

    op.create_table(
        "waste_containers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("machine_id", sa.Integer(), nullable=False),
        sa.Column("container_no", sa.String(length=20), nullable=False),
        sa.Column("area", sa.String(length=20), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("start_date", sa.Date(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["machine_id"],
            ["machines.id"],
            name=op.f("fk_waste_containers_machine_id_machines"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_waste_containers")),
    )
    with op.batch_alter_table("waste_containers", schema=None) as batch_op:
        batch_op.create_index("ix_waste_containers_machine_id_id", ["machine_id", "id"], unique=False)

    # Machines written before this revision get their search terms (sibol/models/machines.py).
    bind = op.get_bind()
    terms = sa.table(
        "machine_terms",
        sa.column("term", sa.String),
        sa.column("machine_id", sa.Integer),
        sa.column("shared", sa.SmallInteger),
    )
    rows = []
    for machine_id, name in bind.execute(sa.text("SELECT id, name FROM machines")):
        words, seen = (name or "").lower().split(), []
        for term in dict.fromkeys(" ".join(words[i:])[:100] for i in range(len(words))):
            shared = max((len(os.path.commonprefix([term, t])) for t in seen), default=0)
            seen.append(term)
            rows.append({"term": term, "machine_id": machine_id, "shared": shared})
    if rows:
        op.bulk_insert(terms, rows)


def downgrade():
    op.drop_table("waste_containers")  # drops its indexes with it
    op.drop_table("machine_terms")
    op.drop_table("chemical_additives")
