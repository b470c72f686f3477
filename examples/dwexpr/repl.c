/* examples/dwexpr/repl.c: the REPL's command interpreter (repl.h): the
 * session, its context document, the command table and the line and
 * script runners. The session's simulated target is a JSON document in
 * the contract's "Context file" format: every command that changes
 * registers, memory or settings edits the document and reloads it through
 * context.c, so what `save` writes is exactly what `dwexpr eval
 * --context` reads. The commands live in repl_target.c (target),
 * repl_eval.c (expressions, stepping), repl_expect.c and repl_image.c. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "output.h"
#include "picture.h"
#include "repl_fmt.h"
#include "repl_int.h"

/* ---- small helpers ---- */

char *rp_xstrdup(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (!d) {
        fputs("dwexpr: out of memory\n", stderr);
        exit(2);
    }
    return strcpy(d, s);
}

void rp_set_last(repl *r, last_kind k, const char *text, const char *cls, int64_t offset)
{
    free(r->last_text);
    r->last = k;
    r->last_text = rp_xstrdup(text ? text : "");
    snprintf(r->last_class, sizeof r->last_class, "%s", cls ? cls : "");
    r->last_offset = offset;
}

/* A command error: one line "error: ..." and the last result becomes a
 * usage error. Returns REPL_FAILED. */
repl_status rp_fail(repl *r, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fflush(r->o.out);
    fprintf(r->o.err, "error: %s\n", msg);
    fflush(r->o.err);
    rp_set_last(r, LAST_ERROR, msg, "usage", -1);
    return REPL_FAILED;
}

/* Split S into whitespace-separated words (at most MAX); the words point
 * into BUF (a copy of S). Returns the count. */
int rp_split_words(const char *s, char *buf, size_t cap, char **w, int max)
{
    int n = 0;
    snprintf(buf, cap, "%s", s);
    char *p = buf;
    while (*p && n < max) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        w[n++] = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (*p)
            *p++ = 0;
    }
    return n;
}

/* The text after the first N words of S (leading blanks skipped). */
const char *rp_after_words(const char *s, int n)
{
    while (n-- > 0) {
        while (isspace((unsigned char)*s))
            s++;
        while (*s && !isspace((unsigned char)*s))
            s++;
    }
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

int rp_parse_num(const char *s, uint64_t *out)
{
    return cli_parse_u64(s, out);
}

/* Forget the last result and the stack (they point into what changes). */
void rp_invalidate(repl *r)
{
    r->obj_bits = 0;
    r->res_real = false;
    r->have_result = false;
    r->have_stack = false;
}

void rp_end_session(repl *r, const char *why)
{
    if (r->session && why)
        fprintf(r->o.out, "(stepping ended: %s)\n", why);
    r->session = false;
}

/* ---- the context document ---- */

/* Load DOC into the session (on success the session owns DOC; on failure
 * DOC is released and the old context stays). */
repl_status rp_reload(repl *r, json_t *doc)
{
    char *text = json_dumps(doc, JSON_COMPACT);
    cli_ctx c;
    if (!text) {
        json_decref(doc);
        return rp_fail(r, "out of memory");
    }
    int bad = cli_ctx_load(&c, text, NULL);
    free(text);
    if (bad) {
        char msg[sizeof c.err];
        snprintf(msg, sizeof msg, "%s", c.err);
        cli_ctx_free(&c);
        json_decref(doc);
        return rp_fail(r, "%s", msg);
    }
    if (r->session)
        rp_end_session(r, "the context changed");
    rp_invalidate(r);
    /* the evaluation context follows the limits of the new context */
    dwexpr_ctx_free(r->ctx);
    r->ctx = NULL;
    cli_ctx_free(&r->c);
    r->c = c;
    json_decref(r->doc);
    r->doc = doc;
    return REPL_OK;
}

/* A copy of the document to edit, then rp_reload(). */
json_t *rp_edit(repl *r)
{
    return json_deep_copy(r->doc);
}

/* The registers object of frame 0 inside DOC (created when missing). */
json_t *rp_doc_regs(json_t *doc)
{
    json_t *frames = json_object_get(doc, "frames");
    json_t *holder = doc;
    if (json_is_array(frames) && json_array_size(frames) > 0)
        holder = json_array_get(frames, 0);
    json_t *regs = json_object_get(holder, "registers");
    if (!json_is_object(regs)) {
        regs = json_object();
        json_object_set_new(holder, "registers", regs);
    }
    return regs;
}

/* Strip // comments outside strings (context files may have them). */
void rp_strip_comments(char *s)
{
    bool in_str = false;
    for (char *p = s; *p; p++) {
        if (in_str) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == '"')
                in_str = false;
        } else if (*p == '"') {
            in_str = true;
        } else if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                *p++ = ' ';
            if (!*p)
                break;
        }
    }
}

/* ---- the command table ---- */

typedef struct command {
    const char *name, *args, *doc, *example;
} command;

static const command commands[] = {
    {"help", "[COMMAND]", "list the commands, or explain one", "help reg"},
    {"arch", "[NAME]", "show or set the architecture (register names, sizes)", "arch amdgpu-wave64"},
    {"lane", "[N]", "show or set the current lane", "lane 3"},
    {"reg", "[R [lane N] [VALUE]]", "show registers, or set one (by name or number, a lane of a "
                                    "vector register; VALUE a number or hex:BYTES)",
     "reg VGPR0 lane 3 0x40"},
    {"regnames", "[PREFIX]", "list the register names of the architecture", "regnames SGPR1"},
    {"mem", "[aspace=A lane=N thread=T len=N] [ADDR [HEX]]",
     "list memory, show bytes at ADDR, or set bytes (per address space, per lane)",
     "mem aspace=5 lane=3 0x40 2a000000"},
    {"clear", "reg [R] | mem [ADDR] | breaks", "remove registers, memory blocks or breakpoints",
     "clear reg rbp"},
    {"set", "KEY VALUE", "set any context file field (JSON value, else a string)",
     "set pc 0x401000"},
    {"unset", "KEY", "remove a context file field", "unset pc"},
    {"limit", "steps|stack|calls|parts N", "set a resource limit", "limit steps 100000000"},
    {"context", "", "print the context (the contract's context file)", "context"},
    {"load", "FILE", "load a context file", "load ctx.json"},
    {"save", "FILE", "save the context as a context file", "save ctx.json"},
    {"eval", "EXPR | -x HEX", "evaluate an expression (a line starting with an operation "
                              "name is evaluated too)", "eval DW_OP_breg6 -8 DW_OP_deref"},
    {"asm", "EXPR", "assemble: print the bytes", "asm DW_OP_lit1 DW_OP_lit2 DW_OP_plus"},
    {"disasm", "[HEX]", "disassemble the current expression (* breakpoint, => stop) or bytes",
     "disasm 76 78 06"},
    {"trace", "on|off", "print every operation with the stack it leaves", "trace on"},
    {"start", "[EXPR | -x HEX]", "start stepping: stop before the first operation",
     "start DW_OP_lit1 DW_OP_lit2 DW_OP_plus"},
    {"step", "[N]", "run N operations (into calls and entry values)", "step 2"},
    {"next", "", "run one operation, over nested evaluations", "next"},
    {"continue", "", "run to the next breakpoint or the end", "continue"},
    {"break", "[OFFSET]", "list breakpoints, or stop before the operation at OFFSET", "break 0x3"},
    {"delete", "OFFSET|all", "remove a breakpoint", "delete 0x3"},
    {"stack", "", "show the stack (top first) where stepping stopped or an error happened",
     "stack"},
    {"result", "", "show the last result again", "result"},
    {"read", "BITS", "read object bits through the last location", "read 32"},
    {"write", "HEX", "write bytes through the last location (changes the context)",
     "write 2a000000"},
    {"picture", "[--svg FILE] [BITS]", "draw where each bit of the last location comes from",
     "picture --svg loc.svg"},
    {"expect", "value N [TYPE] | location L | error CLASS [at OFF] | read HEX | stack N | at OFF "
               "| top ENTRY",
     "check the last result (scripts stop when it does not match)", "expect value 0x3"},
    {"echo", "TEXT", "print TEXT", "echo hello"},
    {"var", "BINARY NAME [PC] | NAME", "take a variable's location (list entry at PC) from a "
                                       "binary as the expression and evaluate it in this context; "
                                       "after core/attach: NAME in the selected frame",
     "var a.out x 0x401136"},
    {"core", "CORE BINARY", "open a core file: its frames, then var NAME evaluates there",
     "core core.1234 a.out"},
    {"attach", "PID BINARY", "attach to a stopped process (ptrace) like core", "attach 1234 a.out"},
    {"frame", "[N]", "show or select the frame of the process image", "frame 1"},
    {"elf", "BINARY [locs options]", "list a binary's units, functions, variables and locations (libdwarf); "
                                     "with --pc, evaluate them there in this context",
     "elf a.out --pc 0x401136"},
    {"frames", "--core CORE BINARY | --pid PID", "the call stack of a core or process",
     "frames --core core a.out"},
    {"quit", "", "leave (also exit, or Ctrl-D)", "quit"},
};

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    if (strcmp(name, "exit") == 0)
        return find_command("quit");
    return NULL;
}

repl_status rp_cmd_help(repl *r, int argc, char **argv)
{
    if (argc > 1) {
        const command *c = find_command(argv[1]);
        if (!c)
            return rp_fail(r, "help: no command \"%s\"", argv[1]);
        fprintf(r->o.out, "%s %s\n  %s\n  example: %s\n", c->name, c->args, c->doc, c->example);
        return REPL_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(r->o.out, "%-9s %s\n          e.g. %s\n", commands[i].name, commands[i].doc,
                commands[i].example);
    fputs("Lines ending in \\ continue on the next line. Tab completes commands, operations\n"
          "and register names. Ctrl-C stops an evaluation, Ctrl-D leaves.\n", r->o.out);
    return REPL_OK;
}

bool repl_takes_expression(const char *line)
{
    char word[16];
    size_t n = 0;
    while (isspace((unsigned char)*line))
        line++;
    while (line[n] && !isspace((unsigned char)line[n]) && n + 1 < sizeof word) {
        word[n] = line[n];
        n++;
    }
    word[n] = 0;
    return strcmp(word, "eval") == 0 || strcmp(word, "start") == 0 || strcmp(word, "asm") == 0 ||
           dwexpr_op_by_name(word, n) != DWEXPR_OP_COUNT;
}

void repl_complete(const repl *r, const char *prefix, void (*each)(void *arg, const char *name),
                   void *arg)
{
    size_t n = strlen(prefix);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strncmp(commands[i].name, prefix, n) == 0)
            each(arg, commands[i].name);
    for (int id = 0; id < (int)DWEXPR_OP_COUNT; id++) {
        const dwexpr_opinfo *in = dwexpr_op_info((dwexpr_opid)id);
        if (in && strncmp(in->name, prefix, n) == 0)
            each(arg, in->name);
    }
    if (n == 0)
        return;
    for (uint32_t i = 0; i < REG_NAME_SCAN; i++) {
        const char *name = dwexpr_arch_reg_name(r->c.arch, i);
        if (name && strncmp(name, prefix, n) == 0)
            each(arg, name);
    }
}

/* ---- the interpreter ---- */

repl *repl_new(const repl_options *o)
{
    repl *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->o = *o;
    if (!r->o.out)
        r->o.out = stdout;
    if (!r->o.err)
        r->o.err = stderr;
    r->doc = json_object();
    if (!r->doc || cli_ctx_load(&r->c, "{}", NULL)) {
        json_decref(r->doc);
        cli_ctx_free(&r->c);
        free(r);
        return NULL;
    }
    return r;
}

void repl_free(repl *r)
{
    if (!r)
        return;
    if (r->real)
        r->o.real->close(r->real);
    dwexpr_program_free(r->prog);
    dwexpr_ctx_free(r->ctx);
    free(r->bytes);
    free(r->text);
    free(r->last_text);
    free(r->last_read);
    cli_ctx_free(&r->c);
    json_decref(r->doc);
    free(r);
}

repl_status repl_exec(repl *r, const char *line)
{
    enum { MAXW = 64 };
    char *buf, *w[MAXW];
    size_t cap = strlen(line) + 1;
    if (r->o.interrupt)
        *r->o.interrupt = 0;
    while (isspace((unsigned char)*line))
        line++;
    if (!*line || *line == '#')
        return REPL_OK;
    buf = malloc(cap);
    if (!buf)
        return rp_fail(r, "out of memory");
    int argc = rp_split_words(line, buf, cap, w, MAXW);
    const char *cmd = w[0];
    repl_status st;
    if (dwexpr_op_by_name(cmd, strlen(cmd)) != DWEXPR_OP_COUNT && !find_command(cmd)) {
        bool ok;
        st = rp_set_expr(r, line, false, &ok);
        if (ok)
            st = rp_run(r, STOP_NEVER, 0);
        free(buf);
        return st;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "?"))
        st = rp_cmd_help(r, argc, w);
    else if (!strcmp(cmd, "arch"))
        st = rp_cmd_arch(r, argc, w);
    else if (!strcmp(cmd, "lane"))
        st = rp_cmd_lane(r, argc, w);
    else if (!strcmp(cmd, "reg"))
        st = rp_cmd_reg(r, argc, w);
    else if (!strcmp(cmd, "regnames"))
        st = rp_cmd_regnames(r, argc, w);
    else if (!strcmp(cmd, "mem"))
        st = rp_cmd_mem(r, argc, w);
    else if (!strcmp(cmd, "clear"))
        st = rp_cmd_clear(r, argc, w);
    else if (!strcmp(cmd, "set"))
        st = rp_cmd_set(r, line, argc, w);
    else if (!strcmp(cmd, "unset"))
        st = rp_cmd_unset(r, argc, w);
    else if (!strcmp(cmd, "limit"))
        st = rp_cmd_limit(r, argc, w);
    else if (!strcmp(cmd, "context"))
        st = rp_cmd_context(r, argc, w);
    else if (!strcmp(cmd, "load"))
        st = rp_cmd_load(r, argc, w);
    else if (!strcmp(cmd, "save"))
        st = rp_cmd_save(r, argc, w);
    else if (!strcmp(cmd, "eval"))
        st = rp_cmd_eval(r, line, argc, w);
    else if (!strcmp(cmd, "asm"))
        st = rp_cmd_asm(r, line);
    else if (!strcmp(cmd, "disasm"))
        st = rp_cmd_disasm(r, line, argc);
    else if (!strcmp(cmd, "trace")) {
        if (argc != 2 || (strcmp(w[1], "on") && strcmp(w[1], "off")))
            st = rp_fail(r, "trace: on or off");
        else
            r->trace = strcmp(w[1], "on") == 0, st = REPL_OK;
    } else if (!strcmp(cmd, "start"))
        st = rp_cmd_start(r, line, argc, w);
    else if (!strcmp(cmd, "step") || !strcmp(cmd, "s"))
        st = rp_cmd_step(r, argc, w, STOP_STEP);
    else if (!strcmp(cmd, "next") || !strcmp(cmd, "n"))
        st = rp_cmd_step(r, argc, w, STOP_NEXT);
    else if (!strcmp(cmd, "continue") || !strcmp(cmd, "c"))
        st = rp_cmd_step(r, argc, w, STOP_CONTINUE);
    else if (!strcmp(cmd, "break") || !strcmp(cmd, "b"))
        st = rp_cmd_break(r, argc, w, false);
    else if (!strcmp(cmd, "delete"))
        st = rp_cmd_break(r, argc, w, true);
    else if (!strcmp(cmd, "stack"))
        st = rp_cmd_stack(r, argc, w);
    else if (!strcmp(cmd, "result")) {
        if (r->have_result)
            rp_show_result(r), st = REPL_OK;
        else
            st = rp_fail(r, "result: no result (evaluate something)");
    } else if (!strcmp(cmd, "read"))
        st = rp_cmd_read(r, argc, w);
    else if (!strcmp(cmd, "write"))
        st = rp_cmd_write(r, argc, w);
    else if (!strcmp(cmd, "picture"))
        st = rp_cmd_picture(r, argc, w);
    else if (!strcmp(cmd, "expect"))
        st = rp_cmd_expect(r, line, argc, w);
    else if (!strcmp(cmd, "echo"))
        fprintf(r->o.out, "%s\n", rp_after_words(line, 1)), st = REPL_OK;
    else if (!strcmp(cmd, "core") || !strcmp(cmd, "attach"))
        st = rp_cmd_open_real(r, argc, w, cmd[0] == 'c');
    else if (!strcmp(cmd, "frame"))
        st = rp_cmd_frame(r, argc, w);
    else if (!strcmp(cmd, "var"))
        st = rp_cmd_var(r, argc, w);
    else if (!strcmp(cmd, "elf"))
        st = argc < 2 ? rp_fail(r, "elf: expected BINARY") : rp_run_tool(r, r->o.locs, "elf", argc, w, true);
    else if (!strcmp(cmd, "frames"))
        st = rp_run_tool(r, r->o.frames, "frames", argc, w, false);
    else if (!strcmp(cmd, "quit") || !strcmp(cmd, "exit"))
        st = REPL_QUIT;
    else
        st = rp_fail(r, "unknown command \"%s\" (help lists them)", cmd);
    free(buf);
    fflush(r->o.out);
    return st;
}

repl_status repl_run_script(repl *r, const char *name, const char *text)
{
    /* split into commands: lines, a trailing backslash joins the next */
    size_t n = strlen(text);
    char *copy = malloc(n + 1);
    if (!copy)
        return rp_fail(r, "out of memory");
    memcpy(copy, text, n + 1);
    typedef struct { char *text; unsigned line; } cmdline;
    /* at most one command per line: n + 1 lines in n characters */
    cmdline *cmds = calloc(n + 2, sizeof *cmds);
    size_t nc = 0;
    unsigned lineno = 1;
    char *p = copy;
    if (!cmds) {
        free(copy);
        return rp_fail(r, "out of memory");
    }
    while (*p) {
        char *start = p, *w = p;
        unsigned first = lineno;
        for (;;) {
            char *eol = strchr(p, '\n');
            size_t len = eol ? (size_t)(eol - p) : strlen(p);
            if (len && p[len - 1] == '\r')
                len--;
            bool cont = len && p[len - 1] == '\\';
            memmove(w, p, cont ? len - 1 : len);
            w += cont ? len - 1 : len;
            p = eol ? eol + 1 : p + strlen(p);
            lineno++;
            if (!cont || !*p)
                break;
            *w++ = ' ';
        }
        *w = 0;
        cmds[nc].text = start;
        cmds[nc++].line = first;
    }
    repl_status st = REPL_OK;
    for (size_t i = 0; i < nc; i++) {
        const char *t = cmds[i].text;
        while (isspace((unsigned char)*t))
            t++;
        if (!*t || *t == '#')
            continue;
        fprintf(r->o.out, "> %s\n", t);
        st = repl_exec(r, t);
        if (st == REPL_QUIT) {
            st = REPL_OK;
            break;
        }
        if (st == REPL_EXPECT_FAILED) {
            fprintf(r->o.err, "%s:%u: the expect above failed\n", name, cmds[i].line);
            break;
        }
        if (st == REPL_FAILED) {
            /* a failing command may be what the script tests */
            size_t j = i + 1;
            while (j < nc && (!cmds[j].text[strspn(cmds[j].text, " \t")] ||
                              cmds[j].text[strspn(cmds[j].text, " \t")] == '#'))
                j++;
            if (j < nc && strncmp(cmds[j].text + strspn(cmds[j].text, " \t"), "expect error", 12) == 0) {
                st = REPL_OK;
                continue;
            }
            fprintf(r->o.err, "%s:%u: stopped: the command failed\n", name, cmds[i].line);
            break;
        }
    }
    free(cmds);
    free(copy);
    fflush(r->o.out);
    return st;
}
