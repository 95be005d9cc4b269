// One import is enough: `import CourierAPI` brings the core and the default libcurl transport.
@_exported public import Courier
@_exported public import CourierCurl
