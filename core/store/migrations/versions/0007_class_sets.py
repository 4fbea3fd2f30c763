"""class_sets and class_set_answers: a class's answers to one task, judged and graded together

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "class_sets",
        sa.Column("id", sa.String(length=200), nullable=False),
        sa.Column("tenant_id", sa.String(length=200), nullable=False),
        sa.Column("task_id", sa.String(length=200), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("answer_count", sa.Integer(), nullable=False),
        sa.Column("grades", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tenant_id", "task_id"], ["tasks.tenant_id", "tasks.task_id"], ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_class_sets_task", "class_sets", ["tenant_id", "task_id"])
    op.create_table(
        "class_set_answers",
        sa.Column("set_id", sa.String(length=200), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("judged_for", sa.String(length=64), nullable=True),
        sa.Column("basis", sa.String(length=16), nullable=True),
        sa.Column("verdict", sa.String(length=16), nullable=True),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("probability", sa.Float(), nullable=True),
        sa.Column("vector", sa.LargeBinary(), nullable=True),
        sa.Column("grade", sa.String(length=16), nullable=True),
        sa.Column("grade_points", sa.Float(), nullable=True),
        sa.Column("feedback", JSON, nullable=True),
        sa.Column("feedback_for", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(["set_id"], ["class_sets.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("set_id", "position"),
    )


def downgrade() -> None:
    op.drop_table("class_set_answers")
    op.drop_index("ix_class_sets_task", table_name="class_sets")
    op.drop_table("class_sets")
