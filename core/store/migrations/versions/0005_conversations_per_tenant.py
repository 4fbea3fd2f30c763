"""conversations per tenant: a conversation is named by (tenant_id, id), its messages by both

Revision ID: 0005
Revises: 0004

Clients choose chat conversation ids, so a service-wide id let one tenant take an id another
tenant would use later (and learn that it was in use). Both tables are made anew and renamed, as
0003 does for tutors; every conversation keeps its tenant and id, every message its conversation,
place (seq), role, text and time. The messages' own row numbers are given afresh (in their old
order): nothing refers to them, and copying them would leave PostgreSQL's sequence behind.

The messages are copied before either old table is dropped, and the child table is dropped first:
on SQLite (foreign_keys=ON) dropping conversations would otherwise cascade to their messages.
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

CONVERSATION_COLUMNS = (
    "id, tenant_id, tutor_id, user_id, task_id, kind, status, state, turns, started_at, expires_at, updated_at"
)
MESSAGE_COLUMNS = "conversation_id, seq, role, content, created_at"


def _conversations_table(name: str, key: list[str]) -> None:
    op.create_table(
        name,
        sa.Column("id", sa.String(length=200), nullable=False),
        sa.Column("tenant_id", sa.String(length=200), nullable=False),
        sa.Column("tutor_id", sa.String(length=200), nullable=False),
        sa.Column("user_id", sa.String(length=200), nullable=False),
        sa.Column("task_id", sa.String(length=200), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column(
            "state",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("turns", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint(*key, name=f"pk_{name}"),
    )


def _messages_table(name: str, parent: str, key: list[str]) -> None:
    """Messages whose conversation is named by `key` ([tenant_id,] conversation_id) in `parent`."""
    tenant = [sa.Column("tenant_id", sa.String(length=200), nullable=False)] if len(key) == 2 else []
    parent_key = ["tenant_id", "id"] if len(key) == 2 else ["id"]
    op.create_table(
        name,
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        *tenant,
        sa.Column("conversation_id", sa.String(length=200), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(key, [f"{parent}.{c}" for c in parent_key], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=f"pk_{name}"),
        sa.UniqueConstraint(*key, "seq", name=f"uq_{name}_seq"),
    )


def _replace_tables(key: list[str]) -> None:
    """Both tables anew with conversations named by `key`, every row carried over."""
    suffix = "_".join(key)
    conversations, messages = f"conversations_{suffix}", f"conversation_messages_{suffix}"
    _conversations_table(conversations, key)
    op.execute(
        f"INSERT INTO {conversations} ({CONVERSATION_COLUMNS}) SELECT {CONVERSATION_COLUMNS} FROM conversations"
    )
    message_key = ["tenant_id", "conversation_id"] if len(key) == 2 else ["conversation_id"]
    _messages_table(messages, conversations, message_key)
    if len(key) == 2:  # each message takes its conversation's tenant
        op.execute(
            f"INSERT INTO {messages} (tenant_id, {MESSAGE_COLUMNS})"
            " SELECT c.tenant_id, m.conversation_id, m.seq, m.role, m.content, m.created_at"
            " FROM conversation_messages m JOIN conversations c ON c.id = m.conversation_id ORDER BY m.id"
        )
    else:
        op.execute(
            f"INSERT INTO {messages} ({MESSAGE_COLUMNS})"
            f" SELECT {MESSAGE_COLUMNS} FROM conversation_messages ORDER BY id"
        )
    op.drop_table("conversation_messages")
    op.drop_table("conversations")
    op.rename_table(conversations, "conversations")
    op.rename_table(messages, "conversation_messages")


def upgrade() -> None:
    _replace_tables(["tenant_id", "id"])


def downgrade() -> None:
    """Back to service-wide ids; fails if two tenants have come to use one conversation id."""
    _replace_tables(["id"])
    op.create_index("ix_conversations_tenant_id", "conversations", ["tenant_id"])
