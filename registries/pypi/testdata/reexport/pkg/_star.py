__all__ = ["starred"]


def starred():
    """Brought in by a star import."""


def unlisted():
    """Not in __all__."""
