"""tasks.graded_count: the graded answers' revision, read with the task instead of counted

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tasks") as batch:
        batch.add_column(sa.Column("graded_count", sa.Integer(), nullable=False, server_default="0"))
    op.execute(
        "UPDATE tasks SET graded_count = (SELECT count(*) FROM graded_answers g "
        "WHERE g.tenant_id = tasks.tenant_id AND g.task_id = tasks.task_id)"
    )


def downgrade() -> None:
    with op.batch_alter_table("tasks") as batch:
        batch.drop_column("graded_count")
