# Cython's augmenting declarations for counts.py (issue 20, docs/speed.md round eleven): ignored by
# Python. ``_tally`` counts a sheet in a C loop (the cells and terrain are small ints).
cimport cython


@cython.locals(i=Py_ssize_t, v=long, c=long, houses=long, outline=long, house=long, solid=long, outlined=long)
cpdef tuple _tally(tuple cells, tuple terrain)
