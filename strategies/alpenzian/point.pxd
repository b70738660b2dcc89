# Cython's augmenting declarations for point.py (issue 20, docs/speed.md round twelve): ignored by
# Python. ``Point`` becomes an extension type: its state C fields, its values C calls and C doubles
# (every float here is a float in Python too; the sums are added in the same order).
cimport cython

from strategies.alpenzian.evaluator cimport SheetBase


cdef class Point:
    cdef public object plan, obs, t, mnext, best_others
    cdef public SheetBase base
    cdef public dict memo, area_memo, squares, area_lb, by_fig, colour_of, res_of
    cdef public list other_flowers, other_res
    cdef public bint fast, has_extra, colour_table, resident_table
    cdef public double pen, reserve, lead, w_ranch, w_alp, w_x, w_col, w_res, ot, ss, rp, ru, apf

    cpdef double value(self, long cell, long icon)
    cpdef double fig_value(self, tuple fig)
    cpdef double area_value(self, long face, long colour)
    @cython.locals(icon=long)
    cpdef double area_best(self, long face, long colour)
    @cython.locals(base=SheetBase, m=long)
    cdef double _rails(self, list squares, tuple icons)
    @cython.locals(best=double, reserve=double, c=long, k=Py_ssize_t)
    cpdef double count_best(self, list cells, long icon)
    @cython.locals(v=double, ranch=double, houses=long, sheep=long, paired=long, express=double, alp=long, col=long,
                   residents=long, open_ends=long, free=long, unpaired=long, spare=long)
    cpdef double combine(self, tuple fig)
    @cython.locals(got=double, lead=double, majority=double, c=long, mine=long, top=list, flowers=list)
    cpdef double colour(self, long col)
    @cython.locals(got=list, c=long)
    cpdef list best_other(self)
    cpdef double resident(self, long residents)
