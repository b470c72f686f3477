/* examples/dwexpr/repl_image.c: the REPL commands on binaries and
 * process images: `var` (a variable's location from a binary, or in a
 * frame of a core / stopped process), `core`, `attach`, `frame`, and the
 * CLI's `locs` / `frames` run from the session (`elf`, `frames`). */
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

/* ---- ELF and process commands (the CLI's locs / frames) ---- */

repl_status rp_run_tool(repl *r, int (*tool)(int, char **), const char *name, int argc,
                            char **argv, bool with_ctx)
{
    if (!tool)
        return rp_fail(r, "%s: this dwexpr was built without it (libdwarf/libunwind)", name);
    if (r->o.no_files)
        return rp_fail(r, "%s: files are off in this session", name);
    char **av = calloc((size_t)argc + 3, sizeof *av);
    char *ctx = NULL;
    if (!av)
        return rp_fail(r, "out of memory");
    int n = 0;
    for (int i = 1; i < argc; i++)
        av[n++] = argv[i];
    if (with_ctx) {
        ctx = json_dumps(r->doc, JSON_COMPACT);
        av[n++] = "--context";
        av[n++] = ctx ? ctx : "{}";
    }
    fflush(r->o.out);
    int rc = tool(n, av);
    fflush(stdout);
    free(ctx);
    free(av);
    if (rc == 2)
        return rp_fail(r, "%s failed (see above)", name);
    return REPL_OK;
}

static repl_status real_var(repl *r, const char *name);

/* var BINARY NAME [PC]: the variable's location expression at PC becomes
 * the current expression (its unit's address size and encoding), its
 * function's frame base goes into the context, and it is evaluated for a
 * location; step, picture, read work on it as on any expression. */
repl_status rp_cmd_var(repl *r, int argc, char **argv)
{
    uint64_t pc;
    repl_var v;
    char err[300];
    if (argc == 2 && r->real)
        return real_var(r, argv[1]);
    if (!r->o.var_expr)
        return rp_fail(r, "var: this dwexpr was built without libdwarf");
    if (r->o.no_files)
        return rp_fail(r, "var: files are off in this session");
    if (argc < 3 || argc > 4 || (argc == 4 && (rp_parse_num(argv[3], &pc) || argv[3][0] == '-')))
        return rp_fail(r, "var: expected BINARY NAME [PC]");
    if (r->o.var_expr(argv[1], argv[2], argc == 4 ? &pc : NULL, &v, err, sizeof err)) {
        free(v.expr);
        free(v.frame_base);
        return rp_fail(r, "var: %s", err);
    }
    json_t *doc = rp_edit(r);
    bool changed = false;
    if (!json_object_get(doc, "arch") && dwexpr_arch_find(v.arch)) {
        json_object_set_new(doc, "arch", json_string(v.arch));
        changed = true;
    }
    if (v.frame_base) {
        char *h = out_hex(v.frame_base, v.fb_len);
        json_object_set_new(doc, "frame_base", json_pack("{s:s}", "hex", h));
        free(h);
        changed = true;
    }
    if (argc == 4) {
        char s[24];
        snprintf(s, sizeof s, "0x%" PRIx64, pc);
        json_object_set_new(doc, "pc", json_string(s));
        changed = true;
    }
    free(v.frame_base);
    if (changed ? rp_reload(r, doc) != REPL_OK : (json_decref(doc), false)) {
        free(v.expr);
        return REPL_FAILED;
    }
    char *hex = out_hex(v.expr, v.len);
    free(v.expr);
    fprintf(r->o.out, "%s\n", v.what);
    bool ok;
    repl_status st = rp_set_expr_unit(r, hex, true, &v.unit, &ok);
    free(hex);
    if (!ok)
        return st;
    for (size_t i = 0; i < dwexpr_program_count(r->prog); i++) {
        char text[256];
        dwexpr_op view;
        const dwexpr_op *op = dwexpr_program_op(r->prog, i, &view);
        dwexpr_op_format(op, r->c.arch, text, sizeof text);
        fprintf(r->o.out, "  0x%04x: %s\n", (unsigned)op->offset, text);
    }
    /* a variable's DW_AT_location asks for a location (seed "DWARF
     * Location Description") */
    dwexpr_result_kind kind = r->c.params.result_kind;
    r->c.params.result_kind = DWEXPR_RESULT_LOCATION;
    st = rp_run(r, STOP_NEVER, 0);
    r->c.params.result_kind = kind;
    if (r->have_result)
        r->obj_bits = v.bit_size;
    return st;
}

/* core CORE BINARY / attach PID BINARY: a real process image. */
repl_status rp_cmd_open_real(repl *r, int argc, char **argv, bool core)
{
    uint64_t pid = 0;
    char err[400];
    if (!r->o.real)
        return rp_fail(r, "%s: this dwexpr was built without libdwarf and libunwind", argv[0]);
    if (r->o.no_files)
        return rp_fail(r, "%s: files are off in this session", argv[0]);
    if (argc != 3 || (!core && (rp_parse_num(argv[1], &pid) || pid == 0 || pid > INT32_MAX)))
        return rp_fail(r, core ? "core: expected CORE BINARY" : "attach: expected PID BINARY");
    void *h = r->o.real->open(core ? argv[1] : NULL, (int)pid, argv[2], err, sizeof err);
    if (!h)
        return rp_fail(r, "%s: %s", argv[0], err);
    rp_invalidate(r);
    if (r->real)
        r->o.real->close(r->real);
    r->real = h;
    r->real_frame = 0;
    /* the libunwind adapter is x86-64: name its registers */
    if (strcmp(r->c.arch_name, "x86_64") != 0) {
        json_t *doc = rp_edit(r);
        json_object_set_new(doc, "arch", json_string("x86_64"));
        rp_reload(r, doc);
    }
    size_t n = r->o.real->frame_count(h);
    fprintf(r->o.out, "%zu frames; `frame N` selects one, `var NAME` evaluates a variable there\n",
            n);
    for (size_t i = 0; i < n; i++) {
        char d[300];
        r->o.real->frame_desc(h, i, d, sizeof d);
        fprintf(r->o.out, "%s %s\n", i == r->real_frame ? "=>" : "  ", d);
    }
    return REPL_OK;
}

repl_status rp_cmd_frame(repl *r, int argc, char **argv)
{
    uint64_t n;
    char d[300];
    if (!r->real)
        return rp_fail(r, "frame: no process image (core CORE BINARY, attach PID BINARY)");
    if (argc > 2 || (argc == 2 && (rp_parse_num(argv[1], &n) || argv[1][0] == '-')))
        return rp_fail(r, "frame: expected an optional frame number");
    if (argc == 2) {
        if (n >= r->o.real->frame_count(r->real))
            return rp_fail(r, "frame %" PRIu64 ": the image has frames 0..%zu", n,
                        r->o.real->frame_count(r->real) - 1);
        r->real_frame = (size_t)n;
    }
    r->o.real->frame_desc(r->real, r->real_frame, d, sizeof d);
    fprintf(r->o.out, "%s\n", d);
    return REPL_OK;
}

/* var NAME with a process image: DW_AT_location in the selected frame. */
static repl_status real_var(repl *r, const char *name)
{
    char what[400];
    dwexpr_error e;
    memset(&e, 0, sizeof e);
    if (!r->ctx && dwexpr_ctx_new(&r->c.limits, &r->ctx) != DWEXPR_OK)
        return rp_fail(r, "cannot create an evaluation context");
    rp_end_session(r, NULL);
    rp_invalidate(r);
    dwexpr_eval_params hk = r->c.params;
    r->mode = STOP_NEVER;
    r->events = r->quiet_until = 0;
    r->stopped = r->interrupted = false;
    r->prev_op[0] = 0;
    hk.trace = rp_hook;
    hk.trace_arg = r;
    uint64_t bits = 0;
    int rc = r->o.real->var(r->real, r->real_frame, name, r->ctx, &hk, &r->res, &e, &bits, what,
                            sizeof what);
    if (rc < 0)
        return rp_fail(r, "var: %s", what);
    fprintf(r->o.out, "%s\n", what);
    if (rc > 0) {
        r->have_stack = true;
        free(r->text);
        r->text = NULL;
        rp_report(r, &e, -1);
        return REPL_OK;
    }
    r->have_result = r->res_real = true;
    r->obj_bits = bits;
    rp_show_result(r);
    return REPL_OK;
}
