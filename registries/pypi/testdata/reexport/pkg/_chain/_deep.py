from .._impl import func as chained
from . import loop
