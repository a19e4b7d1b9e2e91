from ._deep import chained
from ._deep import loop
