include "colors.pxi"
cdef int _loop_guard = 1
