// One import is enough: `import CourierAPI` brings the core, the default libcurl transport, and the
// Foundation and HTTP types that declared APIs use (`Data`, `URL`, `JSONEncoder`, `HTTPFields`).
@_exported public import Courier
@_exported public import CourierCurl
@_exported public import Foundation
@_exported public import HTTPTypes
