"""The public face of pkg."""

from ._impl import Thing, func as func
from ._impl import _Base as Aliased
from ._impl import helper  # not in __all__: not API
from ._impl import _hidden
from ._chain import chained, loop
from ._star import *
from pkg._impl import absolute

__all__ = ["Thing", "func", "Aliased", "chained", "loop", "starred", "absolute", "missing"]
