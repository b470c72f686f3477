/* examples/dwexpr/cmd_frames.c: `dwexpr frames`: the call stack of a core
 * file or a stopped process, unwound by dwexpr's own CFI engine over the
 * libunwind host target, cross-checked against libunwind (contract
 * "dwexpr frames"). */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <dwexpr.h>
#include "cmds.h"
#include "debugfile.h"
#include "output.h"
#include "funcname.h"
#ifdef DWEXPR_HAVE_LIBUNWIND
#include <dwexpr/adapter_libunwind.h>
#endif

static const char usage_frames[] =
    "usage: dwexpr frames --core CORE [--thread TID] [--json] [--max N] BINARY\n"
    "       dwexpr frames --pid PID [--json] [--max N]\n"
    "\n"
    "  --thread TID  the core's thread whose id (LWP) is TID (default: its first,\n"
    "                the thread that crashed or GDB's selected one); the JSON\n"
    "                lists the core's \"threads\"\n"
    "  --max N   unwind at most N frames (default 4096); a deeper stack is listed\n"
    "            to frame N - 1 with an error (exit status 1)\n";

/* A usage error: MSG (and, with JSON, the failure object on stdout), then
 * the usage text on stderr; exit status 2. */
static int frames_usage(bool json, const char *msg, const char *arg)
{
    out_usage(json, "dwexpr frames", "%s%s%s", msg, arg ? " " : "", arg ? arg : "");
    fputs(usage_frames, stderr);
    return 2;
}

#ifdef DWEXPR_HAVE_LIBUNWIND

typedef frames_module module;
typedef frames_modules modules;

/* Open every distinct file of the mappings and its CFI (files that cannot
 * be read are skipped: their frames cannot be unwound). */
/* M's separate debug file (debugfile_find in DIRS), opened the first
 * time a name is not in M's own symbol tables; NULL if there is none. */
static const dwexpr_elf *module_symfile(module *m, const char *dirs)
{
    if (!m->symfile_tried) {
        m->symfile_tried = true;
        char why[512];
        char *path = debugfile_find(m->path, m->elf, dirs ? dirs : DEBUGFILE_DEFAULT_DIRS, why,
                                    sizeof why);
        dwexpr_error e;
        if (path && dwexpr_elf_open_file(path, &m->symfile, &e))
            m->symfile = NULL;
        free(path);
    }
    return m->symfile;
}

/* The vDSO of U as a module "[vdso]" of MS (its image from the target:
 * no file holds it) with its .eh_frame: frames stopped in clock_gettime
 * unwind through it, as GDB's and libunwind's do. */
static void load_vdso_module(dwexpr_unw *u, const dwexpr_arch *arch, frames_modules *ms)
{
    uint64_t base, bias;
    size_t size;
    const uint8_t *img = dwexpr_unw_vdso(u, &base, &size);
    dwexpr_elf *elf;
    dwexpr_error e;
    uint8_t *copy = img ? malloc(size) : NULL;
    if (!copy)
        return;
    memcpy(copy, img, size);
    if (dwexpr_elf_open_mem(copy, size, &elf, &e)) {
        free(copy);
        return;
    }
    module *nm = realloc(ms->m, (ms->n + 1) * sizeof *nm);
    if (dwexpr_elf_load_bias(elf, base, 0, 4096, &bias) || !nm) {
        if (nm)
            ms->m = nm;
        dwexpr_elf_free(elf);
        free(copy);
        return;
    }
    ms->m = nm;
    module *m = &ms->m[ms->n++];
    memset(m, 0, sizeof *m);
    m->path = strdup("[vdso]");
    m->elf = elf;
    m->image = copy;
    m->bias = bias;
    m->lo = base;
    m->hi = base + size;
    dwexpr_cfi_section s;
    if (dwexpr_elf_cfi_section(elf, DWEXPR_CFI_EH_FRAME, m->bias, arch, &s) == DWEXPR_OK &&
        dwexpr_cfi_open(&s, &m->eh, &e))
        fprintf(stderr, "dwexpr: [vdso]: .eh_frame: %s (at 0x%llx)\n", e.message,
                (unsigned long long)e.offset);
    /* libunwind 1.6 does not find the vDSO's CFI (its frames there
     * disagree with GDB's, which dwexpr's agree with): not cross-checked */
    if (m->eh)
        dwexpr_unw_cfi_unseen(u, m->eh);
}

void frames_load_modules(dwexpr_unw *u, const dwexpr_arch *arch, frames_modules *ms)
{
    load_vdso_module(u, arch, ms);
    for (size_t i = 0; i < dwexpr_unw_mapping_count(u); i++) {
        const dwexpr_unw_mapping *mp = dwexpr_unw_mapping_at(u, i);
        module *have = NULL;
        for (size_t k = 0; k < ms->n; k++)
            if (strcmp(ms->m[k].path, mp->path) == 0)
                have = &ms->m[k];
        if (have) {
            if (mp->start < have->lo)
                have->lo = mp->start;
            if (mp->end > have->hi)
                have->hi = mp->end;
            continue;
        }
        dwexpr_elf *elf;
        dwexpr_error e;
        if (dwexpr_elf_open_file(mp->path, &elf, &e))
            continue;
        uint64_t bias = 0;
        if (dwexpr_elf_load_bias(elf, mp->start, mp->file_offset, 4096, &bias)) {
            dwexpr_elf_free(elf);
            continue;
        }
        module *nm = realloc(ms->m, (ms->n + 1) * sizeof *nm);
        if (!nm) {
            dwexpr_elf_free(elf);
            return;
        }
        ms->m = nm;
        module *m = &ms->m[ms->n++];
        memset(m, 0, sizeof *m);
        m->path = strdup(mp->path);
        m->elf = elf;
        m->bias = dwexpr_elf_type(elf) == 2 ? 0 : bias; /* ET_EXEC is not relocated */
        m->lo = mp->start;
        m->hi = mp->end;
        dwexpr_cfi_section s;
        if (dwexpr_elf_cfi_section(elf, DWEXPR_CFI_EH_FRAME, m->bias, arch, &s) == DWEXPR_OK &&
            dwexpr_cfi_open(&s, &m->eh, &e))
            fprintf(stderr, "dwexpr: %s: .eh_frame: %s (at 0x%llx)\n", m->path, e.message,
                    (unsigned long long)e.offset);
        /* .debug_frame: the file's own, else its separate debug file's
         * (strip -g moves .debug_frame there with the DWARF; GDB reads it
         * from the debug file; code built -fno-asynchronous-unwind-tables
         * has no other CFI) */
        const dwexpr_elf *cf = elf;
        if (dwexpr_elf_cfi_section(elf, DWEXPR_CFI_DEBUG_FRAME, m->bias, arch, &s) != DWEXPR_OK)
            cf = module_symfile(m, ms->debug_dirs);
        if (cf && (cf == elf || dwexpr_elf_cfi_section(cf, DWEXPR_CFI_DEBUG_FRAME, m->bias, arch,
                                                       &s) == DWEXPR_OK) &&
            dwexpr_cfi_open(&s, &m->dbg, &e))
            fprintf(stderr, "dwexpr: %s: .debug_frame: %s (at 0x%llx)\n",
                    cf == elf ? m->path : "its debug file", e.message,
                    (unsigned long long)e.offset);
        /* libunwind reads the mapped file's CFI only (dwexpr_unw_crosscheck) */
        if (m->dbg && cf != elf)
            dwexpr_unw_cfi_unseen(u, m->dbg);
    }
}

void frames_free_modules(frames_modules *ms)
{
    for (size_t k = 0; k < ms->n; k++) {
        dwexpr_cfi_free(ms->m[k].eh);
        dwexpr_cfi_free(ms->m[k].dbg);
        dwexpr_elf_free(ms->m[k].elf);
        dwexpr_elf_free(ms->m[k].symfile);
        free(ms->m[k].image);
        free(ms->m[k].path);
    }
    free(ms->m);
}


/* "name" for ADDR, from the ELF symbol tables of its file, else of that
 * file's separate debug file; "??" */
void frames_func_name(frames_modules *ms, uint64_t addr, char *buf, size_t cap)
{
    snprintf(buf, cap, "??");
    for (size_t k = 0; k < ms->n; k++) {
        module *m = &ms->m[k];
        if (addr < m->lo || addr >= m->hi)
            continue;
        const char *name;
        uint64_t off;
        const dwexpr_elf *sf;
        if (dwexpr_elf_symbolize(m->elf, addr - m->bias, &name, &off) != DWEXPR_OK &&
            (!(sf = module_symfile(m, ms->debug_dirs)) ||
             dwexpr_elf_symbolize(sf, addr - m->bias, &name, &off) != DWEXPR_OK))
            return;
        /* a C++ symbol as GDB prints it (funcname_demangle) */
        if (!funcname_demangle(name, buf, cap))
            snprintf(buf, cap, "%s", name);
        return;
    }
}

/* Read 64 bits through S with the unwinding target. */
static bool read_value(dwexpr_unwinder *uw, const dwexpr_sld *s, uint64_t *v)
{
    dwexpr_ctx *ctx;
    if (dwexpr_ctx_new(NULL, &ctx))
        return false;
    dwexpr_loc loc = {1, s};
    uint8_t b[8] = {0};
    bool ok = dwexpr_loc_read(ctx, dwexpr_unwinder_target(), uw, &loc, 64, b, NULL) == DWEXPR_OK;
    dwexpr_ctx_free(ctx);
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = (x << 8) | b[i];
    *v = x;
    return ok;
}

/* Text form of a register location. */
static void sld_text(const dwexpr_arch *arch, const dwexpr_sld *s, char *buf, size_t cap)
{
    switch (s->kind) {
    case DWEXPR_LOC_MEMORY:
        snprintf(buf, cap, "[0x%" PRIx64 "]", s->byte_offset);
        break;
    case DWEXPR_LOC_REGISTER: {
        const char *n = dwexpr_arch_reg_name(arch, s->u.regno);
        snprintf(buf, cap, "in %s", n ? n : "?");
        break;
    }
    case DWEXPR_LOC_IMPLICIT: snprintf(buf, cap, "(value)"); break;
    case DWEXPR_LOC_UNDEFINED: snprintf(buf, cap, "<undefined>"); break;
    default: snprintf(buf, cap, "(composite)"); break;
    }
}

dwexpr_status frames_unwinder_new(dwexpr_unw *u, const dwexpr_arch *arch,
                                  const frames_modules *ms, uint32_t max, dwexpr_unwinder **out)
{
    dwexpr_unwind_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.size = sizeof cfg;
    cfg.arch = arch;
    cfg.unit.addr_size = 8;
    cfg.pc_regno = 16;
    cfg.max_frames = max;
    dwexpr_unwinder *uw;
    dwexpr_status st = dwexpr_unwinder_new(&cfg, dwexpr_unw_target(), u, &uw);
    if (st)
        return st;
    /* .eh_frame of every module first (what the runtime uses), then
     * .debug_frame */
    for (size_t k = 0; k < ms->n; k++)
        if (ms->m[k].eh)
            dwexpr_unwinder_add_cfi(uw, ms->m[k].eh);
    for (size_t k = 0; k < ms->n; k++)
        if (ms->m[k].dbg)
            dwexpr_unwinder_add_cfi(uw, ms->m[k].dbg);
    *out = uw;
    return DWEXPR_OK;
}

dwexpr_status frames_open(const char *core, const char *binary, int pid, uint64_t tid,
                          uint32_t max, dwexpr_unw **u, dwexpr_error *err)
{
    dwexpr_status st = core ? dwexpr_unw_open_core_thread(core, binary, max, tid, u, err)
                            : dwexpr_unw_open_pid(pid, max, u, err);
    if (st == DWEXPR_OK && dwexpr_unw_warning(*u))
        fprintf(stderr, "dwexpr: warning: %s\n", dwexpr_unw_warning(*u));
    return st;
}

void frames_threads_out(dwexpr_unw *u, json_t *top)
{
    uint64_t first[64];
    size_t n = dwexpr_unw_threads(u, first, 64);
    uint64_t *all = n > 64 ? malloc(n * sizeof *all) : first;
    if (!all)
        n = 64;
    else if (all != first)
        dwexpr_unw_threads(u, all, n);
    const uint64_t tid = dwexpr_unw_thread_id(u);
    if (top) {
        json_t *a = json_array();
        for (size_t i = 0; i < n; i++)
            json_array_append_new(a, json_integer((json_int_t)(all ? all : first)[i]));
        json_object_set_new(top, "thread", json_integer((json_int_t)tid));
        json_object_set_new(top, "threads", a);
        if (dwexpr_unw_warning(u)) {
            /* (stderr has it too: frames_open) */
            json_t *w = json_array();
            json_array_append_new(w, json_string(dwexpr_unw_warning(u)));
            json_object_set_new(top, "warnings", w);
        }
    } else if (n > 1) {
        printf("thread %" PRIu64 " (threads:", tid);
        for (size_t i = 0; i < n; i++)
            printf(" %" PRIu64, (all ? all : first)[i]);
        printf(")\n");
    }
    if (all != first)
        free(all);
}

static int run_frames(dwexpr_unw *u, bool json, uint32_t max)
{
    const dwexpr_arch *arch = dwexpr_arch_find("x86_64");
    modules ms = {NULL, 0, NULL};
    frames_load_modules(u, arch, &ms);
    dwexpr_unwinder *uw;
    if (frames_unwinder_new(u, arch, &ms, max, &uw)) {
        frames_free_modules(&ms);
        fputs("dwexpr: out of memory\n", stderr);
        return 1;
    }
    json_t *jframes = json_array();
    int rc = 0;
    uint32_t i;
    if (!json)
        frames_threads_out(u, NULL);
    dwexpr_status st = DWEXPR_OK;
    for (i = 0;; i++) {
        dwexpr_unwind_frame f;
        st = dwexpr_unwinder_frame(uw, i, &f);
        if (st)
            break;
        char fn[256];
        /* a return address is looked up inside its call (pc - 1), as GDB
         * does (get_frame_address_in_block): not below a signal frame (the
         * interrupted pc), nor in the signal trampoline itself, whose pc
         * is its first instruction */
        bool caller = i > 0 && !f.signal_frame;
        if (caller) {
            dwexpr_unwind_frame prev;
            dwexpr_unwinder_frame(uw, i - 1, &prev);
            caller = !prev.signal_frame;
        }
        frames_func_name(&ms, caller ? f.pc - 1 : f.pc, fn, sizeof fn);
        json_t *jf = json_object(), *jr = json_object();
        char hex[32];
        json_object_set_new(jf, "index", json_integer(i));
        json_object_set_new(jf, "function", json_string(fn));
        snprintf(hex, sizeof hex, "0x%" PRIx64, f.pc);
        json_object_set_new(jf, "pc", json_string(hex));
        if (f.has_cfa) {
            snprintf(hex, sizeof hex, "0x%" PRIx64, f.cfa.byte_offset);
            json_object_set_new(jf, "cfa", json_string(hex));
        } else {
            json_object_set_new(jf, "cfa", json_null());
        }
        if (f.signal_frame)
            json_object_set_new(jf, "signal_frame", json_true());
        if (!json)
            printf("#%-2u 0x%016" PRIx64 " in %s  CFA %s%s\n", (unsigned)i, f.pc, fn,
                   f.has_cfa ? hex : "?", f.signal_frame ? "  <signal frame>" : "");
        for (uint32_t r = 0; r <= 16; r++) {
            dwexpr_sld s;
            char key[16];
            snprintf(key, sizeof key, "%u", (unsigned)r);
            if (dwexpr_unwinder_register_location(uw, i, r, &s)) {
                json_object_set_new(jr, key, json_pack("{s:s,s:s}", "kind", "error", "message",
                                                       dwexpr_unwinder_error(uw)->message));
                continue;
            }
            dwexpr_result res;
            memset(&res, 0, sizeof res);
            res.kind = DWEXPR_RESULT_LOCATION;
            res.loc.count = 1;
            res.loc.slds = &s;
            json_t *o = out_result_json(NULL, &res);
            json_t *one = json_incref(json_array_get(json_object_get(o, "locations"), 0));
            json_decref(o);
            uint64_t v;
            bool have = s.kind != DWEXPR_LOC_UNDEFINED && read_value(uw, &s, &v);
            if (have) {
                snprintf(hex, sizeof hex, "0x%" PRIx64, v);
                json_object_set_new(one, "value", json_string(hex));
            }
            json_object_set_new(jr, key, one);
            if (!json && s.kind != DWEXPR_LOC_UNDEFINED) {
                char where[64];
                const char *n = dwexpr_arch_reg_name(arch, r);
                sld_text(arch, &s, where, sizeof where);
                printf("      %-4s %-18s %s\n", n ? n : "?", have ? hex : "<unreadable>", where);
            }
        }
        json_object_set_new(jf, "registers", jr);
        json_array_append_new(jframes, jf);
    }
    json_t *top = json_object();
    frames_threads_out(u, top);
    json_object_set_new(top, "frames", jframes);
    if (st != DWEXPR_E_NOT_FOUND) {
        const dwexpr_error *e = dwexpr_unwinder_error(uw);
        json_object_set_new(top, "error",
                            out_error_json(dwexpr_class_name(dwexpr_status_class(st)), -1, NULL,
                                           e->message));
        if (!json)
            fprintf(stderr, "dwexpr: unwinding stopped after %u frames: %s\n", (unsigned)i,
                    e->message);
        rc = 1;
    }
    /* the rule: dwexpr and libunwind agree on every frame's pc and
     * CFA, and a disagreement is an error */
    char report[4096];
    unsigned checked = 0, bad = 0;
    dwexpr_unw_crosscheck(u, uw, report, sizeof report, &checked, &bad);
    json_t *jc = json_object(), *jd = json_array();
    json_object_set_new(jc, "checked", json_integer(checked));
    for (char *line = strtok(report, "\n"); line; line = strtok(NULL, "\n"))
        json_array_append_new(jd, json_string(line));
    json_object_set_new(jc, "disagreements", jd);
    json_object_set_new(top, "libunwind", jc);
    if (bad) {
        rc = 1;
        for (size_t k = 0; k < json_array_size(jd); k++)
            fprintf(stderr, "dwexpr: libunwind disagrees: %s\n",
                    json_string_value(json_array_get(jd, k)));
    }
    if (json)
        out_print_json(top);
    else {
        printf("libunwind cross-check: %u frames compared, %u disagreements\n", checked, bad);
        json_decref(top);
    }
    dwexpr_unwinder_free(uw);
    frames_free_modules(&ms);
    return rc;
}
#endif

int cmd_frames(int argc, char **argv)
{
    static const char *const valued[] = {"--core", "--pid", "--max", "--thread", NULL};
    /* with --json anywhere, a usage error is the JSON failure object too */
    bool json = out_argv_json(argc, argv, valued);
    const char *core = NULL, *binary = NULL;
    int pid = 0;
    uint64_t tid = 0;
    uint32_t max = 4096; /* LD_MAX_FRAMES: the frames a binding knows pcs of */
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage_frames, stdout);
            return 0;
        } else if (strcmp(a, "--core") == 0) {
            if (!v)
                return frames_usage(json, "expected a file after", a);
            core = v;
            i++;
        } else if (strcmp(a, "--pid") == 0 || strcmp(a, "--max") == 0 ||
                   strcmp(a, "--thread") == 0) {
            if (!v || cli_parse_u64(v, &n) || n == 0 || n > INT_MAX)
                return frames_usage(json, "expected a positive number after", a);
            if (a[2] == 'p')
                pid = (int)n;
            else if (a[2] == 't')
                tid = n;
            else
                max = (uint32_t)n;
            i++;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (a[0] == '-') {
            return frames_usage(json, "unknown option", a);
        } else if (!binary) {
            binary = a;
        } else {
            return frames_usage(json, "more than one binary:", a);
        }
    }
    if (!core == !pid)
        return frames_usage(json, "give one of --core CORE and --pid PID", NULL);
    if (tid && pid)
        return frames_usage(json, "--thread is for --core (give the thread's id as --pid)", NULL);
#ifdef DWEXPR_HAVE_LIBUNWIND
    dwexpr_unw *u;
    dwexpr_error e;
    dwexpr_status st = frames_open(core, binary, pid, tid, max, &u, &e);
    if (st)
        return out_usage(json, "dwexpr", "%s", e.message); /* unreadable input */
    int rc = run_frames(u, json, max);
    dwexpr_unw_close(u);
    return rc;
#else
    (void)max;
    (void)binary;
    (void)tid;
    return out_usage(json, "dwexpr",
                     "frames needs the libunwind adapter, which this build does not have");
#endif
}
