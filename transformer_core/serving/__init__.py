"""Serving many sessions: the runs the pages show as plain data (runs.py), a bounded pool of workers
(workpool.py) and the server-wide registry of uploaded and pulled models (registry.py)."""
