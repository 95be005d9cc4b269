// libcourier.so.1 with the AsyncHTTPClient transport as well: the opt-in variant of the C library
// (`scripts/build-libcourier.sh --with-async-http-client`). The same exports as the default one
// (CourierCLibrary's version script); what it adds is CourierCAPIAsyncHTTPClient's transport.
@_exported import CourierCAPI
@_exported import CourierCAPIAsyncHTTPClient
