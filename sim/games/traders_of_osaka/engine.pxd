# Cython's augmenting declarations for engine.py (issue 20 item 1, docs/speed.md round twelve):
# ignored by Python. ``_scan`` (the turn's legal actions) and ``_kinds`` (the payments') walk the
# cards with C-typed locals; the tables they read are tuples, the zones lists, the pieces a dict.
cimport cython


@cython.locals(seen=cython.ulong, b=cython.ulong, cost=cython.long, c=Py_ssize_t, res=dict, market=list,
               take=tuple, value=tuple, bit=tuple, reserve=tuple, takes=list, out=list, placed=cython.bint)
cpdef tuple _scan(object eng, object s, object me, object due)

@cython.locals(seen=cython.ulong, b=cython.ulong, c=Py_ssize_t, out=list)
cpdef tuple _kinds(list hand, tuple bit, tuple pay)

@cython.locals(dest=cython.long, x=cython.double, market=list, farm=list)
cpdef _draw_row(object eng, object s, object rand, list draw, list to_draw, Py_ssize_t m)
