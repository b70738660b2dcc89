# Cython's augmenting declarations for seeding.py (issue 20 item 1, docs/speed.md round twelve):
# ignored by Python. ``stream_seeds`` hashes each stream's seed in C unsigned 64-bit arithmetic.
cimport cython


@cython.locals(p0=cython.ulonglong, p1=cython.ulonglong, p2=cython.ulonglong, p3=cython.ulonglong,
               h0=cython.ulonglong, h1=cython.ulonglong, h2=cython.ulonglong, h3=cython.ulonglong,
               b0=cython.ulonglong, b1=cython.ulonglong, b2=cython.ulonglong, b3=cython.ulonglong,
               b4=cython.ulonglong, ml=cython.ulonglong, mr=cython.ulonglong, m32=cython.ulonglong,
               r=cython.ulonglong, v=cython.ulonglong)
cpdef list stream_seeds(object seed, object game_index, object ks)
