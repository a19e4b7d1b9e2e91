# Colours, included by canvas.pyx.

cdef class Palette:
    """A set of colours."""
    def pick(self, int index):
        """The colour at index."""
        return None

include "loop.pxi"
