"""Find packages."""

from finder.discovery import PackageFinder
from ._impl import Walker as _Walker, scan
from . import helpers

__all__ = ["PackageFinder", "find_packages", "walk", "scan_all", "helper", "missing", "LIMIT"]

find_packages = PackageFinder.find
walk = _Walker.walk
scan_all = scan
helper = helpers.helper
missing = PackageFinder.nothing
LIMIT = helpers.LIMIT
