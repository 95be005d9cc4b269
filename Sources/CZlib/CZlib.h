// zlib for the command-line tool's --compress: Foundation on Linux has no compression API.
#include <zlib.h>
