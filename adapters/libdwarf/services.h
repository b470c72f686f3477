/* adapters/libdwarf/services.h: the binding of DWARF services to a machine
 * target, shared by services.c (the callbacks) and attr_eval.c (attribute
 * evaluation): its layout and the helpers both use. */
#ifndef DWEXPR_LD_SERVICES_H
#define DWEXPR_LD_SERVICES_H

#include "ld_int.h"

#define LD_MAX_NEST 8

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
    dwexpr_ctx *nest[LD_MAX_NEST]; /* contexts of evaluations inside callbacks */
    unsigned depth;
    dwexpr_loc owned;              /* the last multi-entry result (deep copy) */
    char msg[256];
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
/* A context for the current nesting depth of B (NULL past LD_MAX_NEST). */
LD_HIDDEN dwexpr_ctx *ld_nested_ctx(dwexpr_libdwarf_binding *b);
/* Free the binding-owned result. */
LD_HIDDEN void ld_results_release(dwexpr_libdwarf_binding *b);

#endif
