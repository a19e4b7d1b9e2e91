"""Helpers that also re-export Thing."""

from ._impl import Thing


def tool():
    """A tool."""
