class _Base:
    #: The deepest walk.
    MAX_DEPTH = 10

    def walk(self, depth=3):
        """Walk the tree down to *depth* levels."""


class Walker(_Base):
    pass


def scan(path):
    """Scan one path."""
