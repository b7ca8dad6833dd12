"""Numbered SQL migrations, applied in order at start-up (see README.md here)."""
