#include "CCourierHooks.h"

#include <stddef.h>

/* Defined by CourierCAPIAsyncHTTPClient, in the library variant that links it. Not exported
 * (the version script keeps only courier_*): resolved within the library when it is linked. */
extern void *ccourier_async_http_client_factory_definition(void) __attribute__((weak));

void *ccourier_async_http_client_factory(void)
{
    return ccourier_async_http_client_factory_definition ? ccourier_async_http_client_factory_definition() : NULL;
}
