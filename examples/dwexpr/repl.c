/* examples/dwexpr/repl.c: the REPL's command interpreter (repl.h). The
 * session's simulated target is a JSON document in the contract's
 * "Context file" format: every command that changes registers, memory or
 * settings edits the document and reloads it through context.c, so what
 * `save` writes is exactly what `dwexpr eval --context` reads.
 *
 * Stepping re-runs the evaluation from the start and stops it (through
 * the trace hook) before the wanted operation: the simulated target is
 * not changed by evaluating, so every run sees the same operations, and
 * the stack at the stop is the interrupted evaluation's stack. */
#include "repl.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "context.h"
#include "output.h"
#include "picture.h"
#include "repl_fmt.h"

/* Highest DWARF register number searched for a register name. */
#define REG_NAME_SCAN 8192
/* Largest register the REPL shows or sets, in bytes (a 1024-lane VGPR
 * of 64-bit lanes is 8 KiB). */
#define REG_MAX_BYTES 65536u
/* Most breakpoints. */
#define MAX_BREAKS 64

/* What the last command produced, for `expect`. */
typedef enum { LAST_NONE, LAST_VALUE, LAST_LOCATION, LAST_ERROR } last_kind;

/* How a stepping run decides to stop. */
typedef enum { STOP_NEVER, STOP_STEP, STOP_NEXT, STOP_CONTINUE } stop_mode;

struct repl {
    repl_options o;
    json_t *doc;              /* the context */
    cli_ctx c;                /* doc, loaded */
    dwexpr_ctx *ctx;          /* evaluation context (results point into it) */

    /* the current expression */
    char *text;               /* as typed (text form or hex) */
    bool is_hex;
    uint8_t *bytes;
    size_t len;
    dwexpr_program *prog;

    /* the last evaluation's outcome */
    bool have_result;         /* res valid (ctx, bytes and c untouched since) */
    dwexpr_result res;
    bool have_stack;          /* ctx's stack is the one of an error or a stop */

    /* stepping session */
    bool session;
    uint64_t stop_event;      /* stopped before event number stop_event (1-based) */
    unsigned stop_depth;
    uint32_t stop_offset;
    char stop_op[160];
    uint32_t breaks[MAX_BREAKS];
    size_t nbreaks;

    /* the running evaluation (hook state) */
    stop_mode mode;
    uint64_t events, target_event, quiet_until;
    bool stopped, interrupted;
    char prev_op[160];        /* trace: the operation whose stack comes next */
    unsigned prev_depth;
    bool trace;

    /* a real process image (core / attach) */
    void *real;
    size_t real_frame;
    bool res_real;            /* res came from the real image: read/write go there */
    uint64_t obj_bits;        /* size of the object res locates (a variable's), 0 unknown */

    /* for expect */
    last_kind last;
    char *last_text;          /* notation, or the error message */
    char last_class[24];
    int64_t last_offset;
    char *last_read;          /* hex of the last `read`, xx for undefined bytes */
};

/* ---- small helpers ---- */

static char *xstrdup(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (!d) {
        fputs("dwexpr: out of memory\n", stderr);
        exit(2);
    }
    return strcpy(d, s);
}

static void set_last(repl *r, last_kind k, const char *text, const char *cls, int64_t offset)
{
    free(r->last_text);
    r->last = k;
    r->last_text = xstrdup(text ? text : "");
    snprintf(r->last_class, sizeof r->last_class, "%s", cls ? cls : "");
    r->last_offset = offset;
}

/* A command error: one line "error: ..." and the last result becomes a
 * usage error. Returns REPL_FAILED. */
static repl_status fail(repl *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static repl_status fail(repl *r, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fflush(r->o.out);
    fprintf(r->o.err, "error: %s\n", msg);
    fflush(r->o.err);
    set_last(r, LAST_ERROR, msg, "usage", -1);
    return REPL_FAILED;
}

/* Split S into whitespace-separated words (at most MAX); the words point
 * into BUF (a copy of S). Returns the count. */
static int split_words(const char *s, char *buf, size_t cap, char **w, int max)
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
static const char *after_words(const char *s, int n)
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

static int parse_num(const char *s, uint64_t *out)
{
    return cli_parse_u64(s, out);
}

/* Forget the last result and the stack (they point into what changes). */
static void invalidate(repl *r)
{
    r->obj_bits = 0;
    r->res_real = false;
    r->have_result = false;
    r->have_stack = false;
}

static void end_session(repl *r, const char *why)
{
    if (r->session && why)
        fprintf(r->o.out, "(stepping ended: %s)\n", why);
    r->session = false;
}

/* ---- the context document ---- */

/* Load DOC into the session (on success the session owns DOC; on failure
 * DOC is released and the old context stays). */
static repl_status reload(repl *r, json_t *doc)
{
    char *text = json_dumps(doc, JSON_COMPACT);
    cli_ctx c;
    if (!text) {
        json_decref(doc);
        return fail(r, "out of memory");
    }
    int bad = cli_ctx_load(&c, text, NULL);
    free(text);
    if (bad) {
        char msg[sizeof c.err];
        snprintf(msg, sizeof msg, "%s", c.err);
        cli_ctx_free(&c);
        json_decref(doc);
        return fail(r, "%s", msg);
    }
    if (r->session)
        end_session(r, "the context changed");
    invalidate(r);
    /* the evaluation context follows the limits of the new context */
    dwexpr_ctx_free(r->ctx);
    r->ctx = NULL;
    cli_ctx_free(&r->c);
    r->c = c;
    json_decref(r->doc);
    r->doc = doc;
    return REPL_OK;
}

/* A copy of the document to edit, then reload(). */
static json_t *edit(repl *r)
{
    return json_deep_copy(r->doc);
}

/* The registers object of frame 0 inside DOC (created when missing). */
static json_t *doc_regs(json_t *doc)
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
static void strip_comments(char *s)
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

/* ---- registers ---- */

/* Register REG (a DWARF number or a name of the arch, any case). */
static bool reg_lookup(const repl *r, const char *s, uint32_t *regno)
{
    uint64_t n;
    if (isdigit((unsigned char)s[0])) {
        if (parse_num(s, &n) || n > UINT32_MAX)
            return false;
        *regno = (uint32_t)n;
        return true;
    }
    for (uint32_t i = 0; i < REG_NAME_SCAN; i++) {
        const char *name = dwexpr_arch_reg_name(r->c.arch, i);
        if (name && strcasecmp(name, s) == 0) {
            *regno = i;
            return true;
        }
    }
    return false;
}

/* Size of REGNO as the simulated target sees it (0 if unknown). */
static uint32_t reg_size(repl *r, uint32_t regno)
{
    uint32_t n = 0;
    if (r->c.target.reg_size && r->c.target.reg_size(&r->c, regno, &n) != DWEXPR_OK)
        n = 0;
    return n;
}

/* Current bytes of REGNO in frame 0 into BUF (LEN bytes); false if the
 * context does not hold it. */
static bool reg_bytes(repl *r, uint32_t regno, uint8_t *buf, size_t len)
{
    dwexpr_regref rr;
    memset(&rr, 0, sizeof rr);
    rr.regno = regno;
    rr.thread = r->c.params.thread;
    rr.ctx = (uint16_t)(r->c.params.ctx & DWEXPR_CTX_THREAD);
    return r->c.target.reg_read && r->c.target.reg_read(&r->c, &rr, 0, buf, len) == DWEXPR_OK;
}

/* Little-endian (or the unit's order) number of N <= 8 bytes. */
static uint64_t bytes_number(const repl *r, const uint8_t *b, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n && i < 8; i++)
        v |= (uint64_t)b[r->c.unit.big_endian ? n - 1 - i : i] << (8 * i);
    return v;
}

/* Store number V (NEG: two's complement beyond 64 bits) in N bytes. */
static void number_bytes(const repl *r, uint64_t v, bool neg, uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t byte = i < 8 ? (uint8_t)(v >> (8 * i)) : (neg ? 0xff : 0);
        b[r->c.unit.big_endian ? n - 1 - i : i] = byte;
    }
}

static void print_reg(repl *r, uint32_t regno, bool lanes)
{
    uint32_t size = reg_size(r, regno);
    if (size > REG_MAX_BYTES) {
        fprintf(r->o.out, "register %u: %u bytes (too large to show)\n", regno, size);
        return;
    }
    sbuf nm = {0};
    fmt_reg(&nm, r->c.arch, regno);
    uint8_t *b = calloc(size ? size : 1, 1);
    if (!b) {
        sb_free(&nm);
        return;
    }
    if (!size || !reg_bytes(r, regno, b, size)) {
        fprintf(r->o.out, "%s (%u): not set\n", sb_str(&nm), regno);
    } else if (size <= 8) {
        uint64_t v = bytes_number(r, b, size);
        fprintf(r->o.out, "%s (%u) = 0x%" PRIx64 " (%" PRIu64 ")  [%uB]\n", sb_str(&nm), regno, v,
                v, size);
    } else {
        uint32_t nl = r->c.params.lanes;
        fprintf(r->o.out, "%s (%u)  [%uB]", sb_str(&nm), regno, size);
        if (lanes && nl && size % nl == 0 && size / nl <= 8) {
            uint32_t e = size / nl;
            for (uint32_t l = 0; l < nl; l++) {
                if (l % 8 == 0)
                    fprintf(r->o.out, "\n  lane %2u:", l);
                fprintf(r->o.out, " 0x%" PRIx64, bytes_number(r, b + (size_t)l * e, e));
            }
            fputc('\n', r->o.out);
        } else {
            fputs(" = ", r->o.out);
            for (uint32_t i = 0; i < size && i < 32; i++)
                fprintf(r->o.out, "%02x", b[i]);
            fputs(size > 32 ? "...\n" : "\n", r->o.out);
        }
    }
    free(b);
    sb_free(&nm);
}

/* reg [R [lane N] [VALUE]] */
static repl_status cmd_reg(repl *r, int argc, char **argv)
{
    if (argc == 1) {
        json_t *st = cli_ctx_state_json(&r->c);
        const char *key;
        json_t *v;
        size_t shown = 0;
        json_object_foreach(json_object_get(st, "registers"), key, v) {
            (void)v;
            print_reg(r, (uint32_t)strtoul(key, NULL, 10), false);
            shown++;
        }
        json_decref(st);
        if (!shown)
            fprintf(r->o.out, "no registers set (reg NAME VALUE sets one)\n");
        return REPL_OK;
    }
    uint32_t regno;
    if (!reg_lookup(r, argv[1], &regno))
        return fail(r, "unknown register \"%s\" for arch %s (`regnames %s` lists names)", argv[1],
                    r->c.arch_name, argv[1]);
    int i = 2;
    bool has_lane = false;
    uint64_t lane = 0;
    if (argc > i && strcmp(argv[i], "lane") == 0) {
        if (argc <= i + 1 || parse_num(argv[i + 1], &lane) || argv[i + 1][0] == '-')
            return fail(r, "reg %s lane: expected a lane number", argv[1]);
        has_lane = true;
        i += 2;
    }
    if (argc == i) {
        print_reg(r, regno, true);
        return REPL_OK;
    }
    if (argc > i + 1)
        return fail(r, "reg: unexpected \"%s\" after the value", argv[i + 1]);
    uint32_t size = reg_size(r, regno);
    if (size == 0)
        return fail(r, "register %u has no known size for arch %s (set \"register_sizes\")",
                    regno, r->c.arch_name);
    if (size > REG_MAX_BYTES)
        return fail(r, "register %u: %u bytes is more than the REPL sets (%u)", regno, size,
                    REG_MAX_BYTES);
    uint8_t *b = calloc(size, 1);
    if (!b)
        return fail(r, "out of memory");
    const char *val = argv[i];
    uint64_t v;
    if (strncmp(val, "hex:", 4) == 0) {
        uint8_t *hb = NULL;
        size_t hl = 0;
        if (cli_hex_decode(val + 4, &hb, &hl) || hl != size) {
            free(hb);
            free(b);
            return fail(r, "reg %s: hex:... must be exactly %u bytes of hex", argv[1], size);
        }
        memcpy(b, hb, size);
        free(hb);
    } else if (parse_num(val, &v)) {
        free(b);
        return fail(r, "reg %s: bad value \"%s\" (a number: 42, 0x2a, -8; or hex:BYTES)", argv[1],
                    val);
    } else if (has_lane) {
        uint32_t nl = r->c.params.lanes;
        if (nl == 0 || size % nl != 0) {
            free(b);
            return fail(r, "reg %s lane %" PRIu64 ": register of %uB is not split into %u lanes",
                        argv[1], lane, size, nl);
        }
        if (lane >= nl) {
            free(b);
            return fail(r, "reg %s lane %" PRIu64 ": lanes are 0..%u", argv[1], lane, nl - 1);
        }
        uint32_t e = size / nl;
        reg_bytes(r, regno, b, size);
        number_bytes(r, v, val[0] == '-', b + lane * e, e);
    } else {
        number_bytes(r, v, val[0] == '-', b, size);
    }
    char *hex = out_hex(b, size);
    free(b);
    json_t *doc = edit(r);
    char key[16];
    snprintf(key, sizeof key, "%u", regno);
    json_object_set_new(doc_regs(doc), key, json_pack("{s:s}", "bytes", hex));
    free(hex);
    if (reload(r, doc) != REPL_OK)
        return REPL_FAILED;
    print_reg(r, regno, has_lane);
    return REPL_OK;
}

/* regnames [PREFIX] */
static repl_status cmd_regnames(repl *r, int argc, char **argv)
{
    const char *pre = argc > 1 ? argv[1] : "";
    size_t n = 0, col = 0;
    for (uint32_t i = 0; i < REG_NAME_SCAN; i++) {
        const char *name = dwexpr_arch_reg_name(r->c.arch, i);
        if (!name || strncasecmp(name, pre, strlen(pre)) != 0)
            continue;
        char item[48];
        int w = snprintf(item, sizeof item, "%s=%u", name, i);
        if (col + (size_t)w + 1 > 78) {
            fputc('\n', r->o.out);
            col = 0;
        }
        fprintf(r->o.out, "%s%s", col ? " " : "", item);
        col += (size_t)w + (col ? 1 : 0);
        n++;
    }
    if (col)
        fputc('\n', r->o.out);
    if (!n)
        return fail(r, "no register of arch %s starts with \"%s\"", r->c.arch_name, pre);
    return REPL_OK;
}

/* ---- memory ---- */

typedef struct mem_sel {
    uint32_t aspace;
    bool has_lane, has_thread;
    uint32_t lane;
    uint64_t thread;
    uint64_t len;
} mem_sel;

/* Parse the aspace=A lane=N thread=T len=N words of ARGV (anywhere after
 * the command word); the other words are moved to the front, from index
 * 1, and *I gets 1, *ARGC their end. */
static int mem_opts(repl *r, int *argc, char **argv, int *i, mem_sel *m)
{
    int k = 1;
    memset(m, 0, sizeof *m);
    m->len = 16;
    for (int j = *i; j < *argc; j++) {
        const char *a = argv[j], *eq = strchr(a, '=');
        uint64_t v;
        if (!eq) {
            argv[k++] = argv[j];
            continue;
        }
        if (parse_num(eq + 1, &v) || eq[1] == '-') {
            fail(r, "mem: bad number in \"%s\"", a);
            return -1;
        }
        if (strncmp(a, "aspace=", 7) == 0 && v <= UINT32_MAX)
            m->aspace = (uint32_t)v;
        else if (strncmp(a, "lane=", 5) == 0 && v <= UINT32_MAX)
            m->lane = (uint32_t)v, m->has_lane = true;
        else if (strncmp(a, "thread=", 7) == 0)
            m->thread = v, m->has_thread = true;
        else if (strncmp(a, "len=", 4) == 0 && v > 0 && v <= 4096)
            m->len = v;
        else {
            fail(r, "mem: unknown or out-of-range \"%s\" (aspace=A lane=N thread=T len=1..4096)",
                 a);
            return -1;
        }
    }
    *argc = k;
    *i = 1;
    return 0;
}

/* Whether memory block J is the one M and ADDR select. */
static bool block_is(const json_t *j, const mem_sel *m, uint64_t addr)
{
    uint64_t a = 0, as = 0, lane = 0, th = 0;
    const json_t *v;
    if ((v = json_object_get(j, "address")) &&
        cli_parse_u64(json_is_string(v) ? json_string_value(v) : "", &a) && json_is_integer(v))
        a = (uint64_t)json_integer_value(v);
    if ((v = json_object_get(j, "aspace")))
        as = json_is_integer(v) ? (uint64_t)json_integer_value(v)
                                : (cli_parse_u64(json_string_value(v) ? json_string_value(v) : "",
                                                 &as), as);
    bool hl = (v = json_object_get(j, "lane")) != NULL;
    if (hl)
        lane = json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
    bool ht = (v = json_object_get(j, "thread")) != NULL;
    if (ht)
        th = json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
    return a == addr && as == m->aspace && hl == m->has_lane && (!hl || lane == m->lane) &&
           ht == m->has_thread && (!ht || th == m->thread);
}

static void print_mem(repl *r, const mem_sel *m, uint64_t addr)
{
    dwexpr_memref mr;
    memset(&mr, 0, sizeof mr);
    mr.aspace = m->aspace;
    if (m->has_lane)
        mr.ctx |= DWEXPR_CTX_LANE, mr.lane = m->lane;
    if (m->has_thread)
        mr.ctx |= DWEXPR_CTX_THREAD, mr.thread = m->thread;
    for (uint64_t i = 0; i < m->len; i++) {
        uint8_t byte;
        mr.address = addr + i;
        if (i % 16 == 0)
            fprintf(r->o.out, "%s0x%08" PRIx64 ":", i ? "\n" : "", addr + i);
        if (r->c.target.mem_read(&r->c, &mr, &byte, 1) == DWEXPR_OK)
            fprintf(r->o.out, " %02x", byte);
        else
            fputs(" ??", r->o.out);
    }
    fputc('\n', r->o.out);
}

/* mem [aspace=A lane=N thread=T len=N] [ADDR [HEX]] */
static repl_status cmd_mem(repl *r, int argc, char **argv)
{
    int i = 1;
    mem_sel m;
    if (mem_opts(r, &argc, argv, &i, &m))
        return REPL_FAILED;
    if (i == argc) {
        json_t *mem = json_object_get(r->doc, "memory"), *b;
        size_t k;
        if (!json_array_size(mem))
            fprintf(r->o.out, "no memory set (mem ADDR HEX sets some)\n");
        json_array_foreach(mem, k, b) {
            char *s = json_dumps(b, JSON_COMPACT);
            fprintf(r->o.out, "  %s\n", s ? s : "?");
            free(s);
        }
        return REPL_OK;
    }
    uint64_t addr;
    if (parse_num(argv[i], &addr) || argv[i][0] == '-')
        return fail(r, "mem: bad address \"%s\"", argv[i]);
    if (i + 1 == argc) {
        print_mem(r, &m, addr);
        return REPL_OK;
    }
    if (i + 2 != argc)
        return fail(r, "mem: expected ADDR HEX, got more words");
    uint8_t *bytes = NULL;
    size_t n = 0;
    if (cli_hex_decode(argv[i + 1], &bytes, &n) || n == 0) {
        free(bytes);
        return fail(r, "mem: \"%s\" is not hex bytes (e.g. 0102ff)", argv[i + 1]);
    }
    char *hex = out_hex(bytes, n), addr_s[24];
    free(bytes);
    snprintf(addr_s, sizeof addr_s, "0x%" PRIx64, addr);
    json_t *doc = edit(r), *mem = json_object_get(doc, "memory"), *b;
    if (!json_is_array(mem)) {
        mem = json_array();
        json_object_set_new(doc, "memory", mem);
    }
    size_t k;
    json_array_foreach(mem, k, b) {
        if (block_is(b, &m, addr)) {
            json_array_remove(mem, k);
            break;
        }
    }
    b = json_pack("{s:i,s:s,s:s}", "aspace", (json_int_t)m.aspace, "address", addr_s, "bytes", hex);
    if (m.has_lane)
        json_object_set_new(b, "lane", json_integer(m.lane));
    if (m.has_thread)
        json_object_set_new(b, "thread", json_integer((json_int_t)m.thread));
    /* first in the list: the simulated target prefers the earliest block */
    json_array_insert_new(mem, 0, b);
    free(hex);
    if (reload(r, doc) != REPL_OK)
        return REPL_FAILED;
    m.len = n;
    print_mem(r, &m, addr);
    return REPL_OK;
}

/* clear reg [R] | clear mem [opts ADDR] | clear breaks */
static repl_status cmd_clear(repl *r, int argc, char **argv)
{
    if (argc < 2)
        return fail(r, "clear: what? (clear reg [R], clear mem [ADDR], clear breaks)");
    if (strcmp(argv[1], "breaks") == 0) {
        r->nbreaks = 0;
        return REPL_OK;
    }
    json_t *doc = edit(r);
    if (strcmp(argv[1], "reg") == 0) {
        json_t *regs = doc_regs(doc);
        if (argc == 2) {
            json_object_clear(regs);
        } else {
            uint32_t regno;
            char key[16];
            if (!reg_lookup(r, argv[2], &regno)) {
                json_decref(doc);
                return fail(r, "unknown register \"%s\" for arch %s", argv[2], r->c.arch_name);
            }
            snprintf(key, sizeof key, "%u", regno);
            if (json_object_del(regs, key)) {
                json_decref(doc);
                return fail(r, "register %s is not set", argv[2]);
            }
        }
    } else if (strcmp(argv[1], "mem") == 0) {
        json_t *mem = json_object_get(doc, "memory");
        int i = 2;
        mem_sel m;
        uint64_t addr;
        if (argc == 2) {
            json_object_del(doc, "memory");
        } else if (mem_opts(r, &argc, argv, &i, &m)) {
            json_decref(doc);
            return REPL_FAILED;
        } else if (i + 1 != argc || parse_num(argv[i], &addr)) {
            json_decref(doc);
            return fail(r, "clear mem: expected [aspace=A lane=N thread=T] ADDR");
        } else {
            size_t k, removed = 0;
            for (k = json_array_size(mem); k-- > 0;)
                if (block_is(json_array_get(mem, k), &m, addr)) {
                    json_array_remove(mem, k);
                    removed++;
                }
            if (!removed) {
                json_decref(doc);
                return fail(r, "clear mem: no block starts at 0x%" PRIx64 " there", addr);
            }
        }
    } else {
        json_decref(doc);
        return fail(r, "clear: \"%s\"? (reg, mem or breaks)", argv[1]);
    }
    return reload(r, doc);
}

/* ---- settings ---- */

/* set KEY VALUE: any context field, VALUE as JSON (else a string). */
static repl_status cmd_set(repl *r, const char *line, int argc, char **argv)
{
    if (argc < 3)
        return fail(r, "set: expected KEY VALUE (e.g. set pc 0x401000)");
    const char *val = after_words(line, 2);
    json_error_t je;
    json_t *v = json_loads(val, JSON_DECODE_ANY, &je);
    if (!v)
        v = json_string(val);
    json_t *doc = edit(r);
    json_object_set_new(doc, argv[1], v);
    return reload(r, doc);
}

static repl_status cmd_unset(repl *r, int argc, char **argv)
{
    if (argc != 2)
        return fail(r, "unset: expected one KEY");
    json_t *doc = edit(r);
    if (json_object_del(doc, argv[1])) {
        json_decref(doc);
        return fail(r, "unset: \"%s\" is not set", argv[1]);
    }
    return reload(r, doc);
}

static repl_status cmd_arch(repl *r, int argc, char **argv)
{
    if (argc == 1) {
        fprintf(r->o.out, "arch %s (address size %u)\n", r->c.arch_name, r->c.unit.addr_size);
        return REPL_OK;
    }
    if (argc != 2 || !dwexpr_arch_find(argv[1]))
        return fail(r, "arch: unknown \"%s\" (generic32, generic64, x86_64, amdgpu-wave64, "
                       "amdgpu-wave32)", argc > 1 ? argv[1] : "");
    json_t *doc = edit(r);
    json_object_set_new(doc, "arch", json_string(argv[1]));
    return reload(r, doc);
}

static repl_status cmd_lane(repl *r, int argc, char **argv)
{
    uint64_t n;
    if (argc == 1) {
        if (r->c.params.ctx & DWEXPR_CTX_LANE)
            fprintf(r->o.out, "lane %u of %u\n", r->c.params.lane, r->c.params.lanes);
        else
            fprintf(r->o.out, "no current lane (%u lanes)\n", r->c.params.lanes);
        return REPL_OK;
    }
    if (argc != 2 || parse_num(argv[1], &n) || argv[1][0] == '-' || n > UINT32_MAX)
        return fail(r, "lane: expected a lane number");
    if (r->c.params.lanes && n >= r->c.params.lanes)
        return fail(r, "lane %" PRIu64 ": this context has lanes 0..%u", n, r->c.params.lanes - 1);
    json_t *doc = edit(r);
    json_object_set_new(doc, "lane", json_integer((json_int_t)n));
    return reload(r, doc);
}

/* limit steps|stack|calls|parts N */
static repl_status cmd_limit(repl *r, int argc, char **argv)
{
    uint64_t n;
    if (argc == 1) {
        fprintf(r->o.out, "steps %" PRIu64 " stack %u calls %u (0: the default)\n",
                r->c.limits.steps, r->c.limits.stack, r->c.limits.calls);
        return REPL_OK;
    }
    if (argc != 3 || parse_num(argv[2], &n) || argv[2][0] == '-' ||
        (strcmp(argv[1], "steps") && strcmp(argv[1], "stack") && strcmp(argv[1], "calls") &&
         strcmp(argv[1], "parts")))
        return fail(r, "limit: expected steps|stack|calls|parts N");
    json_t *doc = edit(r), *lim = json_object_get(doc, "limits");
    if (!json_is_object(lim)) {
        lim = json_object();
        json_object_set_new(doc, "limits", lim);
    }
    char s[24];
    snprintf(s, sizeof s, "%" PRIu64, n);
    json_object_set_new(lim, argv[1], json_string(s));
    return reload(r, doc);
}

static repl_status cmd_load(repl *r, int argc, char **argv)
{
    if (argc != 2)
        return fail(r, "load: expected FILE");
    if (r->o.no_files)
        return fail(r, "load: files are off in this session");
    FILE *f = fopen(argv[1], "rb");
    if (!f)
        return fail(r, "load: cannot open %s: %s", argv[1], strerror(errno));
    size_t cap = 4096, n = 0, k;
    char *text = malloc(cap);
    while (text && (k = fread(text + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (n + 1 == cap) {
            char *t = realloc(text, cap * 2);
            if (!t) {
                free(text);
                text = NULL;
                break;
            }
            text = t;
            cap *= 2;
        }
    }
    fclose(f);
    if (!text)
        return fail(r, "load: out of memory");
    text[n] = 0;
    strip_comments(text);
    json_error_t je;
    json_t *doc = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    free(text);
    if (!doc)
        return fail(r, "load: %s line %d column %d: %s", argv[1], je.line, je.column, je.text);
    if (!json_is_object(doc)) {
        json_decref(doc);
        return fail(r, "load: %s: expected a JSON object", argv[1]);
    }
    if (reload(r, doc) != REPL_OK)
        return REPL_FAILED;
    fprintf(r->o.out, "loaded %s (arch %s)\n", argv[1], r->c.arch_name);
    return REPL_OK;
}

static repl_status cmd_save(repl *r, int argc, char **argv)
{
    if (argc != 2)
        return fail(r, "save: expected FILE");
    if (r->o.no_files)
        return fail(r, "save: files are off in this session");
    if (json_dump_file(r->doc, argv[1], JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
        return fail(r, "save: cannot write %s", argv[1]);
    fprintf(r->o.out, "saved %s\n", argv[1]);
    return REPL_OK;
}

/* context: the document as JSON. */
static repl_status cmd_context(repl *r, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    char *s = json_dumps(r->doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fprintf(r->o.out, "%s\n", s ? s : "{}");
    free(s);
    return REPL_OK;
}

/* ---- the expression ---- */

/* Character offsets in TEXT where each operation starts (a word naming
 * an operation, with or without DW_OP_). Returns the count (at most MAX). */
static size_t op_columns(const char *text, size_t *cols, size_t max)
{
    size_t n = 0;
    const char *p = text;
    while (*p && n < max) {
        while (isspace((unsigned char)*p))
            p++;
        const char *w = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (p > w && dwexpr_op_by_name(w, (size_t)(p - w)) != DWEXPR_OP_COUNT)
            cols[n++] = (size_t)(w - text);
    }
    return n;
}

/* Print the expression with a caret under what byte OFFSET (an operation
 * offset; CHAR_AT >= 0: a character of the text instead) points at. */
static void print_caret(repl *r, int64_t offset, int64_t char_at)
{
    FILE *f = r->o.err;
    if (!r->text)
        return;
    if (r->is_hex) {
        if (offset < 0 || (size_t)offset >= r->len)
            return;
        fputs("  ", f);
        for (size_t i = 0; i < r->len && i < 40; i++)
            fprintf(f, i ? " %02x" : "%02x", r->bytes[i]);
        fputc('\n', f);
        if (offset < 40)
            fprintf(f, "  %*s^\n", (int)(3 * offset), "");
        return;
    }
    if (char_at < 0 && r->prog && offset >= 0) {
        size_t count = dwexpr_program_count(r->prog), *cols = calloc(count + 1, sizeof *cols);
        if (cols && op_columns(r->text, cols, count + 1) == count)
            for (size_t i = 0; i < count; i++)
                if (dwexpr_program_op(r->prog, i)->offset == (uint64_t)offset)
                    char_at = (int64_t)cols[i];
        free(cols);
    } else if (char_at < 0 && offset >= 0) {
        /* no program (it did not decode): the operation whose text before
         * it assembles to OFFSET bytes */
        size_t n = strlen(r->text), *cols = calloc(n + 1, sizeof *cols);
        char *prefix = malloc(n + 1);
        size_t count = cols && prefix ? op_columns(r->text, cols, n + 1) : 0;
        for (size_t i = 0; i < count && char_at < 0; i++) {
            uint8_t *b = NULL;
            size_t len = 0;
            dwexpr_error e;
            memcpy(prefix, r->text, cols[i]);
            prefix[cols[i]] = 0;
            if (cli_assemble(&r->c, prefix, &b, &len, &e) == DWEXPR_OK && len == (size_t)offset)
                char_at = (int64_t)cols[i];
            free(b);
        }
        free(prefix);
        free(cols);
    }
    if (char_at < 0 || (size_t)char_at > strlen(r->text) || strlen(r->text) > 400)
        return;
    fprintf(f, "  %s\n  %*s^\n", r->text, (int)char_at, "");
}

/* Report failure E of the current expression: one line, then the caret. */
static void report(repl *r, const dwexpr_error *e, int64_t char_at)
{
    char msg[512];
    sbuf line = {0};
    json_t *o = out_error_from(&r->c, e);
    snprintf(msg, sizeof msg, "%s", json_string_value(json_object_get(o, "message")));
    json_decref(o);
    const char *cls = dwexpr_class_name(dwexpr_status_class(e->status));
    sb_printf(&line, "error (%s)", cls);
    if (e->offset >= 0 && char_at < 0)
        sb_printf(&line, " at 0x%04" PRIx64, (uint64_t)e->offset);
    else if (char_at >= 0)
        sb_printf(&line, " at character %" PRId64, char_at);
    /* the op name, unless the message starts with it already */
    if (e->op_name && strncmp(msg, e->op_name, strlen(e->op_name)) != 0)
        sb_printf(&line, " %s", e->op_name);
    sb_printf(&line, ": %s", msg);
    fflush(r->o.out);
    fprintf(r->o.err, "%s\n", sb_str(&line));
    print_caret(r, e->offset, char_at);
    fflush(r->o.err);
    set_last(r, LAST_ERROR, msg, cls, char_at >= 0 ? -1 : e->offset);
    sb_free(&line);
}

/* Take TEXT (text form, or hex when HEX) as the current expression.
 * Returns REPL_OK (a decode error is reported and is the result) or
 * REPL_FAILED (syntax errors). *DECODED tells whether it decoded. */
static repl_status set_expr_unit(repl *r, const char *text, bool hex, const dwexpr_unit *unit,
                                 bool *decoded)
{
    dwexpr_error e;
    memset(&e, 0, sizeof e);
    *decoded = false;
    end_session(r, NULL);
    invalidate(r);
    dwexpr_program_free(r->prog);
    r->prog = NULL;
    free(r->bytes);
    r->bytes = NULL;
    r->len = 0;
    free(r->text);
    r->text = xstrdup(text);
    r->is_hex = hex;
    if (hex) {
        if (cli_hex_decode(text, &r->bytes, &r->len))
            return fail(r, "expected hex bytes, e.g. eval -x \"70 08 06\"");
    } else {
        dwexpr_status s = cli_assemble(&r->c, text, &r->bytes, &r->len, &e);
        if (s != DWEXPR_OK) {
            if (!e.status)
                e.status = s;
            report(r, &e, e.offset >= 0 ? e.offset : 0);
            return REPL_FAILED;
        }
    }
    if (dwexpr_program_decode(r->bytes, r->len, unit ? unit : &r->c.unit, &r->prog, &e) !=
        DWEXPR_OK) {
        report(r, &e, -1);
        return REPL_OK;
    }
    *decoded = true;
    return REPL_OK;
}

static repl_status set_expr(repl *r, const char *text, bool hex, bool *decoded)
{
    return set_expr_unit(r, text, hex, NULL, decoded);
}

/* Most stack entries a trace or stop line shows (`stack` shows all). */
#define LINE_ENTRIES 8

/* The stack of CTX, top first, as "[a] [b]" on F. */
static void print_stack_line(repl *r, FILE *f)
{
    size_t d = dwexpr_ctx_stack_depth(r->ctx);
    if (!d)
        fputs("(empty)", f);
    for (size_t i = 0; i < d; i++) {
        if (i == LINE_ENTRIES) {
            fprintf(f, " ... %zu more (stack shows all)", d - i);
            break;
        }
        dwexpr_result e;
        sbuf s = {0};
        if (dwexpr_ctx_stack_get(r->ctx, i, &e) == DWEXPR_OK)
            fmt_result(&s, r->c.arch, &e);
        fprintf(f, "%s[%s]", i ? " " : "", sb_str(&s));
        sb_free(&s);
    }
}

/* The text of the operation of event EV. */
static void event_op(repl *r, const dwexpr_trace_event *ev, char *buf, size_t cap)
{
    if (ev->op)
        dwexpr_op_format(ev->op, r->c.arch, buf, cap);
    else
        snprintf(buf, cap, "%s", dwexpr_op_info(ev->id)->name);
}

/* The trace hook: interrupts (Ctrl-C), stepping stops, and the trace
 * printout (each operation with the stack it left). */
static int hook(void *arg, const dwexpr_ctx *ctx, const dwexpr_trace_event *ev)
{
    repl *r = arg;
    (void)ctx;
    r->events++;
    if ((r->o.interrupt && *r->o.interrupt) || (r->o.step_cap && r->events > r->o.step_cap)) {
        r->interrupted = true;
        goto stop;
    }
    bool stop = false;
    switch (r->mode) {
    case STOP_STEP:
        stop = r->events >= r->target_event;
        break;
    case STOP_NEXT:
        stop = r->events >= r->target_event && ev->depth <= r->stop_depth;
        break;
    case STOP_CONTINUE:
        if (r->events >= r->target_event && ev->depth == 0)
            for (size_t i = 0; i < r->nbreaks; i++)
                stop |= r->breaks[i] == ev->offset;
        break;
    default:
        break;
    }
    if (r->trace && r->events > r->quiet_until) {
        if (r->prev_op[0]) {
            fprintf(r->o.out, "  %*s%-34s ", 2 * (int)r->prev_depth, "", r->prev_op);
            print_stack_line(r, r->o.out);
            fputc('\n', r->o.out);
        }
    }
    char text[140];
    event_op(r, ev, text, sizeof text);
    snprintf(r->prev_op, sizeof r->prev_op, "0x%04x %s", (unsigned)ev->offset, text);
    r->prev_depth = ev->depth;
    if (!stop)
        return 0;
stop:
    r->stopped = true;
    r->stop_event = r->events;
    r->stop_depth = ev->depth;
    r->stop_offset = ev->offset;
    event_op(r, ev, r->stop_op, sizeof r->stop_op);
    return 1;
}

/* Show result RES: "value: ..." / "location: ..."; it becomes the last. */
static void show_result(repl *r)
{
    sbuf s = {0};
    fmt_result(&s, r->c.arch, &r->res);
    fprintf(r->o.out, "%s: %s\n", r->res.kind == DWEXPR_RESULT_LOCATION ? "location" : "value",
            sb_str(&s));
    set_last(r, r->res.kind == DWEXPR_RESULT_LOCATION ? LAST_LOCATION : LAST_VALUE, sb_str(&s),
             NULL, -1);
    sb_free(&s);
}

/* Run the current program, stopping as MODE says. Prints the result, the
 * error, or where it stopped. */
static repl_status run(repl *r, stop_mode mode, uint64_t target)
{
    if (!r->prog)
        return fail(r, "no expression (eval EXPR, or start EXPR to step)");
    if (!r->ctx && dwexpr_ctx_new(&r->c.limits, &r->ctx) != DWEXPR_OK)
        return fail(r, "cannot create an evaluation context");
    invalidate(r);
    r->mode = mode;
    r->events = 0;
    r->target_event = target;
    /* a re-run prints nothing the run before it printed */
    r->quiet_until = r->session ? r->stop_event : 0;
    r->stopped = r->interrupted = false;
    r->prev_op[0] = 0;
    r->c.params.trace = hook;
    r->c.params.trace_arg = r;
    r->c.target_msg[0] = 0;
    dwexpr_status s = dwexpr_eval(r->ctx, r->prog, &r->c.target, &r->c, &r->c.params, &r->res);
    r->c.params.trace = NULL;
    if (s == DWEXPR_OK) {
        if (r->trace && r->prev_op[0])
            fprintf(r->o.out, "  %*s%-34s (end)\n", 2 * (int)r->prev_depth, "", r->prev_op);
        end_session(r, NULL);
        r->have_result = true;
        show_result(r);
        return REPL_OK;
    }
    r->have_stack = true;
    if (r->stopped && (mode != STOP_NEVER || r->session)) {
        r->session = true;
        fprintf(r->o.out, "%s at 0x%04x: %s", r->interrupted ? "interrupted" : "stopped",
                r->stop_offset, r->stop_op);
        if (r->stop_depth)
            fprintf(r->o.out, "  (depth %u)", r->stop_depth);
        fprintf(r->o.out, "  (step %" PRIu64 ")\n  stack: ", r->stop_event);
        print_stack_line(r, r->o.out);
        fputc('\n', r->o.out);
        set_last(r, LAST_NONE, "", NULL, -1);
        return REPL_OK;
    }
    end_session(r, NULL);
    report(r, dwexpr_ctx_error(r->ctx), -1);
    return REPL_OK;
}

/* eval [-x HEX | EXPR] */
static repl_status cmd_eval(repl *r, const char *line, int argc, char **argv)
{
    bool hex = argc > 1 && strcmp(argv[1], "-x") == 0, ok;
    const char *text = after_words(line, hex ? 2 : 1);
    if (!*text) {
        if (!r->prog)
            return fail(r, "eval: expected an expression, e.g. eval DW_OP_lit1 DW_OP_lit2 DW_OP_plus");
        end_session(r, NULL);
        return run(r, STOP_NEVER, 0);
    }
    repl_status st = set_expr(r, text, hex, &ok);
    if (!ok)
        return st;
    return run(r, STOP_NEVER, 0);
}

/* start [-x HEX | EXPR]: stop before the first operation. */
static repl_status cmd_start(repl *r, const char *line, int argc, char **argv)
{
    bool hex = argc > 1 && strcmp(argv[1], "-x") == 0, ok = true;
    const char *text = after_words(line, hex ? 2 : 1);
    repl_status st = REPL_OK;
    if (*text)
        st = set_expr(r, text, hex, &ok);
    if (!ok)
        return st;
    end_session(r, NULL);
    return run(r, STOP_STEP, 1);
}

/* step [N] / next / continue: with no session, start one. */
static repl_status cmd_step(repl *r, int argc, char **argv, stop_mode mode)
{
    uint64_t n = 1;
    if (argc > 2 || (argc == 2 && (parse_num(argv[1], &n) || argv[1][0] == '-' || n == 0)))
        return fail(r, "%s: expected an optional count of at least 1", argv[0]);
    if (!r->prog)
        return fail(r, "%s: no expression (start EXPR)", argv[0]);
    if (!r->session && mode != STOP_CONTINUE) {
        end_session(r, NULL);
        return run(r, STOP_STEP, n);
    }
    uint64_t base = r->session ? r->stop_event : 0;
    if (mode == STOP_NEXT)
        return run(r, STOP_NEXT, base + 1);
    if (mode == STOP_CONTINUE)
        return run(r, STOP_CONTINUE, base + 1);
    return run(r, STOP_STEP, base + n);
}

/* break [OFFSET] / delete OFFSET|all */
static repl_status cmd_break(repl *r, int argc, char **argv, bool del)
{
    uint64_t off;
    if (!del && argc == 1) {
        if (!r->nbreaks)
            fprintf(r->o.out, "no breakpoints (break OFFSET)\n");
        for (size_t i = 0; i < r->nbreaks; i++)
            fprintf(r->o.out, "breakpoint at 0x%04x\n", r->breaks[i]);
        return REPL_OK;
    }
    if (del && argc == 2 && strcmp(argv[1], "all") == 0) {
        r->nbreaks = 0;
        return REPL_OK;
    }
    if (argc != 2 || parse_num(argv[1], &off) || argv[1][0] == '-' || off > UINT32_MAX)
        return fail(r, "%s: expected an operation offset (e.g. 0x3)", argv[0]);
    for (size_t i = 0; i < r->nbreaks; i++)
        if (r->breaks[i] == off) {
            if (del)
                r->breaks[i] = r->breaks[--r->nbreaks];
            return REPL_OK;
        }
    if (del)
        return fail(r, "delete: no breakpoint at 0x%" PRIx64, off);
    if (r->prog) {
        bool found = false;
        for (size_t i = 0; i < dwexpr_program_count(r->prog); i++)
            found |= dwexpr_program_op(r->prog, i)->offset == off;
        if (!found)
            return fail(r, "break: no operation starts at 0x%" PRIx64 " (disasm shows offsets)",
                        off);
    }
    if (r->nbreaks == MAX_BREAKS)
        return fail(r, "break: at most %d breakpoints", MAX_BREAKS);
    r->breaks[r->nbreaks++] = (uint32_t)off;
    fprintf(r->o.out, "breakpoint at 0x%04" PRIx64 "\n", off);
    return REPL_OK;
}

static repl_status cmd_stack(repl *r, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (!r->have_stack) {
        if (r->have_result) {
            fputs("(the evaluation finished) result: ", r->o.out);
            show_result(r);
        } else {
            fputs("no stack: start EXPR and step, or evaluate one that fails\n", r->o.out);
        }
        return REPL_OK;
    }
    size_t d = dwexpr_ctx_stack_depth(r->ctx);
    if (!d)
        fputs("the stack is empty\n", r->o.out);
    for (size_t i = 0; i < d; i++) {
        dwexpr_result e;
        sbuf s = {0};
        if (dwexpr_ctx_stack_get(r->ctx, i, &e) == DWEXPR_OK)
            fmt_result(&s, r->c.arch, &e);
        fprintf(r->o.out, "  %zu: %s%s\n", i, sb_str(&s), i == 0 ? "   <- top" : "");
        sb_free(&s);
    }
    return REPL_OK;
}

/* disasm [HEX]: the current program, breakpoints (*) and the stop (=>). */
static repl_status cmd_disasm(repl *r, const char *line, int argc)
{
    if (argc > 1) {
        uint8_t *b = NULL;
        size_t n = 0, need = 0;
        dwexpr_error e;
        memset(&e, 0, sizeof e);
        if (cli_hex_decode(after_words(line, 1), &b, &n)) {
            free(b);
            return fail(r, "disasm: expected hex bytes, e.g. disasm 76 78 06");
        }
        char *out = malloc(64 * n + 256);
        dwexpr_status s = out ? dwexpr_disasm(b, n, &r->c.unit, r->c.arch, out, 64 * n + 256,
                                              &need, &e)
                              : DWEXPR_E_NOMEM;
        if (out)
            fputs(out, r->o.out);
        free(out);
        free(b);
        if (s != DWEXPR_OK)
            return fail(r, "disasm: %s at byte 0x%" PRIx64,
                        e.message[0] ? e.message : dwexpr_strerror(s), (uint64_t)e.offset);
        return REPL_OK;
    }
    if (!r->prog)
        return fail(r, "disasm: no expression (eval EXPR, or disasm HEX)");
    for (size_t i = 0; i < dwexpr_program_count(r->prog); i++) {
        const dwexpr_op *op = dwexpr_program_op(r->prog, i);
        char text[256];
        bool bp = false;
        for (size_t k = 0; k < r->nbreaks; k++)
            bp |= r->breaks[k] == op->offset;
        dwexpr_op_format(op, r->c.arch, text, sizeof text);
        fprintf(r->o.out, "%s%c0x%04x: %s\n",
                r->session && r->stop_depth == 0 && r->stop_offset == op->offset ? "=>" : "  ",
                bp ? '*' : ' ', (unsigned)op->offset, text);
    }
    return REPL_OK;
}

static repl_status cmd_asm(repl *r, const char *line)
{
    uint8_t *b = NULL;
    size_t n = 0;
    dwexpr_error e;
    memset(&e, 0, sizeof e);
    const char *text = after_words(line, 1);
    if (cli_assemble(&r->c, text, &b, &n, &e) != DWEXPR_OK) {
        free(b);
        return fail(r, "asm: %s at character %" PRId64 "\n  %s\n  %*s^", e.message, e.offset,
                    text, (int)(e.offset > 0 ? e.offset : 0), "");
    }
    for (size_t i = 0; i < n; i++)
        fprintf(r->o.out, i ? " %02x" : "%02x", b[i]);
    fputc('\n', r->o.out);
    free(b);
    return REPL_OK;
}

/* read BITS / write HEX through the last location. */
static repl_status need_location(repl *r, const char *cmd)
{
    if (!r->have_result || r->res.kind != DWEXPR_RESULT_LOCATION)
        return fail(r, "%s: the last result is not a location (eval with `set result \"location\"`"
                       " or a location expression)", cmd);
    return REPL_OK;
}

static repl_status cmd_read(repl *r, int argc, char **argv)
{
    uint64_t bits;
    if (argc != 2 || parse_num(argv[1], &bits) || argv[1][0] == '-' || bits == 0 ||
        bits > (1u << 20))
        return fail(r, "read: expected a bit count (1..1048576)");
    if (need_location(r, "read") != REPL_OK)
        return REPL_FAILED;
    size_t n = (size_t)((bits + 7) / 8);
    uint8_t *buf = calloc(n, 1), *mask = calloc(n, 1);
    if (!buf || !mask) {
        free(buf);
        free(mask);
        return fail(r, "out of memory");
    }
    r->c.target_msg[0] = 0;
    void *user = &r->c;
    const dwexpr_target *t = r->res_real ? r->o.real->target(r->real, &user) : &r->c.target;
    dwexpr_status s = dwexpr_loc_read(r->ctx, t, user, &r->res.loc, bits, buf, mask);
    if (s != DWEXPR_OK) {
        free(buf);
        free(mask);
        dwexpr_error e = *dwexpr_ctx_error(r->ctx);
        e.offset = -1;
        report(r, &e, -1);
        return REPL_OK;
    }
    out_human_read(r->o.out, buf, mask, n, bits);
    char *h = out_hex(buf, n);
    for (size_t i = 0; i < n; i++)
        if (mask[i])
            h[2 * i] = h[2 * i + 1] = 'x';
    free(r->last_read);
    r->last_read = h;
    free(buf);
    free(mask);
    return REPL_OK;
}

static repl_status cmd_write(repl *r, int argc, char **argv)
{
    uint8_t *b = NULL;
    size_t n = 0;
    if (r->res_real && r->have_result)
        return fail(r, "write: the result is in a process image (core files are read-only)");
    if (argc != 2 || cli_hex_decode(argv[1], &b, &n) || n == 0) {
        free(b);
        return fail(r, "write: expected hex bytes (e.g. write 2a000000)");
    }
    if (need_location(r, "write") != REPL_OK) {
        free(b);
        return REPL_FAILED;
    }
    r->c.target_msg[0] = 0;
    dwexpr_status s = dwexpr_loc_write(r->ctx, &r->c.target, &r->c, &r->res.loc, 8 * (uint64_t)n, b);
    free(b);
    if (s != DWEXPR_OK) {
        dwexpr_error e = *dwexpr_ctx_error(r->ctx);
        e.offset = -1;
        report(r, &e, -1);
        return REPL_OK;
    }
    /* the simulated target changed: take its state into the document */
    json_t *st = cli_ctx_state_json(&r->c), *doc = edit(r);
    json_t *frames = json_object_get(st, "frames"), *dframes = json_object_get(doc, "frames");
    if (json_is_array(frames) && json_is_array(dframes)) {
        for (size_t i = 0; i < json_array_size(frames) && i < json_array_size(dframes); i++)
            json_object_set(json_array_get(dframes, i), "registers",
                            json_object_get(json_array_get(frames, i), "registers"));
    } else {
        json_object_update(doc_regs(doc), json_object_get(st, "registers"));
    }
    json_object_set(doc, "memory", json_object_get(st, "memory"));
    json_decref(st);
    if (reload(r, doc) != REPL_OK)
        return REPL_FAILED;
    fprintf(r->o.out, "wrote %zu bytes\n", n);
    return REPL_OK;
}

/* picture [--svg FILE] [BITS] */
static repl_status cmd_picture(repl *r, int argc, char **argv)
{
    const char *svg = NULL;
    uint64_t bits = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--svg") == 0 && i + 1 < argc)
            svg = argv[++i];
        else if (parse_num(argv[i], &bits) || argv[i][0] == '-' || bits == 0 || bits > (1u << 24))
            return fail(r, "picture: expected [--svg FILE] [BITS], not \"%s\"", argv[i]);
    }
    if (need_location(r, "picture") != REPL_OK)
        return REPL_FAILED;
    if (svg && r->o.no_files)
        return fail(r, "picture: files are off in this session");
    FILE *f = svg ? fopen(svg, "w") : r->o.out;
    if (!f)
        return fail(r, "picture: cannot write %s: %s", svg, strerror(errno));
    char err[200];
    /* the object's size: given, else the variable's, else the composite's */
    int bad = picture_draw(f, svg != NULL, r->c.arch, &r->res.loc, bits ? bits : r->obj_bits,
                           8u * r->c.unit.addr_size, err, sizeof err);
    if (svg && fclose(f) != 0 && !bad)
        return fail(r, "picture: cannot write %s", svg);
    if (bad)
        return fail(r, "picture: %s", err);
    if (svg)
        fprintf(r->o.out, "wrote %s\n", svg);
    return REPL_OK;
}

/* ---- expect ---- */

/* Collapse runs of blanks of S into one space, trim the ends. */
static void squeeze(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    bool space = false;
    while (isspace((unsigned char)*s))
        s++;
    for (; *s && k + 1 < cap; s++) {
        if (isspace((unsigned char)*s)) {
            space = true;
            continue;
        }
        if (space && k + 1 < cap)
            out[k++] = ' ';
        space = false;
        out[k++] = *s;
    }
    out[k] = 0;
}

static repl_status expect_failed(repl *r, const char *want, const char *got)
{
    fflush(r->o.out);
    fprintf(r->o.err, "expect failed: wanted %s, got %s\n", want, got);
    fflush(r->o.err);
    return REPL_EXPECT_FAILED;
}

/* What the last result is, for messages. */
static void last_desc(const repl *r, char *buf, size_t cap)
{
    switch (r->last) {
    case LAST_VALUE: snprintf(buf, cap, "value %s", r->last_text); break;
    case LAST_LOCATION: snprintf(buf, cap, "location %s", r->last_text); break;
    case LAST_ERROR:
        snprintf(buf, cap, "error %s%s%s", r->last_class, r->last_text[0] ? ": " : "",
                 r->last_text);
        break;
    default: snprintf(buf, cap, "no result"); break;
    }
}

/* Hex digits of a value text "type 0xHEX (...)" or a number N, normalized
 * (lowercase, no 0x, no leading zeros). */
static int norm_hex(const char *s, char *out, size_t cap)
{
    uint64_t v;
    if (strncmp(s, "0x", 2) == 0 || strncmp(s, "0X", 2) == 0) {
        s += 2;
        while (*s == '0' && s[1])
            s++;
        size_t k = 0;
        for (; *s && k + 1 < cap; s++) {
            if (!isxdigit((unsigned char)*s))
                return -1;
            out[k++] = (char)tolower((unsigned char)*s);
        }
        out[k] = 0;
        return k ? 0 : -1;
    }
    if (parse_num(s, &v))
        return -1;
    snprintf(out, cap, "%" PRIx64, v);
    return 0;
}

static repl_status cmd_expect(repl *r, const char *line, int argc, char **argv)
{
    char got[700], want[600];
    last_desc(r, got, sizeof got);
    if (argc < 2)
        return fail(r, "expect: value|location|error|read|stack|at|top ...");
    const char *what = argv[1];
    char rest[540];
    squeeze(after_words(line, 2), rest, sizeof rest);
    snprintf(want, sizeof want, "%s %s", what, rest);
    if (strcmp(what, "value") == 0) {
        /* expect value N [TYPE]: N compares as a number of the value's bits */
        char a[200], b[200], type[64] = "";
        if (argc < 3 || argc > 4 || norm_hex(argv[2], a, sizeof a))
            return fail(r, "expect value: expected a number and an optional type (generic64)");
        if (r->last != LAST_VALUE)
            return expect_failed(r, want, got);
        const char *sp = strchr(r->last_text, ' ');
        if (!sp || norm_hex(sp + 1, b, sizeof b) != 0) {
            /* "generic64 0x2a (42)": the hex word ends at the next blank */
            char word[200];
            snprintf(word, sizeof word, "%s", sp ? sp + 1 : "");
            char *end = strchr(word, ' ');
            if (end)
                *end = 0;
            if (norm_hex(word, b, sizeof b))
                return expect_failed(r, want, got);
        }
        snprintf(type, sizeof type, "%.*s", (int)(sp - r->last_text), r->last_text);
        if (strcmp(a, b) != 0 || (argc == 4 && strcmp(argv[3], type) != 0))
            return expect_failed(r, want, got);
        return REPL_OK;
    }
    if (strcmp(what, "location") == 0) {
        char have[600];
        squeeze(r->last_text ? r->last_text : "", have, sizeof have);
        if (r->last != LAST_LOCATION || strcmp(have, rest) != 0)
            return expect_failed(r, want, got);
        return REPL_OK;
    }
    if (strcmp(what, "error") == 0) {
        /* expect error CLASS [at OFFSET] */
        uint64_t off = 0;
        if (argc != 3 && !(argc == 5 && strcmp(argv[3], "at") == 0 && !parse_num(argv[4], &off)))
            return fail(r, "expect error: expected CLASS [at OFFSET]");
        bool ok = r->last == LAST_ERROR && strcmp(r->last_class, argv[2]) == 0;
        if (ok && argc == 5)
            ok = r->last_offset == (int64_t)off;
        if (!ok) {
            if (r->last == LAST_ERROR && r->last_offset >= 0)
                snprintf(got + strlen(got), sizeof got - strlen(got), " (at 0x%" PRIx64 ")",
                         (uint64_t)r->last_offset);
            return expect_failed(r, want, got);
        }
        return REPL_OK;
    }
    if (strcmp(what, "read") == 0) {
        if (argc != 3)
            return fail(r, "expect read: expected HEX (xx for undefined bytes)");
        if (!r->last_read || strcasecmp(r->last_read, argv[2]) != 0)
            return expect_failed(r, want, r->last_read ? r->last_read : "no read");
        return REPL_OK;
    }
    if (strcmp(what, "stack") == 0 || strcmp(what, "at") == 0) {
        uint64_t n;
        if (argc != 3 || parse_num(argv[2], &n))
            return fail(r, "expect %s: expected a number", what);
        char have[64];
        if (!r->have_stack)
            return expect_failed(r, want, "no stack (not stopped)");
        if (what[0] == 's') {
            snprintf(have, sizeof have, "%zu entries", dwexpr_ctx_stack_depth(r->ctx));
            if (dwexpr_ctx_stack_depth(r->ctx) != n)
                return expect_failed(r, want, have);
        } else {
            snprintf(have, sizeof have, "%s at 0x%x", r->session ? "stopped" : "not stopped",
                     r->stop_offset);
            if (!r->session || r->stop_offset != n)
                return expect_failed(r, want, have);
        }
        return REPL_OK;
    }
    if (strcmp(what, "top") == 0) {
        dwexpr_result e;
        sbuf s = {0};
        char have[600];
        if (!r->have_stack || dwexpr_ctx_stack_depth(r->ctx) == 0 ||
            dwexpr_ctx_stack_get(r->ctx, 0, &e) != DWEXPR_OK)
            return expect_failed(r, want, "no stack entry");
        fmt_result(&s, r->c.arch, &e);
        squeeze(sb_str(&s), have, sizeof have);
        sb_free(&s);
        if (strcmp(have, rest) != 0)
            return expect_failed(r, want, have);
        return REPL_OK;
    }
    return fail(r, "expect: \"%s\"? (value, location, error, read, stack, at, top)", what);
}

/* ---- ELF and process commands (the CLI's locs / frames) ---- */

static repl_status run_tool(repl *r, int (*tool)(int, char **), const char *name, int argc,
                            char **argv, bool with_ctx)
{
    if (!tool)
        return fail(r, "%s: this dwexpr was built without it (libdwarf/libunwind)", name);
    if (r->o.no_files)
        return fail(r, "%s: files are off in this session", name);
    char **av = calloc((size_t)argc + 3, sizeof *av);
    char *ctx = NULL;
    if (!av)
        return fail(r, "out of memory");
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
        return fail(r, "%s failed (see above)", name);
    return REPL_OK;
}

static repl_status real_var(repl *r, const char *name);

/* var BINARY NAME [PC]: the variable's location expression at PC becomes
 * the current expression (its unit's address size and encoding), its
 * function's frame base goes into the context, and it is evaluated for a
 * location; step, picture, read work on it as on any expression. */
static repl_status cmd_var(repl *r, int argc, char **argv)
{
    uint64_t pc;
    repl_var v;
    char err[300];
    if (argc == 2 && r->real)
        return real_var(r, argv[1]);
    if (!r->o.var_expr)
        return fail(r, "var: this dwexpr was built without libdwarf");
    if (r->o.no_files)
        return fail(r, "var: files are off in this session");
    if (argc < 3 || argc > 4 || (argc == 4 && (parse_num(argv[3], &pc) || argv[3][0] == '-')))
        return fail(r, "var: expected BINARY NAME [PC]");
    if (r->o.var_expr(argv[1], argv[2], argc == 4 ? &pc : NULL, &v, err, sizeof err)) {
        free(v.expr);
        free(v.frame_base);
        return fail(r, "var: %s", err);
    }
    json_t *doc = edit(r);
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
    if (changed ? reload(r, doc) != REPL_OK : (json_decref(doc), false)) {
        free(v.expr);
        return REPL_FAILED;
    }
    char *hex = out_hex(v.expr, v.len);
    free(v.expr);
    fprintf(r->o.out, "%s\n", v.what);
    bool ok;
    repl_status st = set_expr_unit(r, hex, true, &v.unit, &ok);
    free(hex);
    if (!ok)
        return st;
    for (size_t i = 0; i < dwexpr_program_count(r->prog); i++) {
        char text[256];
        const dwexpr_op *op = dwexpr_program_op(r->prog, i);
        dwexpr_op_format(op, r->c.arch, text, sizeof text);
        fprintf(r->o.out, "  0x%04x: %s\n", (unsigned)op->offset, text);
    }
    /* a variable's DW_AT_location asks for a location (seed "DWARF
     * Location Description") */
    dwexpr_result_kind kind = r->c.params.result_kind;
    r->c.params.result_kind = DWEXPR_RESULT_LOCATION;
    st = run(r, STOP_NEVER, 0);
    r->c.params.result_kind = kind;
    if (r->have_result)
        r->obj_bits = v.bit_size;
    return st;
}

/* core CORE BINARY / attach PID BINARY: a real process image. */
static repl_status cmd_open_real(repl *r, int argc, char **argv, bool core)
{
    uint64_t pid = 0;
    char err[400];
    if (!r->o.real)
        return fail(r, "%s: this dwexpr was built without libdwarf and libunwind", argv[0]);
    if (r->o.no_files)
        return fail(r, "%s: files are off in this session", argv[0]);
    if (argc != 3 || (!core && (parse_num(argv[1], &pid) || pid == 0 || pid > INT32_MAX)))
        return fail(r, core ? "core: expected CORE BINARY" : "attach: expected PID BINARY");
    void *h = r->o.real->open(core ? argv[1] : NULL, (int)pid, argv[2], err, sizeof err);
    if (!h)
        return fail(r, "%s: %s", argv[0], err);
    invalidate(r);
    if (r->real)
        r->o.real->close(r->real);
    r->real = h;
    r->real_frame = 0;
    /* the libunwind adapter is x86-64: name its registers */
    if (strcmp(r->c.arch_name, "x86_64") != 0) {
        json_t *doc = edit(r);
        json_object_set_new(doc, "arch", json_string("x86_64"));
        reload(r, doc);
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

static repl_status cmd_frame(repl *r, int argc, char **argv)
{
    uint64_t n;
    char d[300];
    if (!r->real)
        return fail(r, "frame: no process image (core CORE BINARY, attach PID BINARY)");
    if (argc > 2 || (argc == 2 && (parse_num(argv[1], &n) || argv[1][0] == '-')))
        return fail(r, "frame: expected an optional frame number");
    if (argc == 2) {
        if (n >= r->o.real->frame_count(r->real))
            return fail(r, "frame %" PRIu64 ": the image has frames 0..%zu", n,
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
        return fail(r, "cannot create an evaluation context");
    end_session(r, NULL);
    invalidate(r);
    dwexpr_eval_params hk = r->c.params;
    r->mode = STOP_NEVER;
    r->events = r->quiet_until = 0;
    r->stopped = r->interrupted = false;
    r->prev_op[0] = 0;
    hk.trace = hook;
    hk.trace_arg = r;
    uint64_t bits = 0;
    int rc = r->o.real->var(r->real, r->real_frame, name, r->ctx, &hk, &r->res, &e, &bits, what,
                            sizeof what);
    if (rc < 0)
        return fail(r, "var: %s", what);
    fprintf(r->o.out, "%s\n", what);
    if (rc > 0) {
        r->have_stack = true;
        free(r->text);
        r->text = NULL;
        report(r, &e, -1);
        return REPL_OK;
    }
    r->have_result = r->res_real = true;
    r->obj_bits = bits;
    show_result(r);
    return REPL_OK;
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
    {"elf", "BINARY [locs options]", "list a binary's variables and locations (libdwarf); "
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

static repl_status cmd_help(repl *r, int argc, char **argv)
{
    if (argc > 1) {
        const command *c = find_command(argv[1]);
        if (!c)
            return fail(r, "help: no command \"%s\"", argv[1]);
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
        return fail(r, "out of memory");
    int argc = split_words(line, buf, cap, w, MAXW);
    const char *cmd = w[0];
    repl_status st;
    if (dwexpr_op_by_name(cmd, strlen(cmd)) != DWEXPR_OP_COUNT && !find_command(cmd)) {
        bool ok;
        st = set_expr(r, line, false, &ok);
        if (ok)
            st = run(r, STOP_NEVER, 0);
        free(buf);
        return st;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "?"))
        st = cmd_help(r, argc, w);
    else if (!strcmp(cmd, "arch"))
        st = cmd_arch(r, argc, w);
    else if (!strcmp(cmd, "lane"))
        st = cmd_lane(r, argc, w);
    else if (!strcmp(cmd, "reg"))
        st = cmd_reg(r, argc, w);
    else if (!strcmp(cmd, "regnames"))
        st = cmd_regnames(r, argc, w);
    else if (!strcmp(cmd, "mem"))
        st = cmd_mem(r, argc, w);
    else if (!strcmp(cmd, "clear"))
        st = cmd_clear(r, argc, w);
    else if (!strcmp(cmd, "set"))
        st = cmd_set(r, line, argc, w);
    else if (!strcmp(cmd, "unset"))
        st = cmd_unset(r, argc, w);
    else if (!strcmp(cmd, "limit"))
        st = cmd_limit(r, argc, w);
    else if (!strcmp(cmd, "context"))
        st = cmd_context(r, argc, w);
    else if (!strcmp(cmd, "load"))
        st = cmd_load(r, argc, w);
    else if (!strcmp(cmd, "save"))
        st = cmd_save(r, argc, w);
    else if (!strcmp(cmd, "eval"))
        st = cmd_eval(r, line, argc, w);
    else if (!strcmp(cmd, "asm"))
        st = cmd_asm(r, line);
    else if (!strcmp(cmd, "disasm"))
        st = cmd_disasm(r, line, argc);
    else if (!strcmp(cmd, "trace")) {
        if (argc != 2 || (strcmp(w[1], "on") && strcmp(w[1], "off")))
            st = fail(r, "trace: on or off");
        else
            r->trace = strcmp(w[1], "on") == 0, st = REPL_OK;
    } else if (!strcmp(cmd, "start"))
        st = cmd_start(r, line, argc, w);
    else if (!strcmp(cmd, "step") || !strcmp(cmd, "s"))
        st = cmd_step(r, argc, w, STOP_STEP);
    else if (!strcmp(cmd, "next") || !strcmp(cmd, "n"))
        st = cmd_step(r, argc, w, STOP_NEXT);
    else if (!strcmp(cmd, "continue") || !strcmp(cmd, "c"))
        st = cmd_step(r, argc, w, STOP_CONTINUE);
    else if (!strcmp(cmd, "break") || !strcmp(cmd, "b"))
        st = cmd_break(r, argc, w, false);
    else if (!strcmp(cmd, "delete"))
        st = cmd_break(r, argc, w, true);
    else if (!strcmp(cmd, "stack"))
        st = cmd_stack(r, argc, w);
    else if (!strcmp(cmd, "result")) {
        if (r->have_result)
            show_result(r), st = REPL_OK;
        else
            st = fail(r, "result: no result (evaluate something)");
    } else if (!strcmp(cmd, "read"))
        st = cmd_read(r, argc, w);
    else if (!strcmp(cmd, "write"))
        st = cmd_write(r, argc, w);
    else if (!strcmp(cmd, "picture"))
        st = cmd_picture(r, argc, w);
    else if (!strcmp(cmd, "expect"))
        st = cmd_expect(r, line, argc, w);
    else if (!strcmp(cmd, "echo"))
        fprintf(r->o.out, "%s\n", after_words(line, 1)), st = REPL_OK;
    else if (!strcmp(cmd, "core") || !strcmp(cmd, "attach"))
        st = cmd_open_real(r, argc, w, cmd[0] == 'c');
    else if (!strcmp(cmd, "frame"))
        st = cmd_frame(r, argc, w);
    else if (!strcmp(cmd, "var"))
        st = cmd_var(r, argc, w);
    else if (!strcmp(cmd, "elf"))
        st = argc < 2 ? fail(r, "elf: expected BINARY") : run_tool(r, r->o.locs, "elf", argc, w, true);
    else if (!strcmp(cmd, "frames"))
        st = run_tool(r, r->o.frames, "frames", argc, w, false);
    else if (!strcmp(cmd, "quit") || !strcmp(cmd, "exit"))
        st = REPL_QUIT;
    else
        st = fail(r, "unknown command \"%s\" (help lists them)", cmd);
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
        return fail(r, "out of memory");
    memcpy(copy, text, n + 1);
    typedef struct { char *text; unsigned line; } cmdline;
    cmdline *cmds = calloc(n / 2 + 2, sizeof *cmds);
    size_t nc = 0;
    unsigned lineno = 1;
    char *p = copy;
    if (!cmds) {
        free(copy);
        return fail(r, "out of memory");
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
