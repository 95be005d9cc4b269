// Compiles both headers as C++ (-Wall -Wextra -Werror -pedantic): extern "C", no C-only
// constructs. Not run; the Swift driver only compiles it.
#include <courier.h>

static_assert(COURIER_ABI_MAJOR >= 1, "the ABI major starts at 1");

int courier_header_compiles_as_cxx()
{
    courier_client_options options;
    courier_client_options_init(&options);
    courier_interceptor interceptor;
    courier_interceptor_init(&interceptor);
    return static_cast<int>(courier_abi_version() >> 16) + static_cast<int>(options.struct_size + interceptor.struct_size);
}
