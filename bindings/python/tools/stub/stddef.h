/* Empty on purpose: cffi knows size_t. Used by tools/gen_cdef.py to preprocess courier.h. */
