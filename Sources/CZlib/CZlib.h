// zlib for the command-line tool's --compress and the test server's /gzip: Foundation on Linux has no compression API.
#include <zlib.h>
