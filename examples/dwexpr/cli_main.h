/* examples/dwexpr/cli_main.h: the dwexpr command line as a function, so
 * that other programs can run it in-process: the executable's main
 * (entry.c), the fuzz harness fuzz/fuzz_context.c and the case suite's
 * batch driver test/case_batch.c. */
#ifndef DWEXPR_CLI_MAIN_H
#define DWEXPR_CLI_MAIN_H

/* Run `dwexpr ARGV[1] ...` (ARGV[0] is the program name) on the process's
 * stdin / stdout / stderr; returns the exit status (0 ok, 1 error, 2 bad
 * usage or input). Keeps no state between calls that changes a later
 * call's behaviour (test/case_batch.c lists the static variables). */
int dwexpr_cli_main(int argc, char **argv);

#endif
