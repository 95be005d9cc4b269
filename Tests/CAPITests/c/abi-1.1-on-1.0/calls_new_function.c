/*
 * Built against today's courier.h, run against the ABI 1.0 library by
 * scripts/check-against-abi-1.0: it calls courier_request_set_url (ABI 1.1), so the dynamic
 * loader refuses to start it ("version `COURIER_1.1' not found") instead of it failing later.
 */
#include <courier.h>
#include <stdio.h>

int main(void)
{
    courier_request *request = NULL;
    if (courier_request_new("GET", "http://127.0.0.1/", &request, NULL) != COURIER_OK) return 1;
    courier_code code = courier_request_set_url(request, "http://127.0.0.1/moved", NULL);
    courier_request_free(request);
    return code == COURIER_OK ? 0 : 1;
}
