"""The store's Alembic migrations: ``env.py``, the revision template and ``versions/``.

They run through :mod:`spades.store.migrate` (``spades db upgrade``, ``spades serve``);
docs/migrations.md says how to add one.
"""
