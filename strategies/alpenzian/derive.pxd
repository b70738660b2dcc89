# Cython's augmenting declarations for derive.py (issue 20, docs/speed.md round eleven): ignored by
# Python. ``single_change`` compares two sheets in a C loop.
cimport cython

from strategies.alpenzian.evaluator cimport SheetBase


@cython.locals(i=Py_ssize_t, x=Py_ssize_t)
cpdef Py_ssize_t single_change(object old, object new) except? -2


cpdef _fields(SheetBase new, SheetBase base)
