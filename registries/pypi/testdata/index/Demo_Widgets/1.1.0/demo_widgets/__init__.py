"""Widgets for docidx tests.

Make them with :func:`make_widget`.
"""

from .core import Widget

__all__ = ["make_widget", "Widget", "Gadget", "old_widget", "DEFAULT_SIZE"]

#: The size of a widget made without one.
DEFAULT_SIZE = 1

NOT_LISTED = 2


def make_widget(size: int = 1, *, color: str | None = None) -> "Widget":
    """Make a widget of the given ``size``.

    The color is optional.

    Args:
        size (int): How big, in ``units``.
        color: The paint, or None for bare metal.
    """
    return Widget(size)


def old_widget(size):
    """Make a widget the old way.

    .. deprecated:: 1.1
        Use :func:`make_widget`.
    """
    return make_widget(size)


def not_exported():
    """Public by name but not in __all__."""


class Gadget:
    """A gadget."""

    #: The most turns one spin makes.
    MAX_SPIN = 10

    name: str
    """What the gadget is called."""

    def __init__(self, name: str) -> None:
        """Name it."""
        self.name = name

    async def spin(self, times: int = 1) -> None:
        """Spin the gadget."""

    @property
    def label(self) -> str:
        """The label."""
        return self.name

    def _secret(self):
        pass
