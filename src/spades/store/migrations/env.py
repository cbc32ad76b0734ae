"""Alembic's environment: migrate the connection that spades.store.migrate opened and locked."""

from alembic import context

from spades.store.migrate import run_environment

run_environment(context)
