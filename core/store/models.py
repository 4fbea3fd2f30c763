"""Tables of the store (SQLAlchemy 2 declarative). The schema itself is owned by Alembic migrations.

Times are UTC. JSON columns hold wire-shaped documents (task definitions, answers, feedback) so
that what was computed is kept exactly as it was answered.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

Json = JSON().with_variant(JSONB(), "postgresql")
ID = String(200)


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every database (SQLite itself stores no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        return value.astimezone(UTC) if value is not None and value.tzinfo else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: Json, list[Any]: Json, datetime: UTCDateTime()}  # noqa: RUF012


class Tenant(Base):
    __tablename__ = "tenants"
    id: Mapped[str] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Principal(Base):
    __tablename__ = "principals"
    id: Mapped[str] = mapped_column(ID, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    default_tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Grant(Base):
    """A principal's permissions on one tenant."""

    __tablename__ = "grants"
    principal_id: Mapped[str] = mapped_column(
        ForeignKey("principals.id", ondelete="CASCADE"), primary_key=True
    )
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True)
    can_access: Mapped[bool] = mapped_column(Boolean, default=True)
    can_write: Mapped[bool] = mapped_column(Boolean, default=False)
    can_delete: Mapped[bool] = mapped_column(Boolean, default=False)


class ApiToken(Base):
    __tablename__ = "api_tokens"
    id: Mapped[str] = mapped_column(ID, primary_key=True)
    principal_id: Mapped[str] = mapped_column(ForeignKey("principals.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class WebhookToken(Base):
    __tablename__ = "webhook_tokens"
    id: Mapped[str] = mapped_column(ID, primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class WebhookEvent(Base):
    __tablename__ = "webhook_events"
    id: Mapped[str] = mapped_column(ID, primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"), index=True)
    event: Mapped[str] = mapped_column(String(200))
    payload: Mapped[dict[str, Any]]
    received_at: Mapped[datetime] = mapped_column(default=utcnow)


class Task(Base):
    __tablename__ = "tasks"
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True)
    task_id: Mapped[str] = mapped_column(ID, primary_key=True)
    type: Mapped[str] = mapped_column(String(40))
    title: Mapped[str] = mapped_column(String(500))
    language: Mapped[str] = mapped_column(String(8))
    definition: Mapped[dict[str, Any]]
    content_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer, default=1)
    graded_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How many graded answers the task has; they are only ever added, so it is also their revision."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class TaskVersion(Base):
    """Every version a task has had, written with the task by the one task-write path
    (core.store.tasks.write_task), so that an author can compare and restore them."""

    __tablename__ = "task_versions"
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True)
    task_id: Mapped[str] = mapped_column(ID, primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(String(500))
    definition: Mapped[dict[str, Any]]
    author: Mapped[str] = mapped_column(String(200))
    """The name of the token (principal) that wrote it; "" where it is not known."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Interaction(Base):
    __tablename__ = "interactions"
    __table_args__ = (Index("ix_interactions_task", "tenant_id", "task_id", "created_at"),)
    id: Mapped[str] = mapped_column(ID, primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    task_id: Mapped[str] = mapped_column(ID)
    task_version: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[str] = mapped_column(ID)
    principal_id: Mapped[str] = mapped_column(ID)
    answer: Mapped[dict[str, Any]]
    feedback: Mapped[dict[str, Any]]
    learner_meta: Mapped[dict[str, Any] | None]
    verdict: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class EndUserRating(Base):
    __tablename__ = "end_user_ratings"
    interaction_id: Mapped[str] = mapped_column(
        ForeignKey("interactions.id", ondelete="CASCADE"), primary_key=True
    )
    type: Mapped[str] = mapped_column(String(8))
    subtype: Mapped[str | None] = mapped_column(String(40))
    message: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class VerdictOverride(Base):
    """A teacher's verdict on an interaction in place of the engine's, who gave it and when; the
    interaction's own verdict and feedback stay as they were computed."""

    __tablename__ = "verdict_overrides"
    interaction_id: Mapped[str] = mapped_column(
        ForeignKey("interactions.id", ondelete="CASCADE"), primary_key=True
    )
    verdict: Mapped[str] = mapped_column(String(16))
    note: Mapped[str | None] = mapped_column(Text)
    author: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class GradedAnswer(Base):
    __tablename__ = "graded_answers"
    __table_args__ = (Index("ix_graded_answers_task", "tenant_id", "task_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    task_id: Mapped[str] = mapped_column(ID)
    answer: Mapped[dict[str, Any]]
    correctness: Mapped[str] = mapped_column(String(16))
    points: Mapped[float | None] = mapped_column(Float)
    feedback: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TestAnswer(Base):
    """An author's test answer with the feedback it must get (the retest workflow)."""

    __tablename__ = "test_answers"
    __table_args__ = (Index("ix_test_answers_task", "tenant_id", "task_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"))
    task_id: Mapped[str] = mapped_column(ID)
    label: Mapped[str] = mapped_column(String(200))
    answer: Mapped[dict[str, Any]]
    expected: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Tutor(Base):
    """A tutor configuration; its id is the tenant's own (two tenants may both have a "tutor-1")."""

    __tablename__ = "tutors"
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True)
    id: Mapped[str] = mapped_column(ID, primary_key=True, index=True)
    config: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class Conversation(Base):
    """A chat or simulation session; its id is the tenant's own (clients choose chat conversation
    ids, so two tenants may both hold a "conv-1", each unseen by the other)."""

    __tablename__ = "conversations"
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"), primary_key=True)
    id: Mapped[str] = mapped_column(ID, primary_key=True)
    tutor_id: Mapped[str] = mapped_column(ID)
    user_id: Mapped[str] = mapped_column(ID)
    task_id: Mapped[str | None] = mapped_column(ID)
    kind: Mapped[str] = mapped_column(String(16), default="chat")
    status: Mapped[str] = mapped_column(String(16), default="active")
    state: Mapped[dict[str, Any]]
    turns: Mapped[int] = mapped_column(Integer, default=0)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime | None]
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class ConversationMessage(Base):
    __tablename__ = "conversation_messages"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tenant_id", "conversation_id"],
            ["conversations.tenant_id", "conversations.id"],
            ondelete="CASCADE",
        ),
        UniqueConstraint("tenant_id", "conversation_id", "seq"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(ID)
    conversation_id: Mapped[str] = mapped_column(ID)
    seq: Mapped[int] = mapped_column(Integer)
    role: Mapped[str] = mapped_column(String(16))
    content: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Trace(Base):
    __tablename__ = "traces"
    id: Mapped[str] = mapped_column(ID, primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id", ondelete="CASCADE"), index=True)
    conversation_id: Mapped[str | None] = mapped_column(ID, index=True)
    tutor_id: Mapped[str] = mapped_column(ID)
    engine: Mapped[str] = mapped_column(String(40))
    request: Mapped[dict[str, Any]]
    reply: Mapped[dict[str, Any]]
    debug: Mapped[list[Any]]
    timings: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TraceRating(Base):
    __tablename__ = "trace_ratings"
    trace_id: Mapped[str] = mapped_column(ForeignKey("traces.id", ondelete="CASCADE"), primary_key=True)
    score: Mapped[int] = mapped_column(Integer)
    comment: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class ClassSet(Base):
    """A class's answers to one task (core.store.class_sets); goes with its task."""

    __tablename__ = "class_sets"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tenant_id", "task_id"], ["tasks.tenant_id", "tasks.task_id"], ondelete="CASCADE"
        ),
        Index("ix_class_sets_task", "tenant_id", "task_id"),
    )
    id: Mapped[str] = mapped_column(ID, primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ID)
    task_id: Mapped[str] = mapped_column(ID)
    name: Mapped[str] = mapped_column(String(200))
    answer_count: Mapped[int] = mapped_column(Integer, default=0)
    grades: Mapped[int] = mapped_column(Integer, default=0)
    """Counts every grade given or taken back: the revision a write of judged verdicts checks."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class ClassSetAnswer(Base):
    """One answer of a class set: what its judgement keeps (core.engine.freeform.class_set.Unmoved),
    for the task content it was judged against, the teacher's grade, and the feedback last written
    for it with the key of what it was written for."""

    __tablename__ = "class_set_answers"
    set_id: Mapped[str] = mapped_column(ForeignKey("class_sets.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    judged_for: Mapped[str | None] = mapped_column(String(64))
    """The task's content hash the judgement below is for; None: not judged yet."""
    basis: Mapped[str | None] = mapped_column(String(16))
    verdict: Mapped[str | None] = mapped_column(String(16))
    score: Mapped[float | None] = mapped_column(Float)
    probability: Mapped[float | None] = mapped_column(Float)
    vector: Mapped[bytes | None] = mapped_column(LargeBinary)
    grade: Mapped[str | None] = mapped_column(String(16))
    grade_points: Mapped[float | None] = mapped_column(Float)
    feedback: Mapped[list[Any] | None]
    feedback_for: Mapped[str | None] = mapped_column(String(200))
