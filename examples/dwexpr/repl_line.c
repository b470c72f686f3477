/* examples/dwexpr/repl_line.c: the REPL's front ends. `dwexpr repl`
 * reads lines with libedit when built with it (history in
 * ~/.dwexpr_history, tab completion, Ctrl-C stops a running evaluation,
 * Ctrl-D leaves), else with plain line reading; `dwexpr run FILE` runs a
 * script of REPL commands. A line ending in a backslash continues on the
 * next one. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef DWEXPR_HAVE_LIBEDIT
#include <editline/readline.h>
#endif

#include <dwexpr.h>

#include "cmds.h"
#ifdef DWEXPR_HAVE_LIBDWARF
#include "cmd_locs.h"
#endif
#include "repl.h"

/* Set by SIGINT; the interpreter's trace hook stops the evaluation. */
static volatile sig_atomic_t got_sigint;

static void on_sigint(int sig)
{
    (void)sig;
    got_sigint = 1;
}

static const char usage_repl[] =
    "usage: dwexpr repl [--context FILE]\n"
    "       dwexpr run [--context FILE] SCRIPT\n"
    "\n"
    "repl: an interactive session (also `dwexpr` alone on a terminal); type help.\n"
    "run: execute the REPL commands of SCRIPT (\"-\" = stdin), echoing each one;\n"
    "     exit 1 at the first failed expect, 2 at a failing command (unless the\n"
    "     next command is `expect error ...`) or bad usage, else 0.\n";

/* A session with the CLI's tools plugged in; --context loaded. */
static repl *open_session(const char *context, FILE *err)
{
    repl_options o;
    memset(&o, 0, sizeof o);
    o.out = stdout;
    o.err = err;
    o.interrupt = &got_sigint;
#ifdef DWEXPR_HAVE_LIBDWARF
    o.locs = cmd_locs;
    o.var_expr = repl_elf_var;
#ifdef DWEXPR_HAVE_LIBUNWIND
    o.real = &repl_real_libunwind;
#endif
#endif
    o.frames = cmd_frames;
    repl *r = repl_new(&o);
    if (!r) {
        fputs("dwexpr: out of memory\n", stderr);
        return NULL;
    }
    if (context) {
        size_t n = strlen(context) + 6;
        char *cmd = malloc(n);
        if (!cmd) {
            repl_free(r);
            return NULL;
        }
        snprintf(cmd, n, "load %s", context);
        repl_status st = repl_exec(r, cmd);
        free(cmd);
        if (st != REPL_OK) {
            repl_free(r);
            return NULL;
        }
    }
    return r;
}

/* Parse [--context FILE] [ARG]; returns 0, 1 for --help, -1 bad usage. */
static int parse_args(int argc, char **argv, const char **context, const char **arg)
{
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
        if (strcmp(argv[i], "--context") == 0 && i + 1 < argc)
            *context = argv[++i];
        else if (strncmp(argv[i], "--context=", 10) == 0)
            *context = argv[i] + 10;
        else if (argv[i][0] == '-' && argv[i][1])
            return -1;
        else if (arg && !*arg)
            *arg = argv[i];
        else
            return -1;
    }
    return 0;
}

#ifdef DWEXPR_HAVE_LIBEDIT
static repl *completing;
static char **matches;
static size_t nmatches, capmatches, nextmatch;

static void add_match(void *arg, const char *name)
{
    (void)arg;
    if (nmatches == capmatches) {
        size_t nc = capmatches ? capmatches * 2 : 64;
        char **m = realloc(matches, nc * sizeof *m);
        if (!m)
            return;
        matches = m;
        capmatches = nc;
    }
    matches[nmatches++] = (char *)name;
}

/* readline's generator: the names repl_complete offers for TEXT. */
static char *complete_next(const char *text, int state)
{
    if (state == 0) {
        nmatches = nextmatch = 0;
        repl_complete(completing, text, add_match, NULL);
    }
    while (nextmatch < nmatches) {
        const char *m = matches[nextmatch++];
        char *d = malloc(strlen(m) + 1);
        return d ? strcpy(d, m) : NULL;
    }
    return NULL;
}

static char **complete(const char *text, int start, int end)
{
    (void)start;
    (void)end;
    rl_attempted_completion_over = 1;
    return rl_completion_matches(text, complete_next);
}

/* ~/.dwexpr_history (NULL without HOME). */
static char *history_path(void)
{
    const char *home = getenv("HOME");
    if (!home || !*home)
        return NULL;
    size_t n = strlen(home) + 20;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/.dwexpr_history", home);
    return p;
}
#endif

/* Read one line with PROMPT (terminal: libedit when built with it).
 * Returns a malloc'ed line without its newline, or NULL at the end of
 * input. *INTERRUPTED tells a Ctrl-C at the prompt. */
static char *read_line(const char *prompt, bool tty, bool *interrupted)
{
    *interrupted = false;
#ifdef DWEXPR_HAVE_LIBEDIT
    if (tty) {
        got_sigint = 0;
        char *l = readline(prompt);
        if (!l && got_sigint)
            *interrupted = true;
        return l;
    }
#endif
    if (tty) {
        fputs(prompt, stdout);
        fflush(stdout);
    }
    char *line = NULL;
    size_t cap = 0;
    errno = 0;
    got_sigint = 0;
    ssize_t n = getline(&line, &cap, stdin);
    if (n < 0) {
        free(line);
        if (got_sigint && tty) {
            clearerr(stdin);
            *interrupted = true;
        }
        return NULL;
    }
    if (n > 0 && line[n - 1] == '\n')
        line[--n] = 0;
    return line;
}

int repl_main(int argc, char **argv)
{
    const char *context = NULL;
    int a = parse_args(argc, argv, &context, NULL);
    if (a != 0) {
        fputs(usage_repl, a > 0 ? stdout : stderr);
        return a > 0 ? 0 : 2;
    }
    repl *r = open_session(context, stderr);
    if (!r)
        return 2;
    bool tty = isatty(0);
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
#ifdef DWEXPR_HAVE_LIBEDIT
    char *hist = NULL;
    if (tty) {
        completing = r;
        rl_attempted_completion_function = complete;
        rl_readline_name = "dwexpr";
        using_history();
        hist = history_path();
        if (hist)
            read_history(hist);
    }
#endif
    if (tty)
        printf("dwexpr %d.%d.%d REPL: help lists the commands, Ctrl-D leaves.\n",
               DWEXPR_VERSION_MAJOR, DWEXPR_VERSION_MINOR, DWEXPR_VERSION_PATCH);
    int rc = 0;
    for (;;) {
        bool intr;
        char *line = read_line("dwexpr> ", tty, &intr);
        if (!line && intr) {
            fputc('\n', stdout);
            continue;
        }
        if (!line)
            break;
        /* a trailing backslash continues the command on the next line */
        size_t n = strlen(line);
        while (n && line[n - 1] == '\\') {
            line[n - 1] = ' ';
            char *more = read_line("   ...> ", tty, &intr);
            if (!more)
                break;
            char *j = realloc(line, n + strlen(more) + 1);
            if (!j) {
                free(more);
                break;
            }
            line = j;
            strcpy(line + n, more);
            free(more);
            n = strlen(line);
        }
#ifdef DWEXPR_HAVE_LIBEDIT
        if (tty && line[strspn(line, " \t")]) {
            add_history(line);
            if (hist)
                write_history(hist);
        }
#endif
        repl_status st = repl_exec(r, line);
        free(line);
        if (st == REPL_QUIT)
            break;
        if (!tty && st != REPL_OK)
            rc = st == REPL_EXPECT_FAILED ? 1 : 2;
    }
    if (tty)
        fputc('\n', stdout);
#ifdef DWEXPR_HAVE_LIBEDIT
    free(hist);
    free(matches);
    matches = NULL;
    capmatches = nmatches = 0;
#endif
    sigaction(SIGINT, &old, NULL);
    repl_free(r);
    return rc;
}

int repl_run_main(int argc, char **argv)
{
    const char *context = NULL, *file = NULL;
    int a = parse_args(argc, argv, &context, &file);
    if (a != 0 || !file) {
        fputs(usage_repl, a > 0 ? stdout : stderr);
        return a > 0 ? 0 : 2;
    }
    FILE *f = strcmp(file, "-") == 0 ? stdin : fopen(file, "rb");
    if (!f) {
        fprintf(stderr, "dwexpr run: cannot open %s: %s\n", file, strerror(errno));
        return 2;
    }
    size_t cap = 4096, n = 0, k;
    char *text = malloc(cap);
    while (text && (k = fread(text + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (n + 1 == cap) {
            char *t = realloc(text, cap *= 2);
            if (!t)
                free(text);
            text = t;
        }
    }
    if (f != stdin)
        fclose(f);
    if (!text) {
        fputs("dwexpr run: out of memory\n", stderr);
        return 2;
    }
    text[n] = 0;
    /* errors are part of the transcript: they go to stdout, in order */
    repl *r = open_session(context, stdout);
    if (!r) {
        free(text);
        return 2;
    }
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    repl_status st = repl_run_script(r, file, text);
    sigaction(SIGINT, &old, NULL);
    free(text);
    repl_free(r);
    return st == REPL_OK ? 0 : st == REPL_EXPECT_FAILED ? 1 : 2;
}
