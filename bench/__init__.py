"""Benchmarks: each script prints its figures as JSON on its last line."""
