/*
 * libffi for the C ABI tests, which call libcourier.so as a foreign-function caller would.
 * libffi's type descriptors are mutable C globals, which Swift 6 refuses to read from any
 * context; these accessors hand out their addresses instead.
 */
#ifndef COURIER_CFFI_H
#define COURIER_CFFI_H

#include <ffi.h>

static inline ffi_type *cffi_type_void(void) { return &ffi_type_void; }
static inline ffi_type *cffi_type_pointer(void) { return &ffi_type_pointer; }
static inline ffi_type *cffi_type_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *cffi_type_uint32(void) { return &ffi_type_uint32; }
static inline ffi_type *cffi_type_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *cffi_type_size(void) { return sizeof(size_t) == 8 ? &ffi_type_uint64 : &ffi_type_uint32; }

#endif /* COURIER_CFFI_H */
