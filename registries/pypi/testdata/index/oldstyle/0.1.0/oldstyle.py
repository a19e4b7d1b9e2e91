"""An old single-module distribution."""


def run(argv=None):
    """Run it."""
