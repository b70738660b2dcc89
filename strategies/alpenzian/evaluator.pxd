# Cython's augmenting declarations for evaluator.py (issue 20, docs/speed.md round eleven): ignored by
# Python. ``SheetBase`` becomes an extension type whose attributes are C fields (``derive.FIELDS``
# lists the same names; ``derive`` copies an analysis field by field). Every field holds the same
# Python object as in Python: no number changes type.

cimport cython


@cython.final  # no subclass: its cpdef methods are plain C calls from typed callers
cdef class SheetBase:
    cdef public object board, cells, t, rule, houses, sheep, flowers, alp, outline, residents, links
    cdef public object group, group_houses, xroot, xsize, express, normal, paired
    cdef public object village, village_houses, flock, flock_sheep, touch, vedges, ucomp, comp_units, comp_match
    cdef public object _empty, free, last_free, rail_in, house_next, open, want_open, arriving, _joins
    cdef public dict _ctx, _pairs, _live

    cpdef bint quiet_rail(self, long cell)
    cpdef long live_sides(self, long cell)
