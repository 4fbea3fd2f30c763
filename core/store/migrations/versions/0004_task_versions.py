"""task_versions: every version of a task with its time and author (issue 24, item 3)

The versions written before this table existed are unknown; each task's current one is kept as
its first recorded version, with no author.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "task_versions",
        sa.Column("tenant_id", sa.String(length=200), nullable=False),
        sa.Column("task_id", sa.String(length=200), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=500), nullable=False),
        sa.Column(
            "definition",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("author", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tenant_id", "task_id", "version"),
    )
    op.execute(
        "INSERT INTO task_versions (tenant_id, task_id, version, title, definition, author, created_at) "
        "SELECT tenant_id, task_id, version, title, definition, '', updated_at FROM tasks"
    )


def downgrade() -> None:
    op.drop_table("task_versions")
