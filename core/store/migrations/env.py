"""Alembic environment: runs on the connection handed over by core.store.db.Database.migrate."""

from alembic import context

from core.store.models import Base

config = context.config
connection = config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through core.store.db.Database.migrate()")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
