import Testing

/// The suites that run the built `courier` executable, one process at a time so they add little
/// load beside the rest of the test suite.
@Suite("courier executable", .serialized)
enum CourierExecutableTests {}
