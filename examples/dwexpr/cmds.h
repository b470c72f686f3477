/* examples/dwexpr/cmds.h: CLI commands that live in their own files and
 * are dispatched from main.c: `dwexpr frames` (cmd_frames.c) and
 * `dwexpr cfi` (cmd_cfi.c). Each takes the arguments after its name and
 * returns the process exit status (0 ok, 1 failure, 2 bad usage). */
#ifndef DWEXPR_CLI_CMDS_H
#define DWEXPR_CLI_CMDS_H

/* dwexpr frames --core CORE [--json] BINARY | --pid PID [--json] */
int cmd_frames(int argc, char **argv);
/* dwexpr cfi BINARY [--pc ADDR] [--json] */
int cmd_cfi(int argc, char **argv);

#endif
