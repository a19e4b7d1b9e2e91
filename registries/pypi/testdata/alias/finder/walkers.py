"""Walkers built on the private ones."""

from ._impl import _Base, Walker


class DeepWalker(_Base):
    """Walk everything."""


class FastWalker(Walker):
    """Walk fast."""

    def walk(self):
        """Walk the top level only."""
