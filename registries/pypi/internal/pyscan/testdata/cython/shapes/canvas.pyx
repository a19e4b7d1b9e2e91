# cython: language_level=3
"""Shapes drawn on a canvas, in Cython."""

from libc.stdlib cimport malloc, free
cimport cython
from shapes.core import Base

DEF MAX_POINTS = 64

ctypedef struct point_t:
    double x
    double y

ctypedef double coord_t

cdef extern from "canvas.h" nogil:
    ctypedef struct canvas_t:
        int width
    int canvas_draw(canvas_t* c, double x, double y)
    def not_api(self):
        pass

IF UNAME_SYSNAME == "Windows":
    def windows_only():
        pass
ELSE:
    def posix_only():
        pass

__all__ = ["Canvas", "Shape", "draw", "scale", "ORIGIN", "Circle", "Square", "Palette", "after_includes"]

ORIGIN = (0, 0)

cdef int _counter = 0
cdef public object hidden_global

include "parts/colors.pxi"

cdef inline int _clip(int v, int lo, int hi) nogil:
    """Not API: a cdef function."""
    if v < lo:
        return lo
    return v

cdef class Shape:
    """A shape with an outline."""
    cdef point_t* _points
    cdef int npoints
    cdef public double width
    cdef readonly object name, label  # names shown in the legend

    def __cinit__(self):
        self._points = NULL

    def __init__(self, object name, double width=1.0):
        """Make a shape.

        :param name: the shape's name
        """
        self.name = name

    cdef int _grow(self, int n) except -1:
        """Not API either."""
        return 0

    cpdef double area(self, bint exact=False) except -1.0:
        """The area enclosed, in square units."""
        return 0.0

    def move(self, Shape other not None, int dx=0, *, bint relative=True):
        """Move the shape."""
        pass

    property outline:
        """The outline's colour."""
        def __get__(self):
            return self._outline
        def __set__(self, value):
            self._outline = value

    property fill:
        def __get__(self):
            """The fill colour."""
            return self._fill

    @property
    def corners(self):
        """The number of corners."""
        return self.npoints


@cython.final
cdef public class Canvas [object CanvasObject, type CanvasType]:
    """A canvas to draw on."""
    def clear(self):
        """Clear everything."""


@cython.internal
cdef class Hidden:
    """Not in the module's namespace."""
    def shown(self):
        pass


cdef class Circle(Shape):
    """A round shape."""


cpdef list draw(Shape shape, char* target=NULL, int times=1):
    """Draw shape on target."""
    return []


def scale(Shape shape not None, double factor, object anchor=None):
    """Scale shape by factor."""
    return shape

include "parts/square.pxi"
include "parts/missing.pxi"
include "canvas.pyx"

def after_includes():
    """Still scanned."""
