/* dwexpr/adapter_libunwind.h: a host target for real x86-64 processes
 * through libunwind: a live stopped process (libunwind-ptrace) or a core
 * file (libunwind-coredump). It gives frame-0 registers and memory (the
 * inner target of a dwexpr_unwinder), libunwind's own frames, the mapped
 * files, and a cross-check of dwexpr's CFI unwinding against libunwind. */
#ifndef DWEXPR_ADAPTER_LIBUNWIND_H
#define DWEXPR_ADAPTER_LIBUNWIND_H

#include <dwexpr.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dwexpr_unw dwexpr_unw;

/* A file mapped into the process (from the core's NT_FILE note or
 * /proc/PID/maps). */
typedef struct dwexpr_unw_mapping {
    uint64_t start, end, file_offset;
    const char *path;
} dwexpr_unw_mapping;

/* One frame as libunwind sees it. */
typedef struct dwexpr_unw_frame {
    uint64_t pc, sp;
    bool signal_frame;
} dwexpr_unw_frame;

/* Open core file CORE (EXE, may be NULL, is the main executable when the
 * core names it differently; not when EXE is itself one of the core's
 * files, e.g. a shared library). libunwind walks the stack once here (at
 * most MAX_FRAMES, 0 = 256). E_NOT_FOUND / E_TARGET with ERR's message. */
DWEXPR_API dwexpr_status dwexpr_unw_open_core(const char *core, const char *exe,
                                              uint32_t max_frames, dwexpr_unw **out,
                                              dwexpr_error *err);
/* dwexpr_unw_open_core for the core's thread whose id is TID (its
 * NT_PRSTATUS's pr_pid, the LWP GDB shows); 0: the first thread, the one
 * dwexpr_unw_open_core reads (the kernel's: the thread that crashed;
 * GDB's gcore: its selected thread). E_NOT_FOUND when the core has no
 * thread TID. */
DWEXPR_API dwexpr_status dwexpr_unw_open_core_thread(const char *core, const char *exe,
                                                     uint32_t max_frames, uint64_t tid,
                                                     dwexpr_unw **out, dwexpr_error *err);
/* A warning about what U read, NULL when none: a core opened with an
 * executable whose build id is not the one the core's copy of the main
 * executable's headers holds (another program's, whose variables would
 * be read at the wrong places). */
DWEXPR_API const char *dwexpr_unw_warning(const dwexpr_unw *u);
/* The vDSO of U's process (the kernel's ELF image the process runs
 * clock_gettime and friends in; it maps no file), read from the process
 * or the core: its bytes (*SIZE, owned by U) and its address (*BASE);
 * NULL when there is none or it cannot be read. */
DWEXPR_API const uint8_t *dwexpr_unw_vdso(const dwexpr_unw *u, uint64_t *base, size_t *size);
/* The id of the thread U reads (a process: the id it was opened with). */
DWEXPR_API uint64_t dwexpr_unw_thread_id(const dwexpr_unw *u);
/* The ids of the threads of U's core in its order (a process: the one
 * thread U reads): the first CAP go to TIDS; returns their count. */
DWEXPR_API size_t dwexpr_unw_threads(const dwexpr_unw *u, uint64_t *tids, size_t cap);
/* Attach to process PID with ptrace (it stops until dwexpr_unw_close; a
 * process that was stopped before stays stopped after it). */
DWEXPR_API dwexpr_status dwexpr_unw_open_pid(int pid, uint32_t max_frames, dwexpr_unw **out,
                                             dwexpr_error *err);
/* Detach / release (NULL is fine). */
DWEXPR_API void dwexpr_unw_close(dwexpr_unw *u);

/* The target (user = the dwexpr_unw): registers 0-16 of every libunwind
 * frame (frame 0 = the thread's registers), xmm0-15 (DWARF 17-32, 16
 * bytes; with AVX, as GDB reads them, ymm0-15, 32 bytes, their upper
 * halves from NT_X86_XSTATE / PTRACE_GETREGSET) and st0-7 (DWARF 33-40,
 * ST(0)..ST(7): 16 bytes each, the FXSAVE slot, the 80-bit value and 6
 * bytes that read as zero, as GDB reads a long double there) of frame 0 (a
 * core's NT_FPREGSET, PTRACE_GETFPREGS), memory of the
 * process, libunwind's answers for cfa / register_location / frame_pc,
 * and DW_OP_form_tls_address for the main executable's thread-local
 * variables: the thread pointer (fs_base: NT_PRSTATUS, PTRACE_GETREGS)
 * minus the executable's static TLS offset (x86-64 TLS variant II, the
 * executable's block first below the thread pointer:
 * roundup(PT_TLS memsz - firstbyte, p_align) + firstbyte, firstbyte =
 * p_vaddr mod p_align, as glibc lays it out) plus the offset.
 * An offset past the block that lies in PT_TLS's link-time address range
 * is taken as that address (binutils ld resolves split DWARF's .debug_addr
 * TLS entries to addresses) and made an offset again.
 * Other modules' TLS: dwexpr_unw_tls_address. */
DWEXPR_API const dwexpr_target *dwexpr_unw_target(void);

/* DW_OP_form_tls_address in the module (main executable or shared
 * library loaded at startup, x86-64 glibc) whose load bias is BIAS: TA in
 * that module's TLS block of the thread. The block is found as glibc's
 * libthread_db (and so GDB) finds it: the module's struct link_map in the
 * dynamic linker's list (the main executable's DT_DEBUG -> r_debug.r_map,
 * matched by l_ld, its PT_DYNAMIC at run time), its l_tls_modid, and
 * entry l_tls_modid of the thread's DTV (tcbhead_t.dtv at the thread
 * pointer); a DTV older than the module (its slotinfo generation) or an
 * unallocated entry is the module's static block (tp - l_tls_offset)
 * when it has one, else an error. The offsets of the
 * private fields are read from libc's _thread_db_* descriptors, not
 * assumed. For the main executable the block is its static one
 * (dwexpr_unw_target's, which works without a module list), checked
 * against the DTV's when that is readable. TA past the block inside
 * PT_TLS's link-time range is made an offset, as there. *OUT is a memory
 * location; on failure E_NOT_FOUND / E_TARGET and WHY (CAP bytes) says
 * why. */
DWEXPR_API dwexpr_status dwexpr_unw_tls_address(dwexpr_unw *u, uint64_t bias, uint64_t ta,
                                                dwexpr_sld *out, char *why, size_t cap);

/* Where the code a signal interrupted saved register REGNO, for the
 * registers the signal trampoline's CFI does not describe (glibc's
 * __restore_rt gives rules for the general registers and rip only):
 * xmm0-15 (DWARF 17-32). x86-64 Linux rt_sigframe: at the trampoline the
 * stack pointer SP (the signal frame's rsp) points at the ucontext_t,
 * whose uc_mcontext.fpregs (byte 224) points at the saved struct
 * _fpstate, an fxsave image with xmm0-15 at byte 160, 16 bytes each.
 * *OUT is that memory, or undefined when the frame has no fpstate (a
 * NULL pointer) or the pointer cannot be read. With AVX (ymm0-15, 32
 * bytes) *OUT is a composite (owned by U): that memory, then the upper
 * half from the XSAVE image's AVX component at byte 576 (zeros when its
 * XSTATE_BV bit is clear; undefined when the image is no XSAVE image).
 * E_NOT_FOUND for any other register. */
DWEXPR_API dwexpr_status dwexpr_unw_sigframe_register(dwexpr_unw *u, uint64_t sp, uint32_t regno,
                                                      dwexpr_sld *out);

/* The thread pointer (x86-64 fs_base) of the thread: false if unknown. */
DWEXPR_API bool dwexpr_unw_thread_pointer(const dwexpr_unw *u, uint64_t *tp);

DWEXPR_API size_t dwexpr_unw_frame_count(const dwexpr_unw *u);
DWEXPR_API const dwexpr_unw_frame *dwexpr_unw_frame_at(const dwexpr_unw *u, size_t i);
DWEXPR_API size_t dwexpr_unw_mapping_count(const dwexpr_unw *u);
DWEXPR_API const dwexpr_unw_mapping *dwexpr_unw_mapping_at(const dwexpr_unw *u, size_t i);

/* Compare dwexpr's frames (UW, whose inner target is this adapter) with
 * libunwind's: the pc of every frame, the CFA of frame i with libunwind's
 * stack pointer of frame i+1, and the number of frames. Each
 * disagreement is a line in REPORT (CAP bytes, NUL-terminated);
 * *CHECKED counts compared frames, *BAD disagreements. DWEXPR_OK when
 * they agree, E_EVALUATION otherwise. */
DWEXPR_API dwexpr_status dwexpr_unw_crosscheck(dwexpr_unw *u, dwexpr_unwinder *uw, char *report,
                                               size_t cap, unsigned *checked, unsigned *bad);
/* Say that CFI (borrowed; given to the unwinder dwexpr_unw_crosscheck
 * compares) is one libunwind does not read: a module's .debug_frame
 * from its separate debug file. Where libunwind stops at a frame whose
 * caller that CFI gives, the frames dwexpr finds beyond are no
 * disagreement. E_NOMEM. */
DWEXPR_API dwexpr_status dwexpr_unw_cfi_unseen(dwexpr_unw *u, const dwexpr_cfi *cfi);

#ifdef __cplusplus
}
#endif
#endif
