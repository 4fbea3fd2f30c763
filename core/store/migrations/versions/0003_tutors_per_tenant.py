"""tutors per tenant: a tutor is named by (tenant_id, id), so each tenant has its own tutor ids

Revision ID: 0003
Revises: 0002

The table is made anew and renamed (the portable way to change a primary key on SQLite and
PostgreSQL alike); every row keeps its tenant and id, so existing tutors stay as they were.
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

COLUMNS = "id, tenant_id, config, created_at, updated_at"


def _tutors_table(name: str, key: list[str]) -> None:
    op.create_table(
        name,
        sa.Column("id", sa.String(length=200), nullable=False),
        sa.Column("tenant_id", sa.String(length=200), nullable=False),
        sa.Column(
            "config",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint(*key, name=f"pk_{name}"),
    )


def _replace_tutors(key: list[str]) -> None:
    staging = "tutors_" + "_".join(key)
    _tutors_table(staging, key)
    op.execute(f"INSERT INTO {staging} ({COLUMNS}) SELECT {COLUMNS} FROM tutors")
    op.drop_table("tutors")
    op.rename_table(staging, "tutors")


def upgrade() -> None:
    _replace_tutors(["tenant_id", "id"])
    op.create_index("ix_tutors_id", "tutors", ["id"])


def downgrade() -> None:
    """Back to service-wide ids; fails if two tenants have come to use one id."""
    op.drop_index("ix_tutors_id", table_name="tutors")
    _replace_tutors(["id"])
    op.create_index("ix_tutors_tenant_id", "tutors", ["tenant_id"])
