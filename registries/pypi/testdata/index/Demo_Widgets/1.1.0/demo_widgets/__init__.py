"""Widgets for docidx tests.

Make them with :func:`make_widget`.
"""

from .core import Widget

__all__ = ["make_widget", "Widget", "Gadget", "old_widget"]


def make_widget(size: int = 1, *, color: str | None = None) -> "Widget":
    """Make a widget of the given ``size``.

    The color is optional.
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
