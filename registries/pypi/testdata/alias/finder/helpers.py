"""Helpers."""

LIMIT = 10


def helper(x=1):
    """Help with ``x``."""
