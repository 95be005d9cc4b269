/*
 * The optional pieces a build of the C library may link in, found at link time: each is a
 * function the piece defines and the library declares weak, so a library built without the piece
 * links and loads, and sees NULL.
 */
#ifndef CCOURIER_HOOKS_H
#define CCOURIER_HOOKS_H

/* The AsyncHTTPClient transport's factory (an unmanaged Swift object), or NULL in a library built
 * without it (the default libcourier.so.1: core and curl only). */
void *ccourier_async_http_client_factory(void);

#endif
