/* examples/dwexpr/cmd_vars.c: `dwexpr vars` (contract "dwexpr vars"):
 * every frame of a core file or a stopped process, unwound by dwexpr's
 * CFI engine over the libunwind host target (cross-checked against
 * libunwind), and in each frame every variable and parameter in scope at
 * its pc evaluated with the binary's DWARF (libdwarf adapter) and read
 * through its location. Inlined calls are frames of their own, innermost
 * first; between a frame and its caller come GDB's tail call frames
 * (dwexpr_libdwarf_tail_frames, vframes.c); location lists are matched
 * at the pc in frame 0 and at pc - 1 in caller frames. A frame is read
 * with the DWARF of the module (executable or shared library) its pc is
 * in, opened when a frame first needs it: the file's own, else its
 * separate debug file (debugfile.c). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd_locs.h"
#include "cmds.h"
#include "debugfile.h"
#include "output.h"
#include "vframes.h"

static const char usage_vars[] =
    "usage: dwexpr vars --core CORE [OPTIONS] BINARY\n"
    "       dwexpr vars --pid PID [OPTIONS] BINARY\n"
    "\n"
    "Every frame of the core file or stopped process (inlined calls as frames\n"
    "of their own; functions that jumped to their callee as GDB's tail call\n"
    "frames) with every variable and parameter in scope at its pc: its\n"
    "location, evaluated with the DWARF of the frame's module (BINARY or a\n"
    "shared library; a file without DWARF of its own is read from its separate\n"
    "debug file), and its bytes read through it (\"xx\" for bytes in undefined\n"
    "storage); then the globals of BINARY.\n"
    "\n"
    "options:\n"
    "  --json                one JSON object on stdout\n"
    "  --max N               unwind at most N frames (default 4096)\n"
    "  --thread TID          the core's thread whose id (LWP) is TID (default: its\n"
    "                        first); the JSON lists the core's \"threads\"\n"
    "  --entry-values register|call-site|register-only\n"
    "                        how DW_OP_entry_value is resolved (default register:\n"
    "                        the caller's register if unwinding recovers it, else\n"
    "                        the call-site parameter)\n"
    "  --no-dwo              do not read split DWARF .dwo files\n"
    "  --debug-dir DIRS      where separate debug files are looked for, ':' between\n"
    "                        directories (GDB's debug-file-directory; default\n"
    "                        " DEBUGFILE_DEFAULT_DIRS "): DIR/.build-id/xx/yyyy.debug by\n"
    "                        build id, then by .gnu_debuglink next to the file, in\n"
    "                        its .debug/ and under DIR/ + the file's directory\n"
    "\n"
    "The thread: a core's first (NT_PRSTATUS: the thread that crashed, or the\n"
    "one GDB had selected when it wrote the core), or the one --thread names;\n"
    "with --pid, the thread whose\n"
    "id is the number given (the main thread for a process id; give another\n"
    "thread's id, from /proc/PID/task, for that thread).\n"
    "\n"
    "Thread-local variables are found as GDB finds them (x86-64 glibc): a\n"
    "module's TLS block is entry l_tls_modid of the thread's DTV (at the thread\n"
    "pointer, fs_base), its link_map found through the executable's DT_DEBUG;\n"
    "the main executable's is its static block below the thread pointer. A\n"
    "block the thread has not allocated (a dlopen'ed library's it never used)\n"
    "is an error, said on stderr.\n"
    "\n"
    "exit status: 0 ok, 1 some location could not be evaluated or unwinding\n"
    "failed, 2 bad usage or unreadable input\n";

enum { VARS_OK = 0, VARS_ERROR = 1, VARS_USAGE = 2 };

typedef struct vars_opts {
    const char *core, *binary;
    const char *debug_dirs;     /* --debug-dir, else DEBUGFILE_DEFAULT_DIRS */
    int pid;
    uint64_t tid;               /* --thread: a core's thread (0: its first) */
    bool json, no_dwo, help;
    uint32_t max;
    dwexpr_libdwarf_entry_policy policy;
} vars_opts;

/* Whether this run's output is JSON: usage and input errors are then the
 * contract's failure object on stdout too ("--json prints exactly one
 * JSON object"), wherever --json stands on the command line. */
static bool usage_json;

/* "dwexpr vars: MESSAGE ARG" on stderr (and the JSON failure object);
 * returns VARS_USAGE. */
static int usage(const char *msg, const char *arg)
{
    return out_usage(usage_json, "dwexpr vars", "%s%s%s", msg, arg ? " " : "", arg ? arg : "");
}

/* Parse the command line. Returns 0 or an exit status. */
static int parse(int argc, char **argv, vars_opts *o)
{
    static const char *const valued[] = {"--core",         "--pid",       "--max",
                                         "--entry-values", "--debug-dir", "--thread",
                                         NULL};
    memset(o, 0, sizeof *o);
    o->max = 4096; /* LD_MAX_FRAMES: the frames a binding knows pcs of */
    o->debug_dirs = DEBUGFILE_DEFAULT_DIRS;
    usage_json = out_argv_json(argc, argv, valued);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            o->help = true;
        } else if (strcmp(a, "--json") == 0) {
            o->json = usage_json = true;
        } else if (strcmp(a, "--no-dwo") == 0) {
            o->no_dwo = true;
        } else if (strcmp(a, "--core") == 0) {
            if (!v)
                return usage("expected a file after", a);
            o->core = v;
            i++;
        } else if (strcmp(a, "--debug-dir") == 0) {
            if (!v)
                return usage("expected directories after", a);
            o->debug_dirs = v;
            i++;
        } else if (strcmp(a, "--pid") == 0 || strcmp(a, "--max") == 0 ||
                   strcmp(a, "--thread") == 0) {
            uint64_t n;
            if (!v || cli_parse_u64(v, &n) || n == 0 || n > INT_MAX)
                return usage("expected a positive number after", a);
            if (a[2] == 'p')
                o->pid = (int)n;
            else if (a[2] == 't')
                o->tid = n;
            else
                o->max = (uint32_t)n;
            i++;
        } else if (strcmp(a, "--entry-values") == 0) {
            if (!v)
                return usage("expected register|call-site|register-only after", a);
            if (locs_entry_policy(v, &o->policy) != 0)
                return usage("unknown --entry-values", v);
            i++;
        } else if (a[0] == '-' && a[1]) {
            return usage("unknown option", a);
        } else if (!o->binary) {
            o->binary = a;
        } else {
            return usage("more than one binary:", a);
        }
    }
    if (o->help)
        return 0;
    if (!o->core == !o->pid)
        return usage("give one of --core CORE and --pid PID", NULL);
    if (o->tid && o->pid)
        return usage("--thread is for --core (give the thread's id as --pid)", NULL);
    if (!o->binary)
        return usage("no binary given", NULL);
    return 0;
}

#ifdef DWEXPR_HAVE_LIBUNWIND

/* Open the DWARF of the file PATH (its image ELF, or NULL to read it
 * here): the file's own when it has some (.debug_info), else that of its
 * separate debug file (debugfile_find under O's directories), whose path
 * goes to *DEBUG_FILE (malloc'ed; NULL when the DWARF is the file's own).
 * On failure *LD is NULL and WHY says why. */
static dwexpr_status open_dwarf(const vars_opts *o, const char *path, const dwexpr_elf *elf,
                                dwexpr_libdwarf **ld, char **debug_file, char *why, size_t cap)
{
    *ld = NULL;
    *debug_file = NULL;
    dwexpr_elf *own = NULL;
    dwexpr_error err;
    if (!elf && dwexpr_elf_open_file(path, &own, &err) == DWEXPR_OK)
        elf = own;
    char *found = NULL;
    if (elf && !debugfile_has_dwarf(elf)) {
        found = debugfile_find(path, elf, o->debug_dirs, why, cap);
        if (!found) {
            dwexpr_elf_free(own);
            return DWEXPR_E_NOT_FOUND;
        }
    }
    dwexpr_elf_free(own);
    unsigned flags = o->no_dwo ? DWEXPR_LIBDWARF_NO_DWO : 0;
    dwexpr_status st = dwexpr_libdwarf_open(found ? found : path, flags, ld, &err);
    if (st) {
        snprintf(why, cap, "%s", err.message);
        free(found);
        return st;
    }
    /* a split unit whose .dwo could not be read has no variables: say why
     * (as GDB warns of a DWO it cannot find) */
    for (size_t i = 0; i < dwexpr_libdwarf_unit_count(*ld); i++) {
        const dwexpr_libdwarf_unit *u = dwexpr_libdwarf_unit_get(*ld, i);
        if (u->dwo_error)
            fprintf(stderr, "dwexpr vars: warning: %s: unit %zu's .dwo not read: %s\n",
                    found ? found : path, i, u->dwo_error);
    }
    *debug_file = found;
    return DWEXPR_OK;
}

/* "0x..." as a JSON string. */
static json_t *hexnum(uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "0x%" PRIx64, v);
    return json_string(buf);
}

/* The frames `vars` shows (tail call frames among the machine frames)
 * and the unwinder behind them: FRAME_CFA's user. */
typedef struct vars_frames {
    vframes *v;
    dwexpr_unwinder *uw;
} vars_frames;

/* The CFA of each frame, merged into its frame objects: its machine
 * frame's, or for a tail call frame that of the frame below it (GDB's
 * frame id of a tail call frame is its callee's). */
static json_t *frame_cfa(void *user, unsigned frame)
{
    const vars_frames *vf = user;
    const vframe *x = vframes_get(vf->v, frame);
    dwexpr_unwind_frame f;
    if (x && dwexpr_unwinder_frame(vf->uw, x->below, &f) == DWEXPR_OK && f.has_cfa)
        return json_pack("{s:o}", "cfa", hexnum(f.cfa.byte_offset));
    return json_pack("{s:n}", "cfa");
}

/* Append to FRAMES frame L (number INDEX, at PC) as a frame without DWARF
 * (its module has none, or no function there): its symbol at LOOKUP, no
 * variables. */
static void frames_append(vars_frames *vf, frames_modules *ms, uint32_t l, uint64_t lookup,
                          uint64_t pc, unsigned index, bool tail, json_t *frames)
{
    char fn[256];
    frames_func_name(ms, lookup, fn, sizeof fn);
    json_t *jf = json_object();
    json_object_set_new(jf, "index", json_integer(index));
    json_object_set_new(jf, "function", json_string(fn));
    json_object_set_new(jf, "inline", json_false());
    json_object_set_new(jf, "pc", hexnum(pc));
    json_t *cfa = frame_cfa(vf, l);
    json_object_update(jf, cfa);
    json_decref(cfa);
    if (tail)
        json_object_set_new(jf, "tail_call", json_true());
    json_object_set_new(jf, "vars", json_array());
    json_array_append_new(frames, jf);
}

/* The module of MS that is the file BINARY (same real path), or NULL. */
static const frames_module *binary_module(const frames_modules *ms, const char *binary)
{
    /* the same file, not the same name: a process's copy of a file
     * replaced since it started or seen under that name only inside its
     * container (/proc/PID/map_files/..., which names the original path)
     * is /proc/PID/exe, not the file at that path now */
    struct stat sb, sm;
    if (stat(binary, &sb) == 0)
        for (size_t k = 0; k < ms->n; k++)
            if (stat(ms->m[k].path, &sm) == 0 && sm.st_dev == sb.st_dev &&
                sm.st_ino == sb.st_ino)
                return &ms->m[k];
    return NULL;
}

/* The DWARF of one module of the process (the executable or a shared
 * library), opened when a frame first needs it (module_dwarf) and bound
 * to the frames when one of its frames is evaluated (module_bind). */
typedef struct vars_module {
    const frames_module *m;      /* its mappings; NULL: BINARY, not mapped */
    const char *path;
    bool tried;                  /* module_dwarf looked for the DWARF */
    dwexpr_libdwarf *ld;         /* NULL: no DWARF (why) */
    bool borrowed;               /* ld is BINARY's, closed by cmd_vars */
    char *debug_file;            /* the separate debug file read, or NULL */
    char why[600];
    const dwexpr_target *vt;     /* the frames' target (vframes_target) and its user, */
    void *vu;                    /* which machine forwards to (module_machine) */
    dwexpr_target machine;
    bool tls_said;               /* why its TLS is not located was said (stderr) */
    dwexpr_target t;             /* the binding's target */
    dwexpr_libdwarf_binding *b;  /* NULL until module_bind */
} vars_module;

/* One `vars` run: the options, the process's modules (MODS[k] is the
 * DWARF of MS.m[k]) and the frames. */
typedef struct vars_run {
    const vars_opts *o;
    frames_modules ms;
    vars_module *mods;
    vars_module *binary;         /* BINARY's: in MODS, or UNMAPPED */
    vars_module unmapped;
    vars_frames vf;
    const dwexpr_unwind_frame *mf;
    uint32_t nm;
} vars_run;

/* The module whose mappings hold run-time address ADDR, or NULL. */
static vars_module *module_at(vars_run *r, uint64_t addr)
{
    for (size_t k = 0; k < r->ms.n; k++)
        if (addr >= r->ms.m[k].lo && addr < r->ms.m[k].hi)
            return &r->mods[k];
    return NULL;
}

/* The load bias of VM (0 for BINARY when it is not mapped). */
static uint64_t module_bias(const vars_module *vm)
{
    return vm->m ? vm->m->bias : 0;
}

/* VM's DWARF, opened on first use (open_dwarf: the file's own or its
 * separate debug file) with the module's load bias and addresses; NULL
 * when it has none (VM->why says why). */
static dwexpr_libdwarf *module_dwarf(vars_run *r, vars_module *vm)
{
    if (vm->tried)
        return vm->ld;
    vm->tried = true;
    if (open_dwarf(r->o, vm->path, vm->m->elf, &vm->ld, &vm->debug_file, vm->why,
                   sizeof vm->why) != DWEXPR_OK)
        return NULL;
    if (dwexpr_libdwarf_unit_count(vm->ld) == 0) {
        /* libdwarf found debug sections but no unit in them */
        snprintf(vm->why, sizeof vm->why, "%s: no compilation unit in its DWARF",
                 vm->debug_file ? vm->debug_file : vm->path);
        dwexpr_libdwarf_close(vm->ld);
        vm->ld = NULL;
        free(vm->debug_file);
        vm->debug_file = NULL;
        return NULL;
    }
    dwexpr_libdwarf_set_load_bias(vm->ld, vm->m->bias);
    dwexpr_libdwarf_set_address_range(vm->ld, vm->m->lo, vm->m->hi);
    return vm->ld;
}

static dwexpr_libdwarf_binding *module_peer(void *user, uint64_t pc);

static dwexpr_unw *vars_unw;

/* The machine target of a module's binding (module_machine): the
 * frames' target with the module as user, each callback forwarded to
 * the frames' own (MV), but DW_OP_form_tls_address in the module's own
 * TLS block (mv_tls_address). */
#define MV(name, params, ...)                                                                 \
    static dwexpr_status mv_##name params                                                     \
    {                                                                                         \
        const vars_module *vm_ = user;                                                        \
        return vm_->vt->name(vm_->vu, __VA_ARGS__);                                           \
    }
MV(reg_size, (void *user, uint32_t regno, uint32_t *bytes), regno, bytes)
MV(reg_read, (void *user, const dwexpr_regref *r, uint64_t off, void *buf, size_t len), r, off,
   buf, len)
MV(reg_write, (void *user, const dwexpr_regref *r, uint64_t off, const void *buf, size_t len),
   r, off, buf, len)
MV(mem_read, (void *user, const dwexpr_memref *m, void *buf, size_t len), m, buf, len)
MV(mem_write, (void *user, const dwexpr_memref *m, const void *buf, size_t len), m, buf, len)
MV(aspace_info, (void *user, uint32_t as, dwexpr_aspace_info *out), as, out)
MV(cfa, (void *user, const dwexpr_frameref *f, dwexpr_sld *out), f, out)
MV(register_location, (void *user, const dwexpr_frameref *f, uint32_t regno, dwexpr_sld *out),
   f, regno, out)
MV(entry_value,
   (void *user, const dwexpr_frameref *f, const uint8_t *block, size_t len, dwexpr_value *out),
   f, block, len, out)
MV(base_type, (void *user, const dwexpr_unit *unit, uint64_t die, dwexpr_type *out), unit, die,
   out)
MV(die, (void *user, const dwexpr_unit *unit, uint64_t off, bool sr, dwexpr_die *out), unit,
   off, sr, out)
MV(debug_addr, (void *user, const dwexpr_unit *unit, uint64_t index, uint64_t *out), unit,
   index, out)
MV(frame_base, (void *user, const dwexpr_frameref *f, dwexpr_frame_base *out), f, out)
MV(frame_pc, (void *user, const dwexpr_frameref *f, uint64_t *pc), f, pc)
MV(parameter_ref,
   (void *user, const dwexpr_frameref *f, const dwexpr_unit *unit, uint64_t die,
    dwexpr_value *out),
   f, unit, die, out)
#undef MV

/* DW_OP_form_tls_address in module USER's TLS block of the thread
 * (dwexpr_unw_tls_address, by its load bias); why it cannot be located
 * is said on stderr, once per module. */
static dwexpr_status mv_tls_address(void *user, const dwexpr_frameref *f, uint64_t ta,
                                    dwexpr_sld *out)
{
    vars_module *vm = user;
    char why[400];
    (void)f;
    dwexpr_status st = dwexpr_unw_tls_address(vars_unw, vm->m->bias, ta, out, why, sizeof why);
    if (st && !vm->tls_said) {
        fprintf(stderr, "dwexpr vars: %s: thread-local storage: %s\n", vm->path, why);
        vm->tls_said = true;
    }
    return st;
}

/* VM's machine target (user VM): the frames' target T (user U) with
 * DW_OP_form_tls_address in VM's own TLS block; what T lacks stays
 * missing. */
static const dwexpr_target *module_machine(vars_module *vm, const dwexpr_target *t, void *u)
{
    dwexpr_target *m = &vm->machine;
    vm->vt = t;
    vm->vu = u;
    memset(m, 0, sizeof *m);
    m->size = sizeof *m;
#define W(name) m->name = t->name ? mv_##name : NULL
    W(reg_size);
    W(reg_read);
    W(reg_write);
    W(mem_read);
    W(mem_write);
    W(aspace_info);
    W(cfa);
    W(register_location);
    W(entry_value);
    W(base_type);
    W(die);
    W(debug_addr);
    W(frame_base);
    W(frame_pc);
    W(parameter_ref);
#undef W
    m->tls_address = mv_tls_address;
    return m;
}

/* VM's binding to the frames, made on first use (the frame list is
 * complete by then): it sees every frame, but takes a pc only from the
 * module's own (dwexpr_libdwarf_set_address_range), reaches the other
 * modules' bindings through module_peer (a call site in another module),
 * and locates thread-local storage in the module's own TLS block
 * (module_machine; BINARY when it is not mapped: the target's, the main
 * executable's static block). NULL when VM has no DWARF or binding
 * fails. */
static dwexpr_libdwarf_binding *module_binding(vars_run *r, vars_module *vm)
{
    if (!vm->ld)
        return NULL;
    if (!vm->b) {
        const dwexpr_target *machine = vframes_target(r->vf.v);
        void *mu = r->vf.v;
        if (vm->m) {
            machine = module_machine(vm, machine, mu);
            mu = vm;
        }
        if (dwexpr_libdwarf_target(vm->ld, machine, mu, &vm->t, &vm->b) != DWEXPR_OK) {
            vm->b = NULL;
            return NULL;
        }
        dwexpr_libdwarf_binding_set_entry_policy(vm->b, r->o->policy);
        dwexpr_libdwarf_binding_set_peers(vm->b, module_peer, r);
        /* the frame a signal interrupted holds no return address */
        for (uint32_t l = 1; l < vframes_count(r->vf.v); l++) {
            const vframe *x = vframes_get(r->vf.v, l);
            if (!x->tail && x->machine > 0 && r->mf[x->machine - 1].signal_frame)
                dwexpr_libdwarf_binding_set_return_address(vm->b, l, false);
        }
        /* one stop's state, read once: every frame's entry values are
         * worked out once (a recursion asks for them again from every
         * frame below) */
        dwexpr_libdwarf_binding_keep_entry_values(vm->b, true);
    }
    return vm->b;
}

/* The binding of the module holding run-time address PC (its DWARF
 * opened and bound on first use), or NULL: dwexpr_libdwarf_peer_fn. */
static dwexpr_libdwarf_binding *module_peer(void *user, uint64_t pc)
{
    vars_run *r = user;
    vars_module *vm = module_at(r, pc);
    return vm && module_dwarf(r, vm) ? module_binding(r, vm) : NULL;
}

/* Make E evaluate with VM's DWARF (module_binding). False (E unchanged)
 * when VM has no DWARF or binding fails. */
static bool module_bind(vars_run *r, vars_module *vm, locs_eval *e)
{
    if (!module_binding(r, vm))
        return false;
    e->ld = vm->ld;
    e->t = vm->t;
    e->b = vm->b;
    return true;
}

/* Release the modules' bindings and DWARF (BINARY's is the caller's). */
static void module_free(vars_module *vm)
{
    dwexpr_libdwarf_binding_free(vm->b);
    if (!vm->borrowed)
        dwexpr_libdwarf_close(vm->ld);
    free(vm->debug_file);
}

static void modules_free(vars_run *r)
{
    for (size_t k = 0; r->mods && k < r->ms.n; k++)
        module_free(&r->mods[k]);
    module_free(&r->unmapped);
    free(r->mods);
}

/* Mark the frame objects FRAMES[FROM..] with the file of module VM
 * ("module", an extension of the contract), when there is one. */
static void set_module(json_t *frames, size_t from, const vars_module *vm)
{
    for (size_t i = from; vm && vm->m && i < json_array_size(frames); i++)
        json_object_set_new(json_array_get(frames, i), "module", out_text_json(vm->path));
}

/* The top-level "modules" list: each module whose DWARF was looked for,
 * with its load bias and the file its DWARF came from, or why it has
 * none. */
static json_t *modules_json(const vars_run *r)
{
    json_t *a = json_array();
    for (size_t k = 0; k < r->ms.n; k++) {
        const vars_module *vm = &r->mods[k];
        if (!vm->tried)
            continue;
        json_t *o = json_object();
        json_object_set_new(o, "path", out_text_json(vm->path));
        json_object_set_new(o, "load_bias", hexnum(module_bias(vm)));
        if (vm->ld)
            json_object_set_new(o, "dwarf",
                                out_text_json(vm->debug_file ? vm->debug_file : vm->path));
        else
            json_object_set_new(o, "dwarf", json_null());
        if (vm->debug_file)
            json_object_set_new(o, "debug_file", json_true());
        if (!vm->ld)
            json_object_set_new(o, "error", out_text_json(vm->why));
        json_array_append_new(a, o);
    }
    return a;
}

/* The machine target of `vars`: dwexpr's unwinder, except for registers
 * the CFI says nothing about in a caller frame. x86-64's default rule
 * makes the call-clobbered ones undefined (the psABI does not preserve
 * them), but a producer that knows its callee leaves a register alone
 * (GCC's -fipa-ra) keeps variables in it across the call, and its
 * location lists say so at the return address. Such a register, with no
 * rule of its own in the callee's CFI row, is read as "same value" (the
 * callee's register), as GDB reads it; an explicit DW_CFA_undefined stays
 * undefined. The entry-value rule still does not trust these registers:
 * a same-value answer is not a recovery (the binding's check).
 * A frame below a signal frame is no callee: the kernel saved every
 * register of the interrupted frame, and what the trampoline's CFI does
 * not describe is read from the signal frame's saved state (xmm0-15 from
 * its fpstate) or is undefined, never the handler's register. */
static dwexpr_target vars_machine;

/* The stack pointer of signal frame F (the trampoline's rsp: where the
 * kernel put the ucontext); false if it cannot be read. */
static bool signal_sp(dwexpr_unwinder *uw, const dwexpr_frameref *f, uint64_t *sp)
{
    dwexpr_sld s;
    if (dwexpr_unwinder_target()->register_location(uw, f, 7, &s) != DWEXPR_OK ||
        s.kind == DWEXPR_LOC_UNDEFINED)
        return false;
    dwexpr_ctx *ctx;
    if (dwexpr_ctx_new(NULL, &ctx))
        return false;
    dwexpr_loc loc = {1, &s};
    uint8_t b[8];
    bool ok = dwexpr_loc_read(ctx, dwexpr_unwinder_target(), uw, &loc, 64, b, NULL) == DWEXPR_OK;
    dwexpr_ctx_free(ctx);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b[i];
    *sp = v;
    return ok;
}

/* vm_register_location's answers for registers the unwinder leaves
 * undefined: such a register is looked for frame by frame towards frame 0,
 * and entry values of a recursion ask about every frame's registers again
 * for every frame above (800 frames of a recursion took 20 s), so each
 * answer is kept for the rest of the run (one unwinder: one stop's
 * state; the memo belongs to that unwinder and is dropped with it). */
typedef struct vm_memo_entry {
    uint32_t frame_plus1; /* 0: an empty slot */
    uint32_t regno;
    uint64_t thread;
    uint16_t ctx;
    dwexpr_status st;
    dwexpr_sld sld;
} vm_memo_entry;
static struct {
    const void *uw;
    vm_memo_entry *slot;
    size_t cap, n; /* cap: a power of two (or 0) */
} vm_memo;

static void vm_memo_clear(void)
{
    free(vm_memo.slot);
    memset(&vm_memo, 0, sizeof vm_memo);
}

/* The slot of F's REGNO in the memo of UW: the entry, or the empty slot
 * it would take (NULL when the memo is empty or of another unwinder). */
static vm_memo_entry *vm_memo_slot(const void *uw, const dwexpr_frameref *f, uint32_t regno)
{
    if (vm_memo.uw != uw || !vm_memo.cap)
        return NULL;
    size_t h = ((size_t)f->frame * 0x9e3779b1u + regno) & (vm_memo.cap - 1);
    for (;; h = (h + 1) & (vm_memo.cap - 1)) {
        vm_memo_entry *e = &vm_memo.slot[h];
        if (!e->frame_plus1 || (e->frame_plus1 == f->frame + 1 && e->regno == regno &&
                                e->thread == f->thread && e->ctx == f->ctx))
            return e;
    }
}

/* Keep ST and *SLD as F's REGNO in UW's memo (silently not, when out of
 * memory: the answer is only computed again). */
static void vm_memo_put(const void *uw, const dwexpr_frameref *f, uint32_t regno,
                        dwexpr_status st, const dwexpr_sld *sld)
{
    if (vm_memo.uw != uw)
        vm_memo_clear();
    if (2 * (vm_memo.n + 1) > vm_memo.cap) {
        size_t cap = vm_memo.cap ? 2 * vm_memo.cap : 256;
        vm_memo_entry *slot = calloc(cap, sizeof *slot);
        if (!slot)
            return;
        vm_memo_entry *old = vm_memo.slot;
        size_t oldcap = vm_memo.cap;
        vm_memo.slot = slot;
        vm_memo.cap = cap;
        vm_memo.uw = uw;
        for (size_t k = 0; k < oldcap; k++)
            if (old[k].frame_plus1) {
                dwexpr_frameref g;
                memset(&g, 0, sizeof g);
                g.frame = old[k].frame_plus1 - 1;
                g.thread = old[k].thread;
                g.ctx = old[k].ctx;
                *vm_memo_slot(uw, &g, old[k].regno) = old[k];
            }
        free(old);
    }
    vm_memo_entry *e = vm_memo_slot(uw, f, regno);
    if (!e->frame_plus1)
        vm_memo.n++;
    e->frame_plus1 = f->frame + 1;
    e->regno = regno;
    e->thread = f->thread;
    e->ctx = f->ctx;
    e->st = st;
    e->sld = *sld;
}

static dwexpr_status vm_register_location_below(void *user, const dwexpr_frameref *f,
                                                uint32_t regno, dwexpr_status st,
                                                dwexpr_sld *out);

static dwexpr_status vm_register_location(void *user, const dwexpr_frameref *f, uint32_t regno,
                                          dwexpr_sld *out)
{
    dwexpr_unwinder *uw = user;
    const dwexpr_target *ut = dwexpr_unwinder_target();
    dwexpr_status st = ut->register_location(uw, f, regno, out);
    if (st || out->kind != DWEXPR_LOC_UNDEFINED || f->frame == 0)
        return st;
    const vm_memo_entry *e = vm_memo_slot(uw, f, regno);
    if (e && e->frame_plus1) {
        *out = e->sld;
        return e->st;
    }
    st = vm_register_location_below(user, f, regno, st, out);
    vm_memo_put(uw, f, regno, st, out);
    return st;
}

/* vm_register_location of a register the unwinder leaves undefined in
 * frame F > 0 (ST, *OUT: its answer): the callee's, unless a rule of the
 * callee's row or a signal frame says otherwise. */
static dwexpr_status vm_register_location_below(void *user, const dwexpr_frameref *f,
                                                uint32_t regno, dwexpr_status st,
                                                dwexpr_sld *out)
{
    dwexpr_unwinder *uw = user;
    const dwexpr_cfi_row *row;
    if (dwexpr_unwinder_row(uw, f->frame - 1, &row) != DWEXPR_OK)
        return st;
    for (uint32_t k = 0; k < row->count; k++)
        if (row->regs[k].regno == regno)
            return st; /* the CFI's own rule */
    if (row->ra_column == regno)
        return st;
    dwexpr_frameref g = *f;
    g.frame = f->frame - 1;
    if (row->signal_frame) {
        /* F was interrupted: its register is in the signal frame's saved
         * state or nowhere */
        uint64_t sp;
        dwexpr_sld saved;
        if (signal_sp(uw, &g, &sp) &&
            dwexpr_unw_sigframe_register(vars_unw, sp, regno, &saved) == DWEXPR_OK)
            *out = saved;
        return st;
    }
    return vm_register_location(user, &g, regno, out);
}

/* Human output of the whole answer. A frame without variables because
 * its module has no DWARF says why. */
static void human(const json_t *top)
{
    size_t i, k;
    json_t *f, *v, *m;
    json_array_foreach(json_object_get(top, "frames"), i, f) {
        const json_t *cfa = json_object_get(f, "cfa");
        printf("frame %lld: %s%s at %s, CFA %s\n",
               (long long)json_integer_value(json_object_get(f, "index")),
               json_string_value(json_object_get(f, "function")),
               json_is_true(json_object_get(f, "inline"))      ? " (inlined)"
               : json_is_true(json_object_get(f, "tail_call")) ? " (tail call)"
                                                               : "",
               json_string_value(json_object_get(f, "pc")),
               json_is_string(cfa) ? json_string_value(cfa) : "?");
        const char *mod = json_string_value(json_object_get(f, "module"));
        json_array_foreach(json_object_get(top, "modules"), k, m) {
            const char *why = json_string_value(json_object_get(m, "error"));
            if (mod && why && strcmp(mod, json_string_value(json_object_get(m, "path"))) == 0)
                printf("  (no DWARF for %s: %s)\n", mod, why);
        }
        json_array_foreach(json_object_get(f, "vars"), k, v)
            locs_human_var(v, true);
    }
    printf("globals:\n");
    json_array_foreach(json_object_get(top, "globals"), k, v)
        locs_human_var(v, true);
    const json_t *err = json_object_get(top, "error");
    if (err)
        printf("unwinding stopped: %s\n", json_string_value(json_object_get(err, "message")));
}

/* The machine frames of UW into a malloc'ed *OUT (*N of them); the
 * status that ended the walk (E_NOT_FOUND past the last frame). */
static dwexpr_status machine_frames(dwexpr_unwinder *uw, dwexpr_unwind_frame **out, uint32_t *n)
{
    dwexpr_unwind_frame *mf = NULL;
    dwexpr_status st;
    uint32_t nm = 0;
    for (size_t cap = 0;; nm++) {
        dwexpr_unwind_frame f;
        if ((st = dwexpr_unwinder_frame(uw, nm, &f)))
            break;
        if (nm == cap) {
            cap = cap ? 2 * cap : 32;
            dwexpr_unwind_frame *g = realloc(mf, cap * sizeof *g);
            if (!g) {
                st = DWEXPR_E_NOMEM;
                break;
            }
            mf = g;
        }
        mf[nm] = f;
    }
    *out = mf;
    *n = nm;
    return st;
}

/* The frames of U, each with the variables of its module's DWARF, and
 * the globals of BINARY (DWARF BINARY_LD, read from BINARY_DEBUG when
 * that is a separate debug file), per the contract. */
static int run_vars(const vars_opts *o, dwexpr_unw *u, dwexpr_libdwarf *binary_ld,
                    const char *binary_debug)
{
    const dwexpr_arch *arch = dwexpr_arch_find("x86_64");
    vars_run r;
    memset(&r, 0, sizeof r);
    r.o = o;
    r.ms.debug_dirs = o->debug_dirs; /* also for the CFI of a debug file */
    frames_load_modules(u, arch, &r.ms);
    int rc = VARS_OK;
    dwexpr_unwinder *uw = NULL;
    dwexpr_unwind_frame *mf = NULL;
    vars_module **fmod = NULL; /* the module of each machine frame, or NULL */
    uint64_t *at = NULL;       /* its pc (a caller's pc - 1) in its module's DWARF */
    locs_eval e;
    memset(&e, 0, sizeof e);
    e.arch = arch;
    e.machine = true;
    vars_unw = u;
    vars_machine = *dwexpr_unwinder_target();
    vars_machine.register_location = vm_register_location;
    r.mods = calloc(r.ms.n ? r.ms.n : 1, sizeof *r.mods);
    if (!r.mods) {
        rc = usage("out of memory", NULL);
        goto done;
    }
    for (size_t k = 0; k < r.ms.n; k++) {
        r.mods[k].m = &r.ms.m[k];
        r.mods[k].path = r.ms.m[k].path;
    }
    /* BINARY's DWARF is open already: its module's, or on its own */
    const frames_module *bm = binary_module(&r.ms, o->binary);
    if (!bm) {
        /* a process whose executable was replaced since it started, or
         * that sees another file at that name (a container), runs a file
         * that is not BINARY at the name it gave: /proc/PID/exe is it
         * (readlink: the name, with " (deleted)" when it was replaced) */
        char exe[64], real[PATH_MAX], want[PATH_MAX];
        ssize_t n = -1;
        if (o->pid > 0) {
            snprintf(exe, sizeof exe, "/proc/%d/exe", o->pid);
            n = readlink(exe, real, sizeof real - 1);
        }
        static const char deleted[] = " (deleted)";
        const size_t dl = sizeof deleted - 1;
        if (n > 0) {
            real[n] = 0;
            if ((size_t)n > dl && strcmp(real + n - dl, deleted) == 0)
                real[n - dl] = 0;
        }
        if (n > 0 && realpath(o->binary, want) && strcmp(real, want) == 0)
            fprintf(stderr,
                    "dwexpr vars: %s is not mapped in the process: it is not the file the "
                    "process runs under that name (replaced since it started, or another "
                    "file in the process's view; %s is that file)\n",
                    o->binary, exe);
        else
            fprintf(stderr, "dwexpr vars: %s is not mapped in the process: no frame is its own\n",
                    o->binary);
    }
    r.binary = bm ? &r.mods[bm - r.ms.m] : &r.unmapped;
    r.binary->path = bm ? bm->path : o->binary;
    r.binary->tried = r.binary->borrowed = true;
    r.binary->ld = binary_ld;
    r.binary->debug_file = binary_debug ? strdup(binary_debug) : NULL;
    uint64_t bias = module_bias(r.binary);
    dwexpr_libdwarf_set_load_bias(binary_ld, bias);
    if (bm)
        dwexpr_libdwarf_set_address_range(binary_ld, bm->lo, bm->hi);
    dwexpr_status st = DWEXPR_E_NOMEM;
    uint32_t nm = 0;
    if (frames_unwinder_new(u, arch, &r.ms, o->max, &uw)) {
        rc = usage("out of memory", NULL);
        goto done;
    }
    r.vf.uw = uw;
    st = machine_frames(uw, &mf, &nm);
    r.mf = mf;
    r.nm = nm;
    fmod = calloc(nm ? nm : 1, sizeof *fmod);
    at = calloc(nm ? nm : 1, sizeof *at);
    if (st == DWEXPR_E_NOMEM || !fmod || !at ||
        !(r.vf.v = vframes_new(&vars_machine, uw, nm, 16))) {
        rc = usage("out of memory", NULL);
        goto done;
    }
    /* a caller's pc is a return address: its module, scopes and location
     * lists are matched inside the call (pc - 1), unless the frame below
     * is a signal frame (its pc is where the interruption happened) */
    for (uint32_t i = 0; i < nm; i++) {
        bool caller = i > 0 && !mf[i - 1].signal_frame && mf[i].pc;
        fmod[i] = module_at(&r, caller ? mf[i].pc - 1 : mf[i].pc);
        uint64_t link = mf[i].pc - (fmod[i] ? module_bias(fmod[i]) : 0);
        at[i] = caller && link ? link - 1 : link;
    }
    /* GDB's tail call frames: between machine frame I and its caller
     * I + 1, the functions the caller's call went through by tail calls
     * before reaching frame I's: in their module; from a caller of
     * another module, when its call names a function of frame I's module
     * by a declaration (the executable's call of a library function that
     * jumps to another) */
    for (uint32_t i = 0; i < nm; i++) {
        if (vframes_add_machine(r.vf.v, i) < 0)
            break;
        dwexpr_libdwarf *ld, *cld;
        if (i + 1 >= nm || !fmod[i] || !fmod[i + 1] || !(ld = module_dwarf(&r, fmod[i])))
            continue;
        uint64_t mb = module_bias(fmod[i]), pcs[64];
        size_t n = 0;
        if (fmod[i] == fmod[i + 1])
            n = dwexpr_libdwarf_tail_frames(ld, mf[i + 1].pc - mb, at[i], pcs, 64);
        else if ((cld = module_dwarf(&r, fmod[i + 1])) != NULL)
            n = dwexpr_libdwarf_tail_frames_across(cld, mf[i + 1].pc - module_bias(fmod[i + 1]),
                                                   ld, at[i], pcs, 64);
        for (size_t k = 0; k < n && k < 64; k++)
            vframes_add_tail(r.vf.v, i + 1, i, pcs[k] + mb);
    }
    if (dwexpr_ctx_new(NULL, &e.ctx) || dwexpr_ctx_new(NULL, &e.aux) ||
        dwexpr_ctx_new(NULL, &e.aux2) || !module_bind(&r, r.binary, &e)) {
        rc = usage("out of memory", NULL);
        goto done;
    }
    json_t *top = json_object(), *frames = json_array();
    json_object_set_new(top, "binary", json_string(o->binary));
    frames_threads_out(u, top);
    json_object_set_new(top, "load_bias", hexnum(bias));
    uint64_t tp;
    if (dwexpr_unw_thread_pointer(u, &tp))
        json_object_set_new(top, "thread_pointer", hexnum(tp));
    /* outermost first (each frame's entries into its own array, numbered
     * and joined innermost first below): a frame's entry values are its
     * caller's call-site values, evaluated in the caller, which may need
     * the caller's entry values; with the callers' answers kept (the
     * binding's memo) each chain is one frame deep, where innermost first
     * went down the whole recursion at once (a nested context per level:
     * 3000 frames of recursion.c -O2 held 330 MB) */
    const uint32_t nv = vframes_count(r.vf.v);
    json_t **per = calloc(nv ? nv : 1, sizeof *per);
    if (!per) {
        json_decref(top);
        json_decref(frames);
        rc = usage("out of memory", NULL);
        goto done;
    }
    unsigned index = 0;
    for (uint32_t l = nv; l-- > 0;) {
        const vframe *x = vframes_get(r.vf.v, l);
        json_t *const all = frames;
        frames = per[l] = json_array();
        const size_t first = 0;
        if (x->tail) {
            /* a tail call frame: its function at the return pc of its tail
             * call site, matched inside the jump (pc - 1), in the module
             * of the frames around it */
            vars_module *vm = module_at(&r, x->pc - 1);
            uint64_t pc = x->pc - (vm ? module_bias(vm) : 0) - 1;
            const dwexpr_libdwarf_scope *inner =
                vm && module_bind(&r, vm, &e) ? dwexpr_libdwarf_scope_at(vm->ld, pc) : NULL;
            if (inner && locs_eval_tail_frame(&e, l, pc, inner, x->pc, index, frames, frame_cfa,
                                              &r.vf))
                index++;
            else
                frames_append(&r.vf, &r.ms, l, x->pc - 1, x->pc, index++, true, frames);
            set_module(frames, first, vm);
            frames = all;
            continue;
        }
        const dwexpr_unwind_frame *f = &mf[x->machine];
        vars_module *vm = fmod[x->machine];
        const dwexpr_libdwarf_scope *inner =
            vm && module_dwarf(&r, vm) ? dwexpr_libdwarf_scope_at(vm->ld, at[x->machine]) : NULL;
        if (inner && dwexpr_libdwarf_scope_function(inner) && module_bind(&r, vm, &e)) {
            index += locs_eval_frames(&e, l, at[x->machine], inner, f->pc, index, frames,
                                      frame_cfa, &r.vf);
        } else {
            /* the name at pc - 1 for a return address (not below a signal
             * frame, nor in the signal trampoline itself: cmd_frames.c) */
            bool caller = x->machine > 0 && !mf[x->machine - 1].signal_frame && !f->signal_frame;
            frames_append(&r.vf, &r.ms, l, caller ? f->pc - 1 : f->pc, f->pc, index++, false,
                          frames);
        }
        set_module(frames, first, vm);
        frames = all;
    }
    /* innermost first, numbered in that order */
    index = 0;
    for (uint32_t l = 0; l < nv; l++) {
        for (size_t k = 0; per[l] && k < json_array_size(per[l]); k++) {
            json_t *jf = json_array_get(per[l], k);
            json_object_set_new(jf, "index", json_integer(index++));
            json_array_append(frames, jf);
        }
        json_decref(per[l]);
    }
    free(per);
    json_object_set_new(top, "frames", frames);
    json_object_set_new(top, "modules", modules_json(&r));
    if (st != DWEXPR_E_NOT_FOUND) {
        json_object_set_new(top, "error",
                            out_error_json(dwexpr_class_name(dwexpr_status_class(st)), -1, NULL,
                                           dwexpr_unwinder_error(uw)->message));
        rc = VARS_ERROR;
    }
    /* globals and statics of every unit of BINARY, read in frame 0 (at
     * its pc in BINARY's link-time addresses) */
    module_bind(&r, r.binary, &e);
    uint64_t pc0 = nm ? mf[0].pc - bias : 0;
    json_t *globals = json_array();
    for (size_t k = 0; k < dwexpr_libdwarf_var_count(binary_ld); k++) {
        const dwexpr_libdwarf_var *v = dwexpr_libdwarf_var_get(binary_ld, k);
        if (v->scope->kind == DWEXPR_LIBDWARF_SCOPE_UNIT)
            json_array_append_new(globals, locs_eval_var(&e, v, 0, pc0));
    }
    json_object_set_new(top, "globals", globals);
    /* the frames dwexpr's CFI found, checked against libunwind's */
    char report[4096];
    unsigned checked = 0, bad = 0;
    dwexpr_unw_crosscheck(u, uw, report, sizeof report, &checked, &bad);
    json_t *jd = json_array();
    for (char *line = strtok(report, "\n"); line; line = strtok(NULL, "\n")) {
        json_array_append_new(jd, json_string(line));
        fprintf(stderr, "dwexpr vars: libunwind disagrees: %s\n", line);
    }
    json_object_set_new(top, "libunwind",
                        json_pack("{s:i,s:o}", "checked", (int)checked, "disagreements", jd));
    if (bad)
        rc = VARS_ERROR;
    if (e.rc && rc == VARS_OK)
        rc = VARS_ERROR;
    if (o->json)
        out_print_json(top);
    else {
        frames_threads_out(u, NULL);
        human(top);
        json_decref(top);
    }
done:
    dwexpr_ctx_free(e.ctx);
    dwexpr_ctx_free(e.aux);
    dwexpr_ctx_free(e.aux2);
    modules_free(&r);
    vframes_free(r.vf.v);
    free(at);
    free(fmod);
    free(mf);
    vm_memo_clear();
    dwexpr_unwinder_free(uw);
    frames_free_modules(&r.ms);
    return rc;
}
#endif

int cmd_vars(int argc, char **argv)
{
    vars_opts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    if (o.help) {
        fputs(usage_vars, stdout);
        return VARS_OK;
    }
#ifdef DWEXPR_HAVE_LIBUNWIND
    dwexpr_libdwarf *ld;
    dwexpr_error err;
    char why[600], *debug_file;
    if (open_dwarf(&o, o.binary, NULL, &ld, &debug_file, why, sizeof why))
        return out_usage(o.json, "dwexpr vars", "%s: %s", o.binary, why);
    dwexpr_unw *u;
    dwexpr_status st = frames_open(o.core, o.binary, o.pid, o.tid, o.max, &u, &err);
    if (st) {
        dwexpr_libdwarf_close(ld);
        free(debug_file);
        return usage(err.message, NULL);
    }
    rc = run_vars(&o, u, ld, debug_file);
    dwexpr_unw_close(u);
    dwexpr_libdwarf_close(ld);
    free(debug_file);
    return rc;
#else
    return usage("needs the libunwind adapter, which this build does not have", NULL);
#endif
}
