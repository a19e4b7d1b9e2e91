"""Where pkg's API is defined."""


class Thing:
    """A thing."""

    def method(self, x: int) -> str:
        """Do the thing to x."""

    def _private(self):
        pass


def func(a, b=2):
    """Add b to a."""


def helper():
    """Not exported."""


def _hidden():
    """Private."""


class _Base:
    """A base exported under another name."""

    def run(self):
        """Run it."""


def absolute():
    """Imported with an absolute import."""
