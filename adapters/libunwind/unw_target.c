/* adapters/libunwind/unw_target.c: the libunwind host target: a core file
 * (libunwind-coredump) or a live process (libunwind-ptrace) as a
 * dwexpr_target, libunwind's frames, and the cross-check against dwexpr's
 * own CFI unwinder. x86-64 only (DWARF and libunwind numbers agree 0-16). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/user.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <libunwind.h>
#include <libunwind-coredump.h>
#include <libunwind-ptrace.h>
#include "dwexpr/adapter_libunwind.h"

enum { NREGS = 17, XMM0 = 17, NXMM = 16, ST0 = 33, NST = 8, STBYTES = 10, STSLOT = 16 };

/* The fxsave image (NT_FPREGSET, struct user_fpregs_struct, a signal
 * frame's _fpstate): st_space at byte 32, ST(0)..ST(7) in 16-byte slots
 * (the 80-bit value in the low 10 bytes, 6 reserved), xmm0-15 at 160. */
enum { FX_ST0 = 32, FX_XMM0 = 160 };

/* The XSAVE image (NT_X86_XSTATE, PTRACE_GETREGSET): the fxsave image,
 * the software bytes at 464 (the kernel's: magic 0x46505853, then at 472
 * the features it saves, XCR0; GDB's gcore writes XCR0 itself at 464),
 * the XSAVE header at 512 (XSTATE_BV:
 * the components that are not in their initial state, all zero), the
 * upper halves of ymm0-15 at 576 (the standard format's AVX component,
 * Intel SDM vol. 1, 13.4-13.5). */
enum { XS_SW = 464, XS_SW_MAGIC = 0x46505853, XS_SW_XCR0 = 472, XS_BV = 512, XS_YMMH = 576,
       XS_AVX = 1u << 2 };

typedef struct ufr {
    dwexpr_unw_frame pub;
    unw_cursor_t cur;
    uint8_t vals[NREGS][8];        /* implicit values handed out */
} ufr;

/* A mapped file: its bytes (for memory a core does not hold, and for
 * its .eh_frame_hdr), load bias and address range. */
typedef struct umod {
    const char *path;              /* owned by the mapping list */
    const uint8_t *bytes;          /* the file's (ELF's image) */
    size_t size;
    dwexpr_elf *elf;
    uint64_t bias, lo, hi;
} umod;

struct dwexpr_unw {
    unw_addr_space_t as;
    unw_accessors_t acc;           /* ours: memory and unwind tables, registers forwarded */
    umod *mods;
    size_t nmods;
    void *ui;
    bool core;
    int pid;
    bool attached;
    bool was_stopped;              /* in a group stop before we attached */
    dwexpr_elf *core_elf;
    ufr *frames;
    size_t nframes;
    const dwexpr_cfi **unseen;     /* CFI libunwind does not read (dwexpr_unw_cfi_unseen) */
    size_t nunseen;
    dwexpr_unw_mapping *maps;
    size_t nmaps;
    char **paths;
    /* frame 0 of the thread beyond what libunwind gives */
    uint64_t gp[NREGS];            /* a core's DWARF 0-16 from NT_PRSTATUS */
    bool have_gp;
    uint8_t xmm[NXMM][16];         /* DWARF 17-32 */
    bool have_xmm;
    uint8_t ymmh[NXMM][16];        /* their upper halves, with AVX: ymm0-15 */
    bool have_ymm;
    struct sigymm *sigymm;         /* dwexpr_unw_sigframe_register's composites */
    uint8_t st[NST][STBYTES];      /* DWARF 33-40: ST(0)..ST(7), stack order */
    bool have_st;
    uint64_t fs_base;              /* the thread pointer */
    bool have_fs;
    uint64_t tid;                  /* the thread read (a core's pr_pid; a process: the pid) */
    uint64_t *tids;                /* a core's threads, in its NT_PRSTATUS order */
    size_t ntids;
    uint64_t tls_offset;           /* the main executable's TLS block: tp - tls_offset */
    uint64_t tls_vaddr, tls_memsz; /* its PT_TLS */
    bool have_tls;
    const umod *main_mod;          /* the main executable's module, or NULL */
    char warning[512];             /* dwexpr_unw_warning ("" none) */
    uint64_t vdso_base;            /* the vDSO's address (0: none known) */
    uint8_t *vdso;                 /* its image, read from the target (dwexpr_unw_vdso) */
    size_t vdso_size;
    /* glibc's libthread_db layout descriptors (dwexpr_unw_tls_address),
     * looked for once: 1 found, -1 not */
    int td_state;
    uint64_t td_modid, td_tlsoff, td_dtvp, td_dtv_entry, td_val, td_counter;
    uint64_t td_rtld;              /* the address of ld.so's _rtld_global */
    uint64_t td_slotlist, td_sl_len, td_sl_next, td_sl_info, td_si_size, td_si_gen, td_si_map;
};

/* A ymm register a signal frame saved: its xmm half in the fxsave image,
 * its upper half in the XSAVE image's AVX component (or zero, or
 * undefined), as one composite (dwexpr_unw_sigframe_register). */
struct sigymm {
    struct sigymm *next;
    dwexpr_composite comp;
    dwexpr_part parts[2];
    dwexpr_sld slds[2];
};

/* Fill ERR with S and a message. */
static dwexpr_status fail(dwexpr_error *err, dwexpr_status s, const char *fmt, ...)
{
    if (!err)
        return s;
    memset(err, 0, sizeof *err);
    err->status = s;
    err->offset = -1;
    err->opcode = -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return s;
}

static dwexpr_status add_map(dwexpr_unw *u, uint64_t start, uint64_t end, uint64_t off,
                             const char *path)
{
    dwexpr_unw_mapping *m = realloc(u->maps, (u->nmaps + 1) * sizeof *m);
    if (!m)
        return DWEXPR_E_NOMEM;
    u->maps = m;
    char **p = realloc(u->paths, (u->nmaps + 1) * sizeof *p);
    if (!p)
        return DWEXPR_E_NOMEM;
    u->paths = p;
    size_t n = strlen(path);
    char *copy = malloc(n + 1);
    if (!copy)
        return DWEXPR_E_NOMEM;
    memcpy(copy, path, n + 1);
    u->paths[u->nmaps] = copy;
    m[u->nmaps].start = start;
    m[u->nmaps].end = end;
    m[u->nmaps].file_offset = off;
    m[u->nmaps].path = copy;
    u->nmaps++;
    return DWEXPR_OK;
}

/* One module per distinct mapped file. */
static void load_mods(dwexpr_unw *u)
{
    for (size_t i = 0; i < u->nmaps; i++) {
        const dwexpr_unw_mapping *m = &u->maps[i];
        umod *have = NULL;
        for (size_t k = 0; k < u->nmods; k++)
            if (strcmp(u->mods[k].path, m->path) == 0)
                have = &u->mods[k];
        if (have) {
            have->lo = m->start < have->lo ? m->start : have->lo;
            have->hi = m->end > have->hi ? m->end : have->hi;
            continue;
        }
        /* (mapped, not read: a process maps libraries of hundreds of
         * megabytes, of which a few pages are read) */
        dwexpr_elf *elf;
        uint64_t bias;
        if (dwexpr_elf_open_file(m->path, &elf, NULL))
            continue;
        if (dwexpr_elf_load_bias(elf, m->start, m->file_offset, 4096, &bias)) {
            dwexpr_elf_free(elf);
            continue;
        }
        umod *nm = realloc(u->mods, (u->nmods + 1) * sizeof *nm);
        if (!nm) {
            dwexpr_elf_free(elf);
            return;
        }
        u->mods = nm;
        umod *md = &u->mods[u->nmods++];
        md->path = m->path;
        md->bytes = dwexpr_elf_image(elf, &md->size);
        md->elf = elf;
        md->bias = dwexpr_elf_type(elf) == 2 ? 0 : bias;
        md->lo = m->start;
        md->hi = m->end;
    }
}

/* Memory of a core: its PT_LOAD contents, else the mapped file's bytes
 * (text and read-only data are usually not in a core). */
static int core_mem(dwexpr_unw *u, uint64_t addr, uint8_t *out, size_t len)
{
    if (dwexpr_elf_read_vaddr(u->core_elf, addr, out, len) == DWEXPR_OK)
        return 0;
    for (size_t i = 0; i < u->nmaps; i++) {
        const dwexpr_unw_mapping *m = &u->maps[i];
        if (addr < m->start || addr + len > m->end)
            continue;
        for (size_t k = 0; k < u->nmods; k++) {
            if (strcmp(u->mods[k].path, m->path) != 0)
                continue;
            uint64_t off = m->file_offset + (addr - m->start);
            if (off > u->mods[k].size || len > u->mods[k].size - off)
                return -UNW_EINVAL;
            memcpy(out, u->mods[k].bytes + off, len);
            return 0;
        }
    }
    return -UNW_EINVAL;
}

/* libunwind accessor: one word of memory. */
static int a_access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *val, int write,
                        void *arg)
{
    dwexpr_unw *u = arg;
    if (!u->core)
        return _UPT_access_mem(as, addr, val, write, u->ui);
    if (write)
        return -UNW_EINVAL;
    uint8_t b[sizeof *val];
    int r = core_mem(u, addr, b, sizeof b);
    if (r)
        return r;
    memcpy(val, b, sizeof b);
    return 0;
}

static int a_access_reg(unw_addr_space_t as, unw_regnum_t reg, unw_word_t *val, int write,
                        void *arg)
{
    dwexpr_unw *u = arg;
    if (u->core && u->have_gp && !write && reg >= 0 && reg < NREGS) {
        *val = u->gp[reg];
        return 0;
    }
    return u->core ? _UCD_access_reg(as, reg, val, write, u->ui)
                   : _UPT_access_reg(as, reg, val, write, u->ui);
}

static int a_access_fpreg(unw_addr_space_t as, unw_regnum_t reg, unw_fpreg_t *val, int write,
                          void *arg)
{
    dwexpr_unw *u = arg;
    return u->core ? _UCD_access_fpreg(as, reg, val, write, u->ui)
                   : _UPT_access_fpreg(as, reg, val, write, u->ui);
}

static int a_resume(unw_addr_space_t as, unw_cursor_t *c, void *arg)
{
    (void)as;
    (void)c;
    (void)arg;
    return -UNW_EINVAL;
}

static int a_get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *dil, void *arg)
{
    (void)as;
    (void)dil;
    (void)arg;
    return -UNW_ENOINFO;
}

static void a_put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
    (void)as;
    (void)arg;
    free(pi->unwind_info);
    pi->unwind_info = NULL;
}

static int a_get_proc_name(unw_addr_space_t as, unw_word_t ip, char *buf, size_t len,
                           unw_word_t *off, void *arg)
{
    dwexpr_unw *u = arg;
    (void)as;
    for (size_t k = 0; k < u->nmods; k++) {
        const char *name;
        uint64_t o;
        if (ip >= u->mods[k].lo && ip < u->mods[k].hi &&
            dwexpr_elf_symbolize(u->mods[k].elf, ip - u->mods[k].bias, &name, &o) == DWEXPR_OK) {
            snprintf(buf, len, "%s", name);
            *off = o;
            return 0;
        }
    }
    return -UNW_ENOINFO;
}

/* libunwind's own search of an .eh_frame_hdr table in target memory
 * (exported by libunwind-x86_64, not declared in its headers). */
extern int _Ux86_64_dwarf_search_unwind_table(unw_addr_space_t as, unw_word_t ip,
                                              unw_dyn_info_t *di, unw_proc_info_t *pi,
                                              int need_unwind_info, void *arg);

/* libunwind accessor: the unwind table of the module holding IP, found
 * through the file's .eh_frame_hdr at its load address (what
 * _UPT_find_proc_info does; _UCD's assumes text maps at file offset 0). */
static int a_find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi,
                            int need_unwind_info, void *arg)
{
    dwexpr_unw *u = arg;
    for (size_t k = 0; k < u->nmods; k++) {
        umod *m = &u->mods[k];
        if (ip < m->lo || ip >= m->hi)
            continue;
        dwexpr_elf_section h;
        if (dwexpr_elf_find_section(m->elf, ".eh_frame_hdr", &h) || !h.data || h.size < 12)
            return -UNW_ENOINFO;
        /* LSB .eh_frame_hdr: version, encodings, eh_frame_ptr, fde_count, table */
        if (h.data[0] != 1 || h.data[2] != 0x03 || h.data[3] != 0x3b)
            return -UNW_ENOINFO;
        uint64_t count = (uint64_t)h.data[8] | (uint64_t)h.data[9] << 8 |
                         (uint64_t)h.data[10] << 16 | (uint64_t)h.data[11] << 24;
        unw_dyn_info_t di;
        memset(&di, 0, sizeof di);
        di.start_ip = m->lo;
        di.end_ip = m->hi;
        di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
        di.u.rti.segbase = h.addr + m->bias;
        di.u.rti.table_data = h.addr + m->bias + 12;
        di.u.rti.table_len = count * 8 / sizeof(unw_word_t);
        return _Ux86_64_dwarf_search_unwind_table(as, ip, &di, pi, need_unwind_info, arg);
    }
    return -UNW_ENOINFO;
}

/* Our accessors: libunwind's for registers, ours for memory and tables. */
static void set_accessors(dwexpr_unw *u)
{
    memset(&u->acc, 0, sizeof u->acc);
    u->acc.find_proc_info = a_find_proc_info;
    u->acc.put_unwind_info = a_put_unwind_info;
    u->acc.get_dyn_info_list_addr = a_get_dyn_info_list_addr;
    u->acc.access_mem = a_access_mem;
    u->acc.access_reg = a_access_reg;
    u->acc.access_fpreg = a_access_fpreg;
    u->acc.resume = a_resume;
    u->acc.get_proc_name = a_get_proc_name;
}

/* Little-endian 64-bit word at P. */
static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* The static TLS offset of the module ELF when it is the main executable
 * (x86-64 psABI / glibc TLS variant II, the executable's block first,
 * right below the thread pointer): with PT_TLS of size MEMSZ, alignment
 * ALIGN at address VADDR, firstbyte = VADDR mod ALIGN and offset =
 * roundup(MEMSZ - firstbyte, ALIGN) + firstbyte; the block starts at
 * tp - offset (glibc _dl_determine_tlsoffset for the first module). */
static void main_tls(dwexpr_unw *u, const dwexpr_elf *elf)
{
    for (size_t i = 0; i < dwexpr_elf_segment_count(elf); i++) {
        dwexpr_elf_segment sg;
        if (dwexpr_elf_get_segment(elf, i, &sg) || sg.type != 7 /* PT_TLS */)
            continue;
        uint64_t align = sg.align ? sg.align : 1;
        uint64_t first = sg.vaddr & (align - 1);
        uint64_t need = sg.memsz > first ? sg.memsz - first : 0;
        u->tls_offset = (need + align - 1) / align * align + first;
        u->tls_vaddr = sg.vaddr;
        u->tls_memsz = sg.memsz;
        u->have_tls = true;
        return;
    }
}

/* The main executable's TLS layout from the module mapped from PATH. */
static void find_main_tls(dwexpr_unw *u, const char *path)
{
    for (size_t k = 0; path && k < u->nmods; k++)
        if (strcmp(u->mods[k].path, path) == 0) {
            u->main_mod = &u->mods[k];
            main_tls(u, u->mods[k].elf);
            return;
        }
}

/* st0-7 and xmm0-15 from the fxsave image FX (512 bytes). FXSAVE keeps
 * the x87 registers in stack order: slot i is ST(i), DWARF 33 + i (psABI
 * Figure 3.36: st0-st7 are the stack-relative ST(i), not the physical
 * R0-R7), so no rotation by the top-of-stack field is needed. */
static void fxsave_regs(dwexpr_unw *u, const uint8_t *fx)
{
    for (int i = 0; i < NST; i++)
        memcpy(u->st[i], fx + FX_ST0 + 16 * i, STBYTES);
    memcpy(u->xmm, fx + FX_XMM0, sizeof u->xmm);
    u->have_st = u->have_xmm = true;
}

/* The upper halves of ymm0-15 from the XSAVE image XS (N bytes), when
 * the thread has AVX state (XCR0 has it); as GDB does, DWARF 17-32 are
 * then ymm0-15, 32 bytes each (their low halves xmm0-15). */
static void xstate_regs(dwexpr_unw *u, const uint8_t *xs, size_t n)
{
    if (n < XS_YMMH + NXMM * 16)
        return;
    const uint64_t xcr0 = (le64(xs + XS_SW) & 0xffffffffu) == XS_SW_MAGIC ? le64(xs + XS_SW_XCR0)
                                                                        : le64(xs + XS_SW);
    if (!(xcr0 & XS_AVX))
        return;
    if (le64(xs + XS_BV) & XS_AVX)
        memcpy(u->ymmh, xs + XS_YMMH, sizeof u->ymmh);
    else
        memset(u->ymmh, 0, sizeof u->ymmh); /* initial state */
    u->have_ymm = true;
}

/* Frame 0 of a core: the general registers and fs_base from the first
 * NT_PRSTATUS (x86-64 elf_prstatus: pr_reg, a user_regs_struct, at byte
 * 112; PR_WORD maps DWARF numbers 0-16 to its words, fs_base is word 21)
 * and st0-7 and xmm0-15 from the first NT_FPREGSET (an fxsave image). The
 * general registers are read here, not through
 * _UCD_access_reg: libunwind 1.6's coredump accessor gives wrong r8-r15. */
static void core_extra_regs(dwexpr_unw *u, size_t thread)
{
    /* the thread's notes: its NT_PRSTATUS ("CORE" 1), then, before the
     * next thread's, its NT_FPREGSET ("CORE" 2) and NT_X86_XSTATE
     * ("LINUX" 0x202) (the kernel puts the process-wide notes, NT_PRPSINFO
     * to NT_FILE, between the first thread's NT_PRSTATUS and its
     * NT_FPREGSET) */
    uint64_t it = 0;
    dwexpr_elf_note n;
    size_t seen = 0; /* NT_PRSTATUS notes so far */
    bool fp = false, xs = false;
    while (dwexpr_elf_note_next(u->core_elf, &it, &n) == DWEXPR_OK) {
        const bool core = n.namesz >= 4 && memcmp(n.name, "CORE", 4) == 0;
        if (core && n.type == 1) {
            if (seen++ > thread)
                break; /* the next thread's */
            if (seen == thread + 1 && n.descsz >= 112 + 27 * 8) {
                static const uint8_t pr_word[NREGS] = {10, 12, 11, 5, 13, 14, 4,  19, 9,
                                                       8,  7,  6,  3, 2,  1,  0, 16};
                for (int r = 0; r < NREGS; r++)
                    u->gp[r] = le64(n.desc + 112 + 8 * pr_word[r]);
                u->have_gp = true;
                u->fs_base = le64(n.desc + 112 + 21 * 8);
                u->have_fs = true;
            }
        } else if (seen == thread + 1 && core && n.type == 2 && !fp &&
                   n.descsz >= FX_XMM0 + NXMM * 16) {
            fxsave_regs(u, n.desc);
            fp = true;
        } else if (seen == thread + 1 && !xs && n.namesz >= 5 &&
                   memcmp(n.name, "LINUX", 5) == 0 && n.type == 0x202) {
            xstate_regs(u, n.desc, n.descsz);
            xs = true;
        }
    }
}

/* The thread ids of core U (each NT_PRSTATUS's pr_pid, in order) into
 * u->tids. */
static dwexpr_status core_threads(dwexpr_unw *u)
{
    uint64_t it = 0;
    dwexpr_elf_note n;
    size_t cap = 0;
    while (dwexpr_elf_note_next(u->core_elf, &it, &n) == DWEXPR_OK) {
        if (n.namesz < 4 || memcmp(n.name, "CORE", 4) != 0 || n.type != 1 || n.descsz < 36)
            continue;
        if (u->ntids == cap) {
            size_t c = cap ? 2 * cap : 8;
            uint64_t *v = realloc(u->tids, c * sizeof *v);
            if (!v)
                return DWEXPR_E_NOMEM;
            u->tids = v;
            cap = c;
        }
        /* struct elf_prstatus: pr_info (12 bytes), pr_cursig (2) and
         * padding, pr_sigpend, pr_sighold (8 each), then pr_pid */
        const uint8_t *q = n.desc + 32;
        u->tids[u->ntids++] = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
                              (uint32_t)q[3] << 24;
    }
    return DWEXPR_OK;
}

/* The same for a stopped process (PTRACE_GETREGS, PTRACE_GETFPREGS). */
static void ptrace_extra_regs(dwexpr_unw *u)
{
    struct user_regs_struct regs;
    struct user_fpregs_struct fpr;
    if (ptrace(PTRACE_GETREGS, u->pid, NULL, &regs) == 0) {
        u->fs_base = regs.fs_base;
        u->have_fs = true;
    }
    if (ptrace(PTRACE_GETFPREGS, u->pid, NULL, &fpr) == 0) {
        _Static_assert(offsetof(struct user_fpregs_struct, st_space) == FX_ST0 &&
                           offsetof(struct user_fpregs_struct, xmm_space) == FX_XMM0 &&
                           sizeof fpr >= FX_XMM0 + NXMM * 16,
                       "user_fpregs_struct is the fxsave image");
        fxsave_regs(u, (const uint8_t *)&fpr);
    }
    uint8_t xsave[4096]; /* the AVX component ends at 832; AVX-512 at 2688 */
    struct iovec iov = {xsave, sizeof xsave};
    if (ptrace(PTRACE_GETREGSET, u->pid, (void *)(uintptr_t)0x202, &iov) == 0)
        xstate_regs(u, xsave, iov.iov_len);
}

/* Walk the stack with libunwind once, keeping a cursor per frame. */
static dwexpr_status walk(dwexpr_unw *u, uint32_t max, dwexpr_error *err)
{
    if (!max)
        max = 256;
    u->frames = calloc(max, sizeof *u->frames);
    if (!u->frames)
        return DWEXPR_E_NOMEM;
    unw_cursor_t c;
    load_mods(u);
    set_accessors(u);
    u->as = unw_create_addr_space(&u->acc, 0);
    if (!u->as)
        return fail(err, DWEXPR_E_NOMEM, "libunwind: unw_create_addr_space failed");
    int r = unw_init_remote(&c, u->as, u);
    if (r < 0)
        return fail(err, DWEXPR_E_TARGET, "libunwind: unw_init_remote: %s", unw_strerror(r));
    for (;;) {
        ufr *f = &u->frames[u->nframes++];
        f->cur = c;
        unw_word_t ip = 0, sp = 0;
        unw_get_reg(&c, UNW_REG_IP, &ip);
        unw_get_reg(&c, UNW_REG_SP, &sp);
        f->pub.pc = ip;
        f->pub.sp = sp;
        f->pub.signal_frame = unw_is_signal_frame(&c) > 0;
        if (u->nframes == max)
            break;
        r = unw_step(&c);
        if (r <= 0)
            break;
    }
    return DWEXPR_OK;
}

static bool rd(dwexpr_unw *u, uint64_t addr, void *buf, size_t len);

/* The vDSO's address in core U: the auxiliary vector's AT_SYSINFO_EHDR
 * (33) in its NT_AUXV note (the vDSO maps no file: NT_FILE has none). */
static void core_vdso_base(dwexpr_unw *u)
{
    uint64_t it = 0;
    dwexpr_elf_note n;
    while (dwexpr_elf_note_next(u->core_elf, &it, &n) == DWEXPR_OK) {
        if (n.type != 6 /* NT_AUXV */ || n.namesz < 4 || memcmp(n.name, "CORE", 4) != 0)
            continue;
        for (uint64_t k = 0; k + 16 <= n.descsz; k += 16) {
            uint64_t type, val;
            memcpy(&type, n.desc + k, 8);
            memcpy(&val, n.desc + k + 8, 8);
            if (type == 33) {
                u->vdso_base = val;
                return;
            }
            if (type == 0)
                return;
        }
    }
}

/* The vDSO's image, read from the target at vdso_base (the kernel's code
 * for clock_gettime and friends, where a program that polls the time is
 * often stopped): an ELF file whose headers say how long it is. Its CFI
 * unwinds its frames (dwexpr_unw_vdso); libunwind reads it the same way. */
static void load_vdso(dwexpr_unw *u)
{
    uint8_t h[64];
    if (!u->vdso_base || u->vdso || !rd(u, u->vdso_base, h, sizeof h) ||
        memcmp(h, "\177ELF", 4) != 0 || h[4] != 2 /* ELFCLASS64 */ || h[5] != 1 /* LSB */)
        return;
    uint64_t phoff, shoff;
    uint16_t phentsize, phnum, shentsize, shnum;
    memcpy(&phoff, h + 0x20, 8);
    memcpy(&shoff, h + 0x28, 8);
    memcpy(&phentsize, h + 0x36, 2);
    memcpy(&phnum, h + 0x38, 2);
    memcpy(&shentsize, h + 0x3a, 2);
    memcpy(&shnum, h + 0x3c, 2);
    uint64_t size = phoff + (uint64_t)phentsize * phnum;
    if (shoff + (uint64_t)shentsize * shnum > size)
        size = shoff + (uint64_t)shentsize * shnum;
    if (size < sizeof h || size > (1u << 20)) /* a few pages; no more than 1 MB */
        return;
    uint8_t *img = malloc((size_t)size);
    if (!img || !rd(u, u->vdso_base, img, (size_t)size)) {
        free(img);
        return;
    }
    u->vdso = img;
    u->vdso_size = (size_t)size;
}

const uint8_t *dwexpr_unw_vdso(const dwexpr_unw *u, uint64_t *base, size_t *size)
{
    if (!u || !u->vdso)
        return NULL;
    *base = u->vdso_base;
    *size = u->vdso_size;
    return u->vdso;
}

/* Whether EXE, standing for the core's main executable PATH (its first
 * mapped file), is that file: a build id in the core's copy of its first
 * page (its ELF headers and notes, which Linux and GDB's gcore write) that
 * EXE does not have is a core of another program (GDB: "core file may
 * not match specified executable file"), whose variables would be read
 * at the wrong places: U's warning says so. */
static void check_exe(dwexpr_unw *u, const char *exe, const char *path)
{
    uint8_t head[4096];
    dwexpr_elf *in_core = NULL, *file = NULL;
    const uint8_t *want, *have = NULL;
    size_t nwant, nhave = 0;
    if (!u->nmaps || u->maps[0].file_offset != 0 ||
        dwexpr_elf_read_vaddr(u->core_elf, u->maps[0].start, head, sizeof head) ||
        dwexpr_elf_open_head(head, sizeof head, &in_core, NULL))
        return; /* no first page in the core: nothing to check */
    if (dwexpr_elf_build_id(in_core, &want, &nwant) == DWEXPR_OK &&
        dwexpr_elf_open_file(exe, &file, NULL) == DWEXPR_OK) {
        if (dwexpr_elf_build_id(file, &have, &nhave) != DWEXPR_OK)
            nhave = 0;
        if (nhave != nwant || memcmp(have, want, nwant) != 0) {
            char hw[41] = "", hh[41] = "(none)";
            for (size_t k = 0; k < nwant && k < 20; k++)
                snprintf(hw + 2 * k, 3, "%02x", want[k]);
            for (size_t k = 0; k < nhave && k < 20; k++)
                snprintf(hh + 2 * k, 3, "%02x", have[k]);
            snprintf(u->warning, sizeof u->warning,
                     "%s may not be the program the core was made of (%s): its build id %s "
                     "is not the core's %s",
                     exe, path, hh, hw);
        }
    }
    dwexpr_elf_free(file);
    dwexpr_elf_free(in_core);
}

const char *dwexpr_unw_warning(const dwexpr_unw *u)
{
    return u && u->warning[0] ? u->warning : NULL;
}

dwexpr_status dwexpr_unw_open_core(const char *core, const char *exe, uint32_t max_frames,
                                   dwexpr_unw **out, dwexpr_error *err)
{
    return dwexpr_unw_open_core_thread(core, exe, max_frames, 0, out, err);
}

dwexpr_status dwexpr_unw_open_core_thread(const char *core, const char *exe, uint32_t max_frames,
                                          uint64_t tid, dwexpr_unw **out, dwexpr_error *err)
{
    if (!core || !out)
        return DWEXPR_E_USAGE;
    *out = NULL;
    dwexpr_unw *u = calloc(1, sizeof *u);
    if (!u)
        return DWEXPR_E_NOMEM;
    u->core = true;
    dwexpr_status s = dwexpr_elf_open_file(core, &u->core_elf, err);
    if (s)
        goto bad;
    if (dwexpr_elf_type(u->core_elf) != 4 || dwexpr_elf_machine(u->core_elf) != 62) {
        s = fail(err, DWEXPR_E_USAGE, "%s is not an x86-64 core file", core);
        goto bad;
    }
    u->ui = _UCD_create(core);
    if (!u->ui) {
        s = fail(err, DWEXPR_E_TARGET, "libunwind: _UCD_create(%s) failed", core);
        goto bad;
    }
    /* the thread: the first NT_PRSTATUS's (the one that crashed, or GDB's
     * selected one for its gcore), else the one whose id is TID;
     * libunwind numbers the threads in the same order */
    if ((s = core_threads(u)))
        goto bad;
    size_t thread = 0;
    while (tid && thread < u->ntids && u->tids[thread] != tid)
        thread++;
    if (thread == u->ntids || (int)u->ntids != _UCD_get_num_threads(u->ui)) {
        s = thread == u->ntids
                ? fail(err, DWEXPR_E_NOT_FOUND, "%s has no thread %llu (it has %zu)", core,
                       (unsigned long long)tid, u->ntids)
                : fail(err, DWEXPR_E_TARGET, "%s: libunwind counts %d threads, its notes %zu",
                       core, _UCD_get_num_threads(u->ui), u->ntids);
        goto bad;
    }
    _UCD_select_thread(u->ui, (int)thread);
    u->tid = u->tids[thread];
    /* the files behind the core's mappings (NT_FILE): for libunwind's
     * own lookups and for dwexpr's CFI */
    dwexpr_elf_mapping m;
    const char *first = NULL;
    /* EXE is no other name of the main executable when it is itself one
     * of the core's files (a shared library the caller reads) */
    char *rexe = exe ? realpath(exe, NULL) : NULL;
    for (size_t i = 0; rexe && dwexpr_elf_core_mapping(u->core_elf, i, &m) == DWEXPR_OK; i++) {
        char *rp = realpath(m.path, NULL);
        if (rp && strcmp(rp, rexe) == 0)
            exe = NULL;
        free(rp);
        if (!exe)
            break;
    }
    free(rexe);
    for (size_t i = 0; dwexpr_elf_core_mapping(u->core_elf, i, &m) == DWEXPR_OK; i++) {
        if (!first)
            first = m.path;
        const char *path = (exe && first && strcmp(m.path, first) == 0) ? exe : m.path;
        if ((s = add_map(u, m.start, m.end, m.file_offset, path)))
            goto bad;
    }
    if (exe && first)
        check_exe(u, exe, first);
    core_vdso_base(u);
    core_extra_regs(u, thread);
    if ((s = walk(u, max_frames, err)))
        goto bad;
    load_vdso(u);
    find_main_tls(u, u->nmaps ? u->maps[0].path : NULL);
    *out = u;
    return DWEXPR_OK;
bad:
    dwexpr_unw_close(u);
    return s;
}

/* The state letter of process PID (/proc/PID/stat, after the name: 'T'
 * stopped, 'R' running, ...); 0 when it cannot be read. */
static char proc_state(pid_t pid)
{
    char path[64], stat[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    stat[n] = 0;
    fclose(f);
    const char *rp = strrchr(stat, ')');
    return rp && rp[1] == ' ' ? rp[2] : 0;
}

dwexpr_status dwexpr_unw_open_pid(int pid, uint32_t max_frames, dwexpr_unw **out,
                                  dwexpr_error *err)
{
    if (pid <= 0 || !out)
        return DWEXPR_E_USAGE;
    *out = NULL;
    dwexpr_unw *u = calloc(1, sizeof *u);
    if (!u)
        return DWEXPR_E_NOMEM;
    u->pid = pid;
    u->tid = (uint64_t)pid;
    dwexpr_status s;
    /* a process stopped (SIGSTOP, job control) before we came stays
     * stopped when we leave */
    u->was_stopped = proc_state(pid) == 'T';
    if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) != 0) {
        s = fail(err, DWEXPR_E_TARGET, "ptrace(ATTACH, %d): %s", pid, strerror(errno));
        goto bad;
    }
    u->attached = true;
    int status;
    if (waitpid(pid, &status, __WALL) < 0) {
        s = fail(err, DWEXPR_E_TARGET, "waitpid(%d): %s", pid, strerror(errno));
        goto bad;
    }
    char mp[64];
    snprintf(mp, sizeof mp, "/proc/%d/maps", pid);
    FILE *f = fopen(mp, "r");
    if (f) {
        char line[4096], gone[4096] = "", instead[96] = "";
        while (fgets(line, sizeof line, f)) {
            unsigned long long a, b, off, ino = 0;
            unsigned dmaj = 0, dmin = 0;
            char perms[8];
            int pos = 0;
            if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &a, &b, perms, &off, &dmaj,
                       &dmin, &ino, &pos) < 7 ||
                !pos)
                continue;
            char *path = line + pos;
            path[strcspn(path, "\n")] = 0;
            /* a file that is not the one the process mapped (deleted or
             * replaced since: "PATH (deleted)"; another file at that name
             * in the debugger's view, as for a process in a container):
             * the process's own, through the mapping's entry in
             * /proc/PID/map_files (the first mapping's, for every mapping
             * of that file: one module) */
            struct stat ps;
            if (path[0] == '/' &&
                (stat(path, &ps) != 0 || (unsigned long long)ps.st_ino != ino ||
                 major(ps.st_dev) != dmaj || minor(ps.st_dev) != dmin)) {
                if (strcmp(path, gone) != 0) {
                    snprintf(gone, sizeof gone, "%s", path);
                    snprintf(instead, sizeof instead, "/proc/%d/map_files/%llx-%llx", pid, a, b);
                }
                /* (else the name as it is, " (deleted)" and all: no file
                 * of that name is the process's) */
                if (access(instead, R_OK) == 0)
                    path = instead;
            }
            if (strcmp(path, "[vdso]") == 0)
                u->vdso_base = a;
            if (path[0] == '/' && (s = add_map(u, a, b, off, path))) {
                fclose(f);
                goto bad;
            }
        }
        fclose(f);
    }
    u->ui = _UPT_create(pid);
    if (!u->ui) {
        s = fail(err, DWEXPR_E_TARGET, "libunwind: cannot set up ptrace unwinding");
        goto bad;
    }
    if ((s = walk(u, max_frames, err)))
        goto bad;
    ptrace_extra_regs(u);
    load_vdso(u);
    char exe[64], real[4096];
    snprintf(exe, sizeof exe, "/proc/%d/exe", pid);
    ssize_t n = readlink(exe, real, sizeof real - 1);
    if (n > 0) {
        real[n] = 0;
        find_main_tls(u, real);
    }
    /* an executable deleted since it started: its module is the process's
     * copy (its map_files entry), the same file as /proc/PID/exe */
    struct stat se, sm;
    for (size_t k = 0; !u->main_mod && k < u->nmods && stat(exe, &se) == 0; k++)
        if (stat(u->mods[k].path, &sm) == 0 && sm.st_dev == se.st_dev && sm.st_ino == se.st_ino) {
            u->main_mod = &u->mods[k];
            main_tls(u, u->mods[k].elf);
        }
    *out = u;
    return DWEXPR_OK;
bad:
    dwexpr_unw_close(u);
    return s;
}

void dwexpr_unw_close(dwexpr_unw *u)
{
    if (!u)
        return;
    free(u->vdso);
    if (u->as)
        unw_destroy_addr_space(u->as);
    if (u->ui)
        u->core ? _UCD_destroy(u->ui) : _UPT_destroy(u->ui);
    if (u->attached &&
        ptrace(PTRACE_DETACH, u->pid, NULL, (void *)(long)(u->was_stopped ? SIGSTOP : 0)) == 0 &&
        u->was_stopped) {
        /* it runs until the SIGSTOP is delivered: wait (up to a second)
         * until it is stopped again, so that it is when this returns */
        for (int i = 0; i < 1000 && proc_state(u->pid) != 'T'; i++) {
            const struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
        }
    }
    for (size_t k = 0; k < u->nmods; k++) {
        dwexpr_elf_free(u->mods[k].elf);
    }
    free(u->mods);
    for (size_t i = 0; i < u->nmaps; i++)
        free(u->paths[i]);
    free(u->paths);
    free(u->maps);
    free(u->frames);
    free(u->unseen);
    free(u->tids);
    dwexpr_elf_free(u->core_elf);
    while (u->sigymm) {
        struct sigymm *next = u->sigymm->next;
        free(u->sigymm);
        u->sigymm = next;
    }
    free(u);
}

uint64_t dwexpr_unw_thread_id(const dwexpr_unw *u)
{
    return u->tid;
}

size_t dwexpr_unw_threads(const dwexpr_unw *u, uint64_t *tids, size_t cap)
{
    const uint64_t one = u->tid;
    const uint64_t *v = u->core ? u->tids : &one;
    const size_t n = u->core ? u->ntids : 1;
    for (size_t i = 0; i < n && i < cap; i++)
        tids[i] = v[i];
    return n;
}

size_t dwexpr_unw_frame_count(const dwexpr_unw *u) { return u->nframes; }
const dwexpr_unw_frame *dwexpr_unw_frame_at(const dwexpr_unw *u, size_t i)
{
    return i < u->nframes ? &u->frames[i].pub : NULL;
}
size_t dwexpr_unw_mapping_count(const dwexpr_unw *u) { return u->nmaps; }
const dwexpr_unw_mapping *dwexpr_unw_mapping_at(const dwexpr_unw *u, size_t i)
{
    return i < u->nmaps ? &u->maps[i] : NULL;
}

/* ---- the target ---- */

static dwexpr_status t_reg_size(void *user, uint32_t regno, uint32_t *bytes)
{
    if (regno >= ST0 + NST)
        return DWEXPR_E_NOT_FOUND;
    /* the x86-64 arch's sizes (lib/arch/x86_64.c), except st0-7: each is
     * its 16-byte FXSAVE slot (t_reg_read); with AVX, DWARF 17-32 are
     * ymm0-15 (xstate_regs) */
    const dwexpr_unw *u = user;
    *bytes = regno >= ST0 ? STSLOT : regno >= XMM0 ? (u && u->have_ymm ? 32 : 16) : 8;
    return DWEXPR_OK;
}

/* Register REGNO's value in libunwind frame F. */
static dwexpr_status reg_value(dwexpr_unw *u, uint32_t f, uint32_t regno, uint64_t *v)
{
    if (f >= u->nframes || regno >= NREGS)
        return DWEXPR_E_NOT_FOUND;
    unw_word_t w;
    if (unw_get_reg(&u->frames[f].cur, (unw_regnum_t)regno, &w) < 0)
        return DWEXPR_E_TARGET;
    *v = w;
    return DWEXPR_OK;
}

static dwexpr_status t_reg_read(void *user, const dwexpr_regref *r, uint64_t off, void *buf,
                                size_t len)
{
    dwexpr_unw *u = user;
    if (r->regno >= XMM0 && r->regno < XMM0 + NXMM) {
        /* the vector registers of the thread (frame 0 only) */
        if (r->frame != 0 || !u->have_xmm)
            return DWEXPR_E_NOT_FOUND;
        const uint64_t size = u->have_ymm ? 32 : 16;
        if (off > size || len > size - off)
            return DWEXPR_E_TARGET;
        uint8_t ymm[32];
        memcpy(ymm, u->xmm[r->regno - XMM0], 16);
        memcpy(ymm + 16, u->ymmh[r->regno - XMM0], 16);
        memcpy(buf, ymm + off, len);
        return DWEXPR_OK;
    }
    if (r->regno >= ST0 && r->regno < ST0 + NST) {
        /* the x87 registers of the thread (frame 0 only): the storage of
         * ST(i) is its 16-byte FXSAVE slot, the 80-bit value and 6 bytes
         * read as zero (the slot's reserved bytes), not the arch's 10
         * bytes (which the simulated target keeps, contract). GCC -O2
         * reads a long double (16 bytes, psABI 3.1.2) kept there with
         * DW_OP_regval_type 33 <long double>; GDB converts the register to
         * the type (i387_register_to_value), the same x87 format: the 10
         * bytes and zero padding, which this gives without an exception
         * to the seed's rule that a type wider than the register is an
         * evaluation error (a 17-byte type still is). The one difference:
         * GDB refuses a non-float type wider than 10 bytes there. */
        if (r->frame != 0 || !u->have_st)
            return DWEXPR_E_NOT_FOUND;
        if (off > STSLOT || len > STSLOT - off)
            return DWEXPR_E_TARGET;
        uint8_t slot[STSLOT] = {0};
        memcpy(slot, u->st[r->regno - ST0], STBYTES);
        memcpy(buf, slot + off, len);
        return DWEXPR_OK;
    }
    uint64_t v;
    dwexpr_status s = reg_value(user, r->frame, r->regno, &v);
    if (s)
        return s;
    if (off > 8 || len > 8 - off)
        return DWEXPR_E_TARGET;
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    memcpy(buf, b + off, len);
    return DWEXPR_OK;
}

static dwexpr_status t_mem_read(void *user, const dwexpr_memref *m, void *buf, size_t len)
{
    dwexpr_unw *u = user;
    if (m->aspace != 0)
        return DWEXPR_E_NOT_FOUND;
    uint8_t *out = buf;
    if (u->core)
        return core_mem(u, m->address, out, len) ? DWEXPR_E_TARGET : DWEXPR_OK;
    uint64_t a = m->address;
    while (len) {
        /* libunwind moves whole aligned words (style-anchors §3) */
        uint64_t base = a & ~(uint64_t)7;
        unw_word_t w;
        if (a_access_mem(u->as, (unw_word_t)base, &w, 0, u) < 0)
            return DWEXPR_E_TARGET;
        size_t k = (size_t)(a - base), n = 8 - k;
        if (n > len)
            n = len;
        for (size_t i = 0; i < n; i++)
            out[i] = (uint8_t)(w >> (8 * (k + i)));
        out += n;
        a += n;
        len -= n;
    }
    return DWEXPR_OK;
}

/* libunwind's CFA of frame F: the stack pointer of its caller (x86-64
 * psABI: the CFA is rsp before the call). */
static dwexpr_status t_cfa(void *user, const dwexpr_frameref *f, dwexpr_sld *out)
{
    dwexpr_unw *u = user;
    if (f->frame + 1 >= u->nframes)
        return DWEXPR_E_NOT_FOUND;
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = u->frames[f->frame + 1].pub.sp;
    return DWEXPR_OK;
}

static dwexpr_status t_register_location(void *user, const dwexpr_frameref *f, uint32_t regno,
                                         dwexpr_sld *out)
{
    dwexpr_unw *u = user;
    if (f->frame >= u->nframes || regno >= NREGS)
        return DWEXPR_E_NOT_FOUND;
    ufr *fr = &u->frames[f->frame];
    unw_save_loc_t sl;
    memset(out, 0, sizeof *out);
    if (unw_get_save_loc(&fr->cur, (int)regno, &sl) == 0 && sl.type == UNW_SLT_MEMORY) {
        out->kind = DWEXPR_LOC_MEMORY;
        out->byte_offset = sl.u.addr;
        return DWEXPR_OK;
    }
    uint64_t v;
    if (reg_value(u, f->frame, regno, &v)) {
        out->kind = DWEXPR_LOC_UNDEFINED;
        return DWEXPR_OK;
    }
    for (int i = 0; i < 8; i++)
        fr->vals[regno][i] = (uint8_t)(v >> (8 * i));
    out->kind = DWEXPR_LOC_IMPLICIT;
    out->u.imp.data = fr->vals[regno];
    out->u.imp.bits = 64;
    return DWEXPR_OK;
}

static dwexpr_status t_frame_pc(void *user, const dwexpr_frameref *f, uint64_t *pc)
{
    dwexpr_unw *u = user;
    if (f->frame >= u->nframes)
        return DWEXPR_E_NOT_FOUND;
    *pc = u->frames[f->frame].pub.pc;
    return DWEXPR_OK;
}

/* DW_OP_form_tls_address: TA in the main executable's static TLS block
 * of the thread (main_tls: tp - offset + TA). */
static dwexpr_status t_tls_address(void *user, const dwexpr_frameref *f, uint64_t ta,
                                   dwexpr_sld *out)
{
    dwexpr_unw *u = user;
    (void)f;
    if (!u->have_fs || !u->have_tls)
        return DWEXPR_E_NOT_FOUND;
    /* an "offset" past the block that is a link-time address inside
     * PT_TLS: binutils ld resolves the DTPOFF relocations of split DWARF's
     * .debug_addr to the variable's address, not its offset */
    if (ta >= u->tls_memsz && ta >= u->tls_vaddr && ta - u->tls_vaddr < u->tls_memsz)
        ta -= u->tls_vaddr;
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = u->fs_base - u->tls_offset + ta;
    return DWEXPR_OK;
}

/* ---- thread-local storage of any module (glibc's DTV) ---- */

/* Read LEN bytes of the process at ADDR (t_mem_read); false if not. */
static bool rd(dwexpr_unw *u, uint64_t addr, void *buf, size_t len)
{
    dwexpr_memref m;
    memset(&m, 0, sizeof m);
    m.address = addr;
    return t_mem_read(u, &m, buf, len) == DWEXPR_OK;
}

/* The little-endian 64-bit word of the process at ADDR. */
static bool rd64(dwexpr_unw *u, uint64_t addr, uint64_t *v)
{
    uint8_t b[8];
    if (!rd(u, addr, b, sizeof b))
        return false;
    *v = le64(b);
    return true;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The value of the defined dynamic symbol NAME of ELF (.dynsym, an
 * Elf64_Sym array of 24-byte entries: st_name at 0, st_shndx at 6,
 * st_value at 8; names in the string table its sh_link names). */
static bool dynsym_value(const dwexpr_elf *elf, const char *name, uint64_t *value)
{
    const size_t nl = strlen(name);
    for (size_t i = 0; i < dwexpr_elf_section_count(elf); i++) {
        dwexpr_elf_section ds, str;
        if (dwexpr_elf_get_section(elf, i, &ds) || ds.type != 11 /* SHT_DYNSYM */ || !ds.data ||
            dwexpr_elf_get_section(elf, ds.link, &str) || !str.data)
            continue;
        for (uint64_t off = 24; off + 24 <= ds.size; off += 24) {
            const uint8_t *sym = ds.data + off;
            uint32_t sn = le32(sym);
            if ((sym[6] | sym[7]) == 0 || sn >= str.size || str.size - sn <= nl ||
                memcmp(str.data + sn, name, nl + 1) != 0)
                continue;
            *value = le64(sym + 8);
            return true;
        }
    }
    return false;
}

/* glibc's libthread_db descriptor NAME (glibc 2.34 and later export them
 * from libc.so.6 as dynamic symbols _thread_db_NAME; nptl_db/db_info.c:
 * three uint32_t, the field's size in bits, the number of elements and
 * its byte offset) from module M's file: *OFFSET, after checking the
 * size is BITS (or any, BITS 0). */
static bool td_desc(const umod *m, const char *name, uint32_t bits, uint64_t *offset)
{
    char sym[96];
    uint64_t at;
    uint8_t d[12];
    snprintf(sym, sizeof sym, "_thread_db_%s", name);
    if (!dynsym_value(m->elf, sym, &at) || dwexpr_elf_read_vaddr(m->elf, at, d, sizeof d) ||
        (bits && le32(d) != bits))
        return false;
    *offset = le32(d + 8);
    return true;
}

/* The layout libthread_db (so GDB) reads TLS with, from the libc that
 * defines it, and where the dynamic linker's state is: link_map's
 * l_tls_modid and l_tls_offset, struct pthread's DTV pointer (x86-64:
 * tcbhead_t.dtv, at the thread pointer), the DTV's element (union dtv:
 * counter, pointer.val), _rtld_global's _dl_tls_dtv_slotinfo_list and
 * that list's len, next and slotinfo array of {gen, map}; _rtld_global
 * through libc's pointer __nptl_rtld_global (glibc 2.34 and later
 * nptl_db/td_ta_new.c __td_ta_rtld_global). glibc 2.36 x86-64 has
 * l_tls_modid at 1152, l_tls_offset at 1144, the DTV pointer at 8,
 * 16-byte DTV entries; all are read from the descriptors here, none
 * assumed. */
static bool td_layout(dwexpr_unw *u)
{
    if (u->td_state)
        return u->td_state > 0;
    u->td_state = -1;
    for (size_t k = 0; k < u->nmods; k++) {
        const umod *m = &u->mods[k];
        uint64_t dtv_off, rg;
        if (!td_desc(m, "link_map_l_tls_modid", 64, &u->td_modid))
            continue;
        /* the DTV and the slotinfo arrays: elements of 128 bits */
        if (!td_desc(m, "link_map_l_tls_offset", 64, &u->td_tlsoff) ||
            !td_desc(m, "pthread_dtvp", 64, &u->td_dtvp) ||
            !td_desc(m, "dtv_t_pointer_val", 64, &u->td_val) ||
            !td_desc(m, "dtv_t_counter", 64, &u->td_counter) ||
            !td_desc(m, "dtv_dtv", 128, &dtv_off) || dtv_off != 0 ||
            !td_desc(m, "rtld_global__dl_tls_dtv_slotinfo_list", 64, &u->td_slotlist) ||
            !td_desc(m, "dtv_slotinfo_list_len", 64, &u->td_sl_len) ||
            !td_desc(m, "dtv_slotinfo_list_next", 64, &u->td_sl_next) ||
            !td_desc(m, "dtv_slotinfo_list_slotinfo", 128, &u->td_sl_info) ||
            !td_desc(m, "dtv_slotinfo_gen", 64, &u->td_si_gen) ||
            !td_desc(m, "dtv_slotinfo_map", 64, &u->td_si_map) ||
            !dynsym_value(m->elf, "__nptl_rtld_global", &rg) ||
            !rd64(u, m->bias + rg, &u->td_rtld))
            return false;
        u->td_dtv_entry = u->td_si_size = 16;
        u->td_state = 1;
        return true;
    }
    return false;
}

/* The PT_TLS and PT_DYNAMIC of ELF (false when it has no PT_TLS). */
static bool tls_segments(const dwexpr_elf *elf, dwexpr_elf_segment *tls, dwexpr_elf_segment *dyn)
{
    bool have = false;
    memset(dyn, 0, sizeof *dyn);
    for (size_t i = 0; i < dwexpr_elf_segment_count(elf); i++) {
        dwexpr_elf_segment sg;
        if (dwexpr_elf_get_segment(elf, i, &sg))
            continue;
        if (sg.type == 7 /* PT_TLS */) {
            *tls = sg;
            have = true;
        } else if (sg.type == 2 /* PT_DYNAMIC */) {
            *dyn = sg;
        }
    }
    return have;
}

/* Fill WHY and return S. */
static dwexpr_status why_fail(char *why, size_t cap, dwexpr_status s, const char *fmt, ...)
{
    if (cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, cap, fmt, ap);
        va_end(ap);
    }
    return s;
}

/* The dynamic linker's link_map of module M (glibc <link.h>: the main
 * executable's DT_DEBUG entry, set by ld.so, points at its struct
 * r_debug, whose r_map (at 8, after the int r_version) heads the chain
 * of struct link_map {l_addr 0, l_name 8, l_ld 16, l_next 24, l_prev 32};
 * M's is the one whose l_ld is its PT_DYNAMIC at run time). */
static dwexpr_status find_link_map(dwexpr_unw *u, const umod *m, const dwexpr_elf_segment *mdyn,
                                   uint64_t *lm, char *why, size_t cap)
{
    const umod *x = u->main_mod;
    dwexpr_elf_segment tls, dyn;
    if (!x)
        return why_fail(why, cap, DWEXPR_E_NOT_FOUND, "the main executable is not known");
    tls_segments(x->elf, &tls, &dyn);
    if (dyn.type != 2)
        return why_fail(why, cap, DWEXPR_E_NOT_FOUND,
                        "%s has no PT_DYNAMIC (a static executable): no module list", x->path);
    if (mdyn->type != 2)
        return why_fail(why, cap, DWEXPR_E_NOT_FOUND, "%s has no PT_DYNAMIC", m->path);
    uint64_t rdebug = 0;
    for (uint64_t off = 0; off + 16 <= dyn.memsz; off += 16) {
        uint64_t tag, val;
        if (!rd64(u, x->bias + dyn.vaddr + off, &tag) ||
            !rd64(u, x->bias + dyn.vaddr + off + 8, &val))
            return why_fail(why, cap, DWEXPR_E_TARGET,
                            "cannot read the main executable's dynamic section at 0x%llx",
                            (unsigned long long)(x->bias + dyn.vaddr + off));
        if (tag == 0) /* DT_NULL */
            break;
        if (tag == 21) { /* DT_DEBUG */
            rdebug = val;
            break;
        }
    }
    uint64_t l;
    if (!rdebug)
        return why_fail(why, cap, DWEXPR_E_NOT_FOUND,
                        "the main executable's DT_DEBUG is not set: no module list");
    if (!rd64(u, rdebug + 8, &l))
        return why_fail(why, cap, DWEXPR_E_TARGET, "cannot read r_debug at 0x%llx",
                        (unsigned long long)rdebug);
    const uint64_t want = m->bias + mdyn->vaddr;
    for (int n = 0; l && n < 65536; n++) {
        uint64_t ld, next;
        if (!rd64(u, l + 16, &ld) || !rd64(u, l + 24, &next))
            return why_fail(why, cap, DWEXPR_E_TARGET, "cannot read the link_map at 0x%llx",
                            (unsigned long long)l);
        if (ld == want) {
            *lm = l;
            return DWEXPR_OK;
        }
        l = next;
    }
    return why_fail(why, cap, DWEXPR_E_NOT_FOUND,
                    "%s is not in the dynamic linker's module list", m->path);
}

/* The TLS block of module M (link_map LM) in the thread, as libthread_db's
 * td_thr_tlsbase finds it (glibc 2.36 nptl_db/td_thr_tlsbase.c, what GDB
 * 13 asks): with module id l_tls_modid, its slotinfo entry (the list
 * at _rtld_global._dl_tls_dtv_slotinfo_list) gives the DTV generation
 * the module needs; when the thread's DTV (generation in element 0's
 * counter) is that recent and its entry's pointer.val is allocated (not
 * TLS_DTV_UNALLOCATED, (void *) -1: the low bit clear), that is the
 * block; else the module's static block tp - l_tls_offset (x86-64
 * TLS_TCB_AT_TP) when it has one (l_tls_offset neither NO_TLS_OFFSET 0
 * nor FORCED_DYNAMIC_TLS_OFFSET -1), else the thread has not allocated
 * it (TD_TLSDEFER). */
static dwexpr_status dtv_block(dwexpr_unw *u, const umod *m, uint64_t lm, uint64_t *base,
                               char *why, size_t cap)
{
    uint64_t modid, slot, len, slbase = 0, map, modgen, dtv, dtvgen, dtvlen, val = 1, off;
    if (!rd64(u, lm + u->td_modid, &modid))
        return why_fail(why, cap, DWEXPR_E_TARGET, "cannot read the link_map of %s", m->path);
    if (modid == 0)
        return why_fail(why, cap, DWEXPR_E_NOT_FOUND, "%s has no TLS module id", m->path);
    if (!rd64(u, u->td_rtld + u->td_slotlist, &slot))
        return why_fail(why, cap, DWEXPR_E_TARGET, "cannot read _rtld_global");
    for (int n = 0; slot && n < 4096; n++) {
        if (!rd64(u, slot + u->td_sl_len, &len))
            return why_fail(why, cap, DWEXPR_E_TARGET, "cannot read the TLS slotinfo list");
        if (modid - slbase < len)
            break;
        slbase += len;
        if (!rd64(u, slot + u->td_sl_next, &slot))
            return why_fail(why, cap, DWEXPR_E_TARGET, "cannot read the TLS slotinfo list");
    }
    const uint64_t si = slot + u->td_sl_info + (modid - slbase) * u->td_si_size;
    if (!slot || !rd64(u, si + u->td_si_map, &map) || !rd64(u, si + u->td_si_gen, &modgen) ||
        !map)
        return why_fail(why, cap, DWEXPR_E_NOT_FOUND,
                        "TLS module id %llu (%s) is not in the dynamic linker's slotinfo list",
                        (unsigned long long)modid, m->path);
    /* glibc 2.36 elf/dl-tls.c allocate_dtv: the thread's pointer is to
     * element 1 of its allocation, whose element 0 holds the length;
     * element 0 of the DTV is the generation, module id M at M */
    if (!rd64(u, u->fs_base + u->td_dtvp, &dtv) ||
        !rd64(u, dtv + u->td_counter, &dtvgen) ||
        !rd64(u, dtv - u->td_dtv_entry + u->td_counter, &dtvlen))
        return why_fail(why, cap, DWEXPR_E_TARGET, "cannot read the thread's DTV");
    if (dtvgen >= modgen && modid <= dtvlen &&
        !rd64(u, dtv + modid * u->td_dtv_entry + u->td_val, &val))
        return why_fail(why, cap, DWEXPR_E_TARGET, "cannot read the thread's DTV");
    if (dtvgen >= modgen && !(val & 1)) {
        *base = val;
        return DWEXPR_OK;
    }
    if (!rd64(u, map + u->td_tlsoff, &off))
        return why_fail(why, cap, DWEXPR_E_TARGET, "cannot read the link_map of %s", m->path);
    if (off == 0 || off == UINT64_MAX)
        return why_fail(why, cap, DWEXPR_E_NOT_FOUND,
                        "the thread has not allocated the TLS block of %s (module id %llu) "
                        "yet: it has not used that module's thread-local variables",
                        m->path, (unsigned long long)modid);
    *base = u->fs_base - off;
    return DWEXPR_OK;
}

dwexpr_status dwexpr_unw_tls_address(dwexpr_unw *u, uint64_t bias, uint64_t ta,
                                     dwexpr_sld *out, char *why, size_t cap)
{
    if (!u || !out)
        return DWEXPR_E_USAGE;
    if (cap)
        why[0] = 0;
    if (!u->have_fs)
        return why_fail(why, cap, DWEXPR_E_NOT_FOUND, "the thread pointer is not known");
    const umod *m = NULL;
    for (size_t k = 0; k < u->nmods && !m; k++)
        if (u->mods[k].bias == bias)
            m = &u->mods[k];
    if (!m)
        return why_fail(why, cap, DWEXPR_E_NOT_FOUND, "no module is loaded with bias 0x%llx",
                        (unsigned long long)bias);
    dwexpr_elf_segment tls, dyn;
    if (!tls_segments(m->elf, &tls, &dyn))
        return why_fail(why, cap, DWEXPR_E_NOT_FOUND, "%s has no PT_TLS", m->path);
    /* the split DWARF .debug_addr quirk of t_tls_address, for any module */
    if (ta >= tls.memsz && ta >= tls.vaddr && ta - tls.vaddr < tls.memsz)
        ta -= tls.vaddr;
    uint64_t base = 0, lm = 0;
    dwexpr_status s;
    char lwhy[300];
    if (!td_layout(u))
        s = why_fail(lwhy, sizeof lwhy, DWEXPR_E_NOT_FOUND,
                     "no libc with glibc's libthread_db descriptors "
                     "(_thread_db_link_map_l_tls_modid) is loaded");
    else if (!(s = find_link_map(u, m, &dyn, &lm, lwhy, sizeof lwhy)))
        s = dtv_block(u, m, lm, &base, lwhy, sizeof lwhy);
    if (m == u->main_mod && u->have_tls) {
        /* the main executable: its static block as before (a static
         * executable has no module list), which the DTV must agree with */
        const uint64_t fixed = u->fs_base - u->tls_offset;
        if (!s && base != fixed)
            return why_fail(why, cap, DWEXPR_E_TARGET,
                            "the main executable's TLS block: 0x%llx by the DTV, 0x%llx by "
                            "its static offset",
                            (unsigned long long)base, (unsigned long long)fixed);
        base = fixed;
        s = DWEXPR_OK;
    }
    if (s) {
        if (cap)
            snprintf(why, cap, "%s", lwhy);
        return s;
    }
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = base + ta;
    return DWEXPR_OK;
}

/* x86-64 Linux signal frame layout (kernel rt_sigframe after pretcode,
 * glibc ucontext_t / struct _libc_fpstate): uc_flags, uc_link, uc_stack
 * (40 bytes), then uc_mcontext's 23 general register words, then its
 * fpregs pointer; xmm0 at byte 160 of the fxsave image. */
enum { UC_FPREGS = 40 + 23 * 8 };

dwexpr_status dwexpr_unw_sigframe_register(dwexpr_unw *u, uint64_t sp, uint32_t regno,
                                           dwexpr_sld *out)
{
    if (!u || !out)
        return DWEXPR_E_USAGE;
    if (regno < XMM0 || regno >= XMM0 + NXMM)
        return DWEXPR_E_NOT_FOUND;
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_UNDEFINED;
    dwexpr_memref m;
    memset(&m, 0, sizeof m);
    m.address = sp + UC_FPREGS;
    uint8_t b[8];
    if (sp > UINT64_MAX - UC_FPREGS || t_mem_read(u, &m, b, sizeof b) != DWEXPR_OK)
        return DWEXPR_OK;
    uint64_t fp = le64(b);
    uint64_t at = FX_XMM0 + 16ull * (regno - XMM0);
    if (fp == 0 || fp > UINT64_MAX - XS_YMMH - 16 * NXMM)
        return DWEXPR_OK;
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = fp + at;
    if (!u->have_ymm)
        return DWEXPR_OK;
    /* with AVX the register is ymm, 32 bytes (t_reg_size): the saved
     * state is an XSAVE image when its software bytes say so (the
     * kernel's magic at 464), its upper half then in the AVX component
     * (zero when XSTATE_BV says the component is in its initial state);
     * else that half is not saved */
    static const uint8_t zeros[16];
    struct sigymm *y = calloc(1, sizeof *y);
    if (!y)
        return DWEXPR_E_NOMEM;
    y->next = u->sigymm;
    u->sigymm = y;
    y->slds[0] = *out;
    uint8_t sw[4], bv[8];
    m.address = fp + XS_SW;
    const bool xsave = t_mem_read(u, &m, sw, sizeof sw) == DWEXPR_OK &&
                       ((uint32_t)sw[0] | (uint32_t)sw[1] << 8 | (uint32_t)sw[2] << 16 |
                        (uint32_t)sw[3] << 24) == XS_SW_MAGIC;
    m.address = fp + XS_BV;
    if (xsave && t_mem_read(u, &m, bv, sizeof bv) == DWEXPR_OK) {
        if (le64(bv) & XS_AVX) {
            y->slds[1].kind = DWEXPR_LOC_MEMORY;
            y->slds[1].byte_offset = fp + XS_YMMH + 16ull * (regno - XMM0);
        } else {
            y->slds[1].kind = DWEXPR_LOC_IMPLICIT;
            y->slds[1].u.imp.data = zeros;
            y->slds[1].u.imp.bits = 128;
        }
    } /* else undefined */
    for (int k = 0; k < 2; k++) {
        y->parts[k].bit_size = 128;
        y->parts[k].loc.count = 1;
        y->parts[k].loc.slds = &y->slds[k];
    }
    y->comp.count = y->comp.cap = 2;
    y->comp.complete = true;
    y->comp.depth = 1;
    y->comp.bits = 256;
    y->comp.parts = y->parts;
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_COMPOSITE;
    out->u.comp = &y->comp;
    return DWEXPR_OK;
}

bool dwexpr_unw_thread_pointer(const dwexpr_unw *u, uint64_t *tp)
{
    if (!u->have_fs)
        return false;
    *tp = u->fs_base;
    return true;
}

static const dwexpr_target unw_target = {
    .size = sizeof(dwexpr_target),
    .reg_size = t_reg_size,
    .reg_read = t_reg_read,
    .mem_read = t_mem_read,
    .tls_address = t_tls_address,
    .cfa = t_cfa,
    .register_location = t_register_location,
    .frame_pc = t_frame_pc,
};

const dwexpr_target *dwexpr_unw_target(void)
{
    return &unw_target;
}

/* ---- cross-check ---- */

dwexpr_status dwexpr_unw_cfi_unseen(dwexpr_unw *u, const dwexpr_cfi *cfi)
{
    if (!u || !cfi)
        return DWEXPR_E_USAGE;
    const dwexpr_cfi **n = realloc(u->unseen, (u->nunseen + 1) * sizeof *n);
    if (!n)
        return DWEXPR_E_NOMEM;
    u->unseen = n;
    u->unseen[u->nunseen++] = cfi;
    return DWEXPR_OK;
}

/* Whether CFI is one libunwind does not read (dwexpr_unw_cfi_unseen). */
static bool cfi_unseen(const dwexpr_unw *u, const dwexpr_cfi *cfi)
{
    for (size_t k = 0; cfi && k < u->nunseen; k++)
        if (u->unseen[k] == cfi)
            return true;
    return false;
}

dwexpr_status dwexpr_unw_crosscheck(dwexpr_unw *u, dwexpr_unwinder *uw, char *report, size_t cap,
                                    unsigned *checked, unsigned *bad)
{
    size_t used = 0;
    unsigned nchk = 0, nbad = 0;
    if (cap)
        report[0] = 0;
#define SAY(...)                                                                  \
    do {                                                                          \
        if (used < cap) {                                                         \
            int w_ = snprintf(report + used, cap - used, __VA_ARGS__);            \
            used += w_ > 0 ? (size_t)w_ : 0;                                      \
        }                                                                         \
        nbad++;                                                                   \
    } while (0)
    uint32_t i = 0;
    for (;; i++) {
        dwexpr_unwind_frame f;
        dwexpr_status s = dwexpr_unwinder_frame(uw, i, &f);
        if (s) {
            if (s != DWEXPR_E_NOT_FOUND)
                SAY("frame %u: dwexpr stopped: %s\n", (unsigned)i,
                    dwexpr_unwinder_error(uw)->message);
            break;
        }
        if (i >= u->nframes) {
            dwexpr_unwind_frame prev;
            if (i > 0 && i == u->nframes && dwexpr_unwinder_frame(uw, i - 1, &prev) == DWEXPR_OK &&
                cfi_unseen(u, prev.cfi))
                break; /* the caller of frame i - 1 comes from CFI libunwind does not read */
            SAY("frame %u: dwexpr has it (pc 0x%llx), libunwind does not\n", (unsigned)i,
                (unsigned long long)f.pc);
            continue;
        }
        nchk++;
        if (f.pc != u->frames[i].pub.pc)
            SAY("frame %u: pc 0x%llx (dwexpr) != 0x%llx (libunwind)\n", (unsigned)i,
                (unsigned long long)f.pc, (unsigned long long)u->frames[i].pub.pc);
        if (f.guessed && i + 1 >= u->nframes) {
            i++; /* no CFI at the pc: libunwind stops, dwexpr's frameless guess goes on */
            break;
        }
        if (cfi_unseen(u, f.cfi)) {
            /* frame i is unwound by CFI libunwind does not read (the
             * vDSO's, read from memory): libunwind's caller frames are its
             * guesses from here, not compared */
            i = u->nframes > i ? (uint32_t)u->nframes : i + 1;
            break;
        }
        if (i + 1 < u->nframes) {
            uint64_t want = u->frames[i + 1].pub.sp;
            if (!f.has_cfa)
                SAY("frame %u: dwexpr has no CFA, libunwind's is 0x%llx\n", (unsigned)i,
                    (unsigned long long)want);
            else if (f.cfa.byte_offset != want)
                SAY("frame %u: CFA 0x%llx (dwexpr) != 0x%llx (libunwind)\n", (unsigned)i,
                    (unsigned long long)f.cfa.byte_offset, (unsigned long long)want);
        }
    }
    if (i < u->nframes) {
        /* libunwind goes on where dwexpr stopped */
        SAY("frames %u..%u: libunwind has them (pc 0x%llx), dwexpr does not\n", (unsigned)i,
            (unsigned)(u->nframes - 1), (unsigned long long)u->frames[i].pub.pc);
    }
#undef SAY
    if (checked)
        *checked = nchk;
    if (bad)
        *bad = nbad;
    return nbad ? DWEXPR_E_EVALUATION : DWEXPR_OK;
}
