"""The tournament store: one SQLite file, every SQL statement of the project."""
