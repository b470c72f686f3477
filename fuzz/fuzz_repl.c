/* fuzz/fuzz_repl.c: libFuzzer harness for the REPL's command language
 * (examples/dwexpr/repl.c): the input is a script of command lines, run
 * one line at a time through repl_exec, then once more as a whole through
 * repl_run_script (continuation lines, comments, expect stops). Commands
 * that open files are refused (repl_options.no_files) and each evaluation
 * is capped at 2000 operations, so `limit steps` cannot make a slow unit.
 * Invariants: every command returns one of the four statuses, the
 * session stays usable (a final `eval DW_OP_lit1` gives 1) and files stay
 * closed. */
#include <jansson.h>
#include "fuzz_common.h"
#include "repl.h"

/* One session over /dev/null-like sinks: output into a tmpfile. */
static FILE *sink(void)
{
    static FILE *f;
    if (!f) {
        f = tmpfile();
        FZ_CHECK(f != NULL, "tmpfile failed");
    }
    rewind(f);
    return f;
}

static repl *session(void)
{
    repl_options o;
    memset(&o, 0, sizeof o);
    o.out = o.err = sink();
    o.no_files = true;
    o.step_cap = 2000;
    repl *r = repl_new(&o);
    FZ_CHECK(r != NULL, "repl_new failed");
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = malloc(size + 1);
    FZ_CHECK(text != NULL, "out of memory");
    memcpy(text, data, size);
    text[size] = 0;

    repl *r = session();
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    for (; line; line = strtok_r(NULL, "\n", &save)) {
        repl_status st = repl_exec(r, line);
        FZ_CHECK(st == REPL_OK || st == REPL_FAILED || st == REPL_EXPECT_FAILED ||
                     st == REPL_QUIT, "status %d", (int)st);
    }
    /* the session survives whatever came before: the context it holds
     * is always one that loaded, so a literal still evaluates to itself */
    repl_exec(r, "unset result");
    FZ_CHECK(repl_exec(r, "eval DW_OP_lit1") == REPL_OK, "eval after the script");
    FZ_CHECK(repl_exec(r, "expect value 1") == REPL_OK, "lit1 is not 1 after the script");
    repl_free(r);

    memcpy(text, data, size);
    text[size] = 0;
    r = session();
    repl_status st = repl_run_script(r, "fuzz", text);
    FZ_CHECK(st == REPL_OK || st == REPL_FAILED || st == REPL_EXPECT_FAILED, "script %d",
             (int)st);
    /* files stay closed whatever the script did */
    FZ_CHECK(repl_exec(r, "load x") == REPL_FAILED, "no_files must refuse load");
    repl_free(r);
    free(text);
    return 0;
}
