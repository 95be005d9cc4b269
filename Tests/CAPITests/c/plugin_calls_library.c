/*
 * Must NOT compile with -Werror: a plugin calling a library function directly instead of
 * through courier_host_api is flagged (COURIER_NO_PROTOTYPES marks the prototypes deprecated).
 */
#include <courier_plugin.h>

const char *plugin_reaches_around_the_host(void)
{
    return courier_version();
}
