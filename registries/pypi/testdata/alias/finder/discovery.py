"""Finders of packages and modules."""


class _Finder:
    """Base class for finders."""

    @classmethod
    def find(cls, where='.', exclude=()):
        """Return the packages found within where.

        'exclude' is a sequence of names to leave out: 'foo.*' excludes
        all subpackages of 'foo' (but not 'foo' itself).
        """


class PackageFinder(_Finder):
    """Generate a list of all packages found within a directory."""
