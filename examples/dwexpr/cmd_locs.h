/* examples/dwexpr/cmd_locs.h: the `dwexpr locs` command (libdwarf adapter):
 * a static listing of every variable's location expressions, and with
 * --pc and a context file their evaluation at that pc. */
#ifndef DWEXPR_CLI_CMD_LOCS_H
#define DWEXPR_CLI_CMD_LOCS_H

/* Run `dwexpr locs`; ARGV holds the arguments after "locs" (ARGC of them).
 * Returns the exit status: 0 ok, 1 the binary has DWARF errors (listed),
 * 2 bad usage or unreadable input. */
int cmd_locs(int argc, char **argv);

#endif
