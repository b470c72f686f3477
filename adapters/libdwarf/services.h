/* adapters/libdwarf/services.h: the binding of DWARF services to a machine
 * target, shared by services.c (the callbacks) and attr_eval.c (attribute
 * evaluation): its layout and the helpers both use. */
#ifndef DWEXPR_LD_SERVICES_H
#define DWEXPR_LD_SERVICES_H

#include "ld_int.h"

/* The most frames a binding knows pcs of (dwexpr_libdwarf_binding_set_pc). */
#define LD_MAX_FRAMES 4096
/* The deepest nesting of evaluations inside callbacks. An entry value is
 * its caller's call-site value, evaluated in the caller frame, which may
 * itself be an entry value of the caller (a recursive function's
 * parameter through every recursive call, as GCC describes it at -O1 and
 * above): one level per older frame, followed as deep as the frames go,
 * as GDB follows it. Each level is a frame further out, so a chain ends
 * with the frames; the bound stops one whose frames never end, and keeps
 * the C stack the levels use (about 3 KB each, measured on x86-64) to 3
 * MB, where LD_MAX_FRAMES levels would take 12 MB, past a default 8 MB
 * stack: deeper, E_CALL_DEPTH. The contexts are made on demand. */
#define LD_MAX_NEST 1024

/* A location result the binding owns (several places gathered from
 * separate evaluations). */
typedef struct ld_owned {
    dwexpr_sld *slds;
    uint32_t count;
} ld_owned;

struct dwexpr_libdwarf_binding {
    dwexpr_libdwarf *ld;
    dwexpr_target m;               /* the machine target (copied) */
    void *muser;
    dwexpr_target t;               /* the combined target */
    uint64_t *pcs;                 /* dwexpr_libdwarf_binding_set_pc */
    bool *has_pc;
    size_t npcs;
    int8_t *ret_addr;              /* dwexpr_libdwarf_binding_set_return_address: -1 default */
    size_t nret;
    dwexpr_libdwarf_entry_policy policy;
    dwexpr_libdwarf_peer_fn peer;  /* dwexpr_libdwarf_binding_set_peers */
    void *peer_user;
    dwexpr_ctx **nest;             /* contexts of evaluations inside callbacks, by depth */
    unsigned nnest;                /* slots of nest */
    unsigned depth;
    dwexpr_loc owned;              /* the last multi-entry result (deep copy) */
    char msg[256];
    /* the answers of sv_entry_value and sv_parameter_ref by frame and
     * question, for as long as dwexpr_libdwarf_binding_keep_entry_values
     * says, else for one outermost question (LD_MEMO_ANSWER; an open
     * addressing table of cap slots, a power of two), and a count of the
     * nesting failures (past LD_MAX_NEST, out of memory): an answer
     * computed while one happened depends on how deep it was asked, and
     * is not kept */
    bool keep;
    unsigned long memo_question;   /* without keep: the outermost question of the memo */
    struct ld_memo *memo;
    size_t memo_cap, memo_n;
    unsigned long nest_fail;
    /* the frame of the evaluation in progress (attr_eval.c's run), for
     * the DIE service's abstract DIEs (sv_die); has_where false: none */
    bool has_where;
    dwexpr_frameref where;
};

/* Program location of frame F, link-time (machine frame_pc minus the load
 * bias, else the set_pc table). */
LD_HIDDEN dwexpr_status ld_frame_pc(dwexpr_libdwarf_binding *b, const dwexpr_frameref *f,
                                    uint64_t *pc);
/* The pc at which frame F (program location PC) is looked up: PC - 1
 * when PC is a return address (frames above 0 unless told otherwise). */
LD_HIDDEN uint64_t ld_frame_lookup_pc(const dwexpr_libdwarf_binding *b, const dwexpr_frameref *f,
                                      uint64_t pc);
/* The first entry of list A matching PC (bounded, else default), or NULL. */
LD_HIDDEN const dwexpr_loclist_entry *ld_list_match(const dwexpr_libdwarf_attr *a, uint64_t pc);
/* The concrete function holding PC, or NULL. */
LD_HIDDEN const ld_scope *ld_function_at(const dwexpr_libdwarf *ld, uint64_t pc);
/* A context for the current nesting depth of B (NULL past LD_MAX_NEST or
 * out of memory). */
LD_HIDDEN dwexpr_ctx *ld_nested_ctx(dwexpr_libdwarf_binding *b);
/* Free the binding-owned result. */
LD_HIDDEN void ld_results_release(dwexpr_libdwarf_binding *b);

#endif
