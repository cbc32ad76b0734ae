"""One module per migration, oldest first: ``0001_baseline.py``, ``0002_....py``."""
