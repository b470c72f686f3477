/* examples/dwexpr/repl_target.c: the REPL commands that set up the
 * simulated target: registers (by name or number, per lane), memory (per
 * address space and lane), architecture, lane, limits, any context field,
 * and context files. Each edits the context document and reloads it. */
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

/* ---- registers ---- */

/* Register REG (a DWARF number or a name of the arch, any case). */
static bool reg_lookup(const repl *r, const char *s, uint32_t *regno)
{
    uint64_t n;
    if (isdigit((unsigned char)s[0])) {
        if (rp_parse_num(s, &n) || n > UINT32_MAX)
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
repl_status rp_cmd_reg(repl *r, int argc, char **argv)
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
        return rp_fail(r, "unknown register \"%s\" for arch %s (`regnames %s` lists names)", argv[1],
                    r->c.arch_name, argv[1]);
    int i = 2;
    bool has_lane = false;
    uint64_t lane = 0;
    if (argc > i && strcmp(argv[i], "lane") == 0) {
        if (argc <= i + 1 || rp_parse_num(argv[i + 1], &lane) || argv[i + 1][0] == '-')
            return rp_fail(r, "reg %s lane: expected a lane number", argv[1]);
        has_lane = true;
        i += 2;
    }
    if (argc == i) {
        print_reg(r, regno, true);
        return REPL_OK;
    }
    if (argc > i + 1)
        return rp_fail(r, "reg: unexpected \"%s\" after the value", argv[i + 1]);
    uint32_t size = reg_size(r, regno);
    if (size == 0)
        return rp_fail(r, "register %u has no known size for arch %s (set \"register_sizes\")",
                    regno, r->c.arch_name);
    if (size > REG_MAX_BYTES)
        return rp_fail(r, "register %u: %u bytes is more than the REPL sets (%u)", regno, size,
                    REG_MAX_BYTES);
    uint8_t *b = calloc(size, 1);
    if (!b)
        return rp_fail(r, "out of memory");
    const char *val = argv[i];
    uint64_t v;
    if (strncmp(val, "hex:", 4) == 0) {
        uint8_t *hb = NULL;
        size_t hl = 0;
        if (cli_hex_decode(val + 4, &hb, &hl) || hl != size) {
            free(hb);
            free(b);
            return rp_fail(r, "reg %s: hex:... must be exactly %u bytes of hex", argv[1], size);
        }
        memcpy(b, hb, size);
        free(hb);
    } else if (rp_parse_num(val, &v)) {
        free(b);
        return rp_fail(r, "reg %s: bad value \"%s\" (a number: 42, 0x2a, -8; or hex:BYTES)", argv[1],
                    val);
    } else if (has_lane) {
        uint32_t nl = r->c.params.lanes;
        if (nl == 0 || size % nl != 0) {
            free(b);
            return rp_fail(r, "reg %s lane %" PRIu64 ": register of %uB is not split into %u lanes",
                        argv[1], lane, size, nl);
        }
        if (lane >= nl) {
            free(b);
            return rp_fail(r, "reg %s lane %" PRIu64 ": lanes are 0..%u", argv[1], lane, nl - 1);
        }
        uint32_t e = size / nl;
        reg_bytes(r, regno, b, size);
        number_bytes(r, v, val[0] == '-', b + lane * e, e);
    } else {
        number_bytes(r, v, val[0] == '-', b, size);
    }
    char *hex = out_hex(b, size);
    free(b);
    json_t *doc = rp_edit(r);
    char key[16];
    snprintf(key, sizeof key, "%u", regno);
    json_object_set_new(rp_doc_regs(doc), key, json_pack("{s:s}", "bytes", hex));
    free(hex);
    if (rp_reload(r, doc) != REPL_OK)
        return REPL_FAILED;
    print_reg(r, regno, has_lane);
    return REPL_OK;
}

/* regnames [PREFIX] */
repl_status rp_cmd_regnames(repl *r, int argc, char **argv)
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
        return rp_fail(r, "no register of arch %s starts with \"%s\"", r->c.arch_name, pre);
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
        if (rp_parse_num(eq + 1, &v) || eq[1] == '-') {
            rp_fail(r, "mem: bad number in \"%s\"", a);
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
            rp_fail(r, "mem: unknown or out-of-range \"%s\" (aspace=A lane=N thread=T len=1..4096)",
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
repl_status rp_cmd_mem(repl *r, int argc, char **argv)
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
    if (rp_parse_num(argv[i], &addr) || argv[i][0] == '-')
        return rp_fail(r, "mem: bad address \"%s\"", argv[i]);
    if (i + 1 == argc) {
        print_mem(r, &m, addr);
        return REPL_OK;
    }
    if (i + 2 != argc)
        return rp_fail(r, "mem: expected ADDR HEX, got more words");
    uint8_t *bytes = NULL;
    size_t n = 0;
    if (cli_hex_decode(argv[i + 1], &bytes, &n) || n == 0) {
        free(bytes);
        return rp_fail(r, "mem: \"%s\" is not hex bytes (e.g. 0102ff)", argv[i + 1]);
    }
    char *hex = out_hex(bytes, n), addr_s[24];
    free(bytes);
    snprintf(addr_s, sizeof addr_s, "0x%" PRIx64, addr);
    json_t *doc = rp_edit(r), *mem = json_object_get(doc, "memory"), *b;
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
    if (rp_reload(r, doc) != REPL_OK)
        return REPL_FAILED;
    m.len = n;
    print_mem(r, &m, addr);
    return REPL_OK;
}

/* clear reg [R] | clear mem [opts ADDR] | clear breaks */
repl_status rp_cmd_clear(repl *r, int argc, char **argv)
{
    if (argc < 2)
        return rp_fail(r, "clear: what? (clear reg [R], clear mem [ADDR], clear breaks)");
    if (strcmp(argv[1], "breaks") == 0) {
        r->nbreaks = 0;
        return REPL_OK;
    }
    json_t *doc = rp_edit(r);
    if (strcmp(argv[1], "reg") == 0) {
        json_t *regs = rp_doc_regs(doc);
        if (argc == 2) {
            json_object_clear(regs);
        } else {
            uint32_t regno;
            char key[16];
            if (!reg_lookup(r, argv[2], &regno)) {
                json_decref(doc);
                return rp_fail(r, "unknown register \"%s\" for arch %s", argv[2], r->c.arch_name);
            }
            snprintf(key, sizeof key, "%u", regno);
            if (json_object_del(regs, key)) {
                json_decref(doc);
                return rp_fail(r, "register %s is not set", argv[2]);
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
        } else if (i + 1 != argc || rp_parse_num(argv[i], &addr)) {
            json_decref(doc);
            return rp_fail(r, "clear mem: expected [aspace=A lane=N thread=T] ADDR");
        } else {
            size_t k, removed = 0;
            for (k = json_array_size(mem); k-- > 0;)
                if (block_is(json_array_get(mem, k), &m, addr)) {
                    json_array_remove(mem, k);
                    removed++;
                }
            if (!removed) {
                json_decref(doc);
                return rp_fail(r, "clear mem: no block starts at 0x%" PRIx64 " there", addr);
            }
        }
    } else {
        json_decref(doc);
        return rp_fail(r, "clear: \"%s\"? (reg, mem or breaks)", argv[1]);
    }
    return rp_reload(r, doc);
}

/* ---- settings ---- */

/* set KEY VALUE: any context field, VALUE as JSON (else a string). */
repl_status rp_cmd_set(repl *r, const char *line, int argc, char **argv)
{
    if (argc < 3)
        return rp_fail(r, "set: expected KEY VALUE (e.g. set pc 0x401000)");
    const char *val = rp_after_words(line, 2);
    json_error_t je;
    json_t *v = json_loads(val, JSON_DECODE_ANY, &je);
    if (!v)
        v = json_string(val);
    json_t *doc = rp_edit(r);
    json_object_set_new(doc, argv[1], v);
    return rp_reload(r, doc);
}

repl_status rp_cmd_unset(repl *r, int argc, char **argv)
{
    if (argc != 2)
        return rp_fail(r, "unset: expected one KEY");
    json_t *doc = rp_edit(r);
    if (json_object_del(doc, argv[1])) {
        json_decref(doc);
        return rp_fail(r, "unset: \"%s\" is not set", argv[1]);
    }
    return rp_reload(r, doc);
}

repl_status rp_cmd_arch(repl *r, int argc, char **argv)
{
    if (argc == 1) {
        fprintf(r->o.out, "arch %s (address size %u)\n", r->c.arch_name, r->c.unit.addr_size);
        return REPL_OK;
    }
    if (argc != 2 || !dwexpr_arch_find(argv[1]))
        return rp_fail(r, "arch: unknown \"%s\" (generic32, generic64, x86_64, amdgpu-wave64, "
                       "amdgpu-wave32)", argc > 1 ? argv[1] : "");
    json_t *doc = rp_edit(r);
    json_object_set_new(doc, "arch", json_string(argv[1]));
    return rp_reload(r, doc);
}

repl_status rp_cmd_lane(repl *r, int argc, char **argv)
{
    uint64_t n;
    if (argc == 1) {
        if (r->c.params.ctx & DWEXPR_CTX_LANE)
            fprintf(r->o.out, "lane %u of %u\n", r->c.params.lane, r->c.params.lanes);
        else
            fprintf(r->o.out, "no current lane (%u lanes)\n", r->c.params.lanes);
        return REPL_OK;
    }
    if (argc != 2 || rp_parse_num(argv[1], &n) || argv[1][0] == '-' || n > UINT32_MAX)
        return rp_fail(r, "lane: expected a lane number");
    if (r->c.params.lanes && n >= r->c.params.lanes)
        return rp_fail(r, "lane %" PRIu64 ": this context has lanes 0..%u", n, r->c.params.lanes - 1);
    json_t *doc = rp_edit(r);
    json_object_set_new(doc, "lane", json_integer((json_int_t)n));
    return rp_reload(r, doc);
}

/* limit steps|stack|calls|parts N */
repl_status rp_cmd_limit(repl *r, int argc, char **argv)
{
    uint64_t n;
    if (argc == 1) {
        fprintf(r->o.out, "steps %" PRIu64 " stack %u calls %u (0: the default)\n",
                r->c.limits.steps, r->c.limits.stack, r->c.limits.calls);
        return REPL_OK;
    }
    if (argc != 3 || rp_parse_num(argv[2], &n) || argv[2][0] == '-' ||
        (strcmp(argv[1], "steps") && strcmp(argv[1], "stack") && strcmp(argv[1], "calls") &&
         strcmp(argv[1], "parts")))
        return rp_fail(r, "limit: expected steps|stack|calls|parts N");
    json_t *doc = rp_edit(r), *lim = json_object_get(doc, "limits");
    if (!json_is_object(lim)) {
        lim = json_object();
        json_object_set_new(doc, "limits", lim);
    }
    char s[24];
    snprintf(s, sizeof s, "%" PRIu64, n);
    json_object_set_new(lim, argv[1], json_string(s));
    return rp_reload(r, doc);
}

repl_status rp_cmd_load(repl *r, int argc, char **argv)
{
    if (argc != 2)
        return rp_fail(r, "load: expected FILE");
    if (r->o.no_files)
        return rp_fail(r, "load: files are off in this session");
    FILE *f = fopen(argv[1], "rb");
    if (!f)
        return rp_fail(r, "load: cannot open %s: %s", argv[1], strerror(errno));
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
        return rp_fail(r, "load: out of memory");
    text[n] = 0;
    rp_strip_comments(text);
    json_error_t je;
    json_t *doc = json_loads(text, JSON_REJECT_DUPLICATES, &je);
    free(text);
    if (!doc)
        return rp_fail(r, "load: %s line %d column %d: %s", argv[1], je.line, je.column, je.text);
    if (!json_is_object(doc)) {
        json_decref(doc);
        return rp_fail(r, "load: %s: expected a JSON object", argv[1]);
    }
    if (rp_reload(r, doc) != REPL_OK)
        return REPL_FAILED;
    fprintf(r->o.out, "loaded %s (arch %s)\n", argv[1], r->c.arch_name);
    return REPL_OK;
}

repl_status rp_cmd_save(repl *r, int argc, char **argv)
{
    if (argc != 2)
        return rp_fail(r, "save: expected FILE");
    if (r->o.no_files)
        return rp_fail(r, "save: files are off in this session");
    if (json_dump_file(r->doc, argv[1], JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
        return rp_fail(r, "save: cannot write %s", argv[1]);
    fprintf(r->o.out, "saved %s\n", argv[1]);
    return REPL_OK;
}

/* context: the document as JSON. */
repl_status rp_cmd_context(repl *r, int argc, char **argv)
{
    (void)argc;
    (void)argv;
    char *s = json_dumps(r->doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fprintf(r->o.out, "%s\n", s ? s : "{}");
    free(s);
    return REPL_OK;
}
