class _Base:
    def walk(self, depth=3):
        """Walk the tree down to *depth* levels."""


class Walker(_Base):
    pass


def scan(path):
    """Scan one path."""
