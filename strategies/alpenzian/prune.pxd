# Cython's augmenting declarations for prune.py (issue 20, docs/speed.md round eleven): ignored by
# Python; ``tools/build_compiled.py`` compiles prune.py with them. ``Bounds`` becomes an extension
# type (its figures C fields, its bounds C calls); every float here is a float in Python too.
cimport cython

from strategies.alpenzian.evaluator cimport SheetBase
from strategies.alpenzian.point cimport Point


cdef class Bounds:
    cdef public SheetBase b
    cdef public object mnext, house_joins, sheep_joins
    cdef public Point pt
    cdef public dict _tops
    cdef public double w_x, reserve, ot, ss, house0, sheep0, pair
    cdef public long up_house, up_sheep, spare_house, spare_sheep
    cdef public bint alp_up

    @cython.locals(w_ranch=double, w_alp=double, w_x=double, w_col=double, w_res=double, ss=double, rp=double,
                   ru=double, common=double, k_house=double, k_sheep=double, h=long, s=long, p=long, ph=long, ps=long)
    cdef void _setup(self, Point pt) except *
    cdef tuple _ctx(self, long cell)
    cdef long _houses_gaining(self, long cell, object arr)
    cdef long _sheep_gaining(self, long cell)
    @cython.locals(v=double)
    cpdef double house(self, long cell)
    @cython.locals(k=long, j=long, rails_in=long)
    cdef long _open(self, long cell, object arr)
    cpdef double coarse(self, long face, object squares)
    cdef double _top_house(self)
    cdef double _top_sheep(self)
    @cython.locals(best=double, v=double, c=long, near=long, most=long, m=long, more=long, b=SheetBase)
    cpdef double area(self, long face, object squares)
    @cython.locals(least=double, v=double, reserve=double)
    cdef double _least_reserve(self, object squares)
    cdef double _value(self, tuple fig)
    @cython.locals(v=double)
    cpdef double sheep(self, long cell)


@cython.locals(key=long, icon=long, c=long, bar=double, start=double, best=double, ub=double, v=double,
               skipped=bint)
cpdef double _area(Point pt, Bounds bounds, long face, long colour, double floor)


@cython.locals(floor=double, v=double, e=double, ub=double, k=long, c=long, face=long)
cpdef list scores(Point pt, Bounds bounds, object items, object extra=*)


cpdef double known(Point pt, long face, long colour)


@cython.locals(base=SheetBase)
cpdef list square_scores(Point pt, Bounds bounds, object legal)
