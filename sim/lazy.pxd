# Cython's augmenting declarations for lazy.py (issue 20, docs/speed.md round twelve, second pass):
# ignored by Python. ``lazy`` becomes an extension type (its ``fn`` and ``name`` C fields, ``__get__``
# its descriptor slot): a lazy field's first read is a C call instead of a Python ``__get__`` call.

cdef class lazy:
    cdef public object fn, name
