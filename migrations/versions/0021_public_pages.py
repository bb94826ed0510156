"""public pages: a barangay's slug and former slugs, a household's consent to its name shown

Revision ID: 0021_public_pages
Revises: 0015_mqtt
Create Date: 2026-11-25 21:10:00

"""
import re
import unicodedata

from alembic import op
import sqlalchemy as sa


revision = '0021_public_pages'
down_revision = '0015_mqtt'
branch_labels = None
depends_on = None


def _slug(name):
    ascii_name = unicodedata.normalize('NFKD', name).encode('ascii', 'ignore').decode('ascii')
    return re.sub(r'[^a-z0-9]+', '-', ascii_name.lower()).strip('-')[:70] or 'barangay'


def upgrade():
    # Added in place (no table copy: SQLite cannot rebuild a table other tables point to).
    op.add_column('barangays', sa.Column('slug', sa.String(length=80), nullable=True))
    op.create_index('ix_barangays_slug', 'barangays', ['slug'], unique=True)
    with op.batch_alter_table('household_members', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('public_name', sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    op.create_table(
        'barangay_former_slugs',
        sa.Column('slug', sa.String(length=80), nullable=False),
        sa.Column('barangay_id', sa.Integer(), nullable=False),
        sa.Column('replaced_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['barangay_id'], ['barangays.id'], name='fk_barangay_former_slugs_barangay_id_barangays', ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('slug', name='pk_barangay_former_slugs'),
    )
    op.create_index('ix_barangay_former_slugs_barangay_id', 'barangay_former_slugs', ['barangay_id'])
    # Every existing barangay gets its default slug (a number added on a clash).
    conn = op.get_bind()
    taken = set()
    for barangay_id, name in conn.execute(sa.text('SELECT id, name FROM barangays ORDER BY id')).all():
        base = slug = _slug(name)
        n = 2
        while slug in taken:
            slug, n = f'{base}-{n}', n + 1
        taken.add(slug)
        conn.execute(sa.text('UPDATE barangays SET slug = :slug WHERE id = :id'), {'slug': slug, 'id': barangay_id})


def downgrade():
    op.drop_table('barangay_former_slugs')  # its index goes with it (MariaDB refuses it first)
    with op.batch_alter_table('household_members', schema=None) as batch_op:
        batch_op.drop_column('public_name')
    op.drop_index('ix_barangays_slug', table_name='barangays')
    op.drop_column('barangays', 'slug')
