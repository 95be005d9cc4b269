// One import is enough: `import CourierAPI` brings the core, the platform's default transport
// (libcurl on Linux, URLSession on Apple platforms, where iOS ships no libcurl), and the
// Foundation and HTTP types that declared APIs use (`Data`, `URL`, `JSONEncoder`, `HTTPFields`).
@_exported public import Courier
@_exported public import Foundation
@_exported public import HTTPTypes

#if canImport(Darwin)
@_exported public import CourierURLSession
#else
@_exported public import CourierCurl
#endif
