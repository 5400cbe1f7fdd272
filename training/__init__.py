"""Training scripts (not needed at scan time)."""
