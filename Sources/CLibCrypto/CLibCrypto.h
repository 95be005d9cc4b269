/* OpenSSL's libcrypto, for the test server's Digest routes on Linux: MD5 and SHA-256 from an
 * implementation other than the client's own, without compiling a BoringSSL into every test build. */
#include <openssl/evp.h>
