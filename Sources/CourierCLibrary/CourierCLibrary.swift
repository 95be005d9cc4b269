/// The module behind `libCourierC.so`, installed as `libcourier.so.1`: C's `include/courier.h`,
/// implemented in `CourierCAPI`. It exists so that the library's linker flags (its SONAME and
/// the version script that exports only `courier_*`) apply to the shared library alone.
@_exported import CourierCAPI
