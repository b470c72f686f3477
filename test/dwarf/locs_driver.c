/* test/dwarf/locs_driver.c: a stand-in for `dwexpr locs` until the CLI's
 * main.c dispatches it: runs cmd_locs on the arguments. */
#include "cmd_locs.h"

/* dwexpr-locs ARGS...: the same as dwexpr locs ARGS... */
int main(int argc, char **argv)
{
    return cmd_locs(argc - 1, argv + 1);
}
