/* examples/dwexpr/entry.c: the dwexpr executable's main; the command line
 * itself is dwexpr_cli_main (main.c), which other programs link too. */
#include "cli_main.h"

/* The process runs the command line once; its result is the exit status. */
int main(int argc, char **argv)
{
    return dwexpr_cli_main(argc, argv);
}
