/* Empty on purpose: cffi knows the <stdint.h> types. Used by tools/gen_cdef.py to preprocess courier.h. */
