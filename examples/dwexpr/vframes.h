/* examples/dwexpr/vframes.h: the frames `dwexpr vars` shows, as one
 * target: the machine frames of an unwinding target and, between them,
 * GDB's tail call frames (functions that jumped to their callee and left
 * no frame of their own). Frame numbers of the target are these frames'
 * indices; a machine frame's registers, CFA and pc come from the inner
 * target; a tail call frame has the registers of the machine frame that
 * called into the chain (GDB: "the register set of the top caller"), its
 * own pc (the return pc of its tail call site) and the CFA of the frame
 * below the chain (GDB's frame id of a tail call frame). */
#ifndef DWEXPR_CLI_VFRAMES_H
#define DWEXPR_CLI_VFRAMES_H

#include <stdbool.h>
#include <stdint.h>
#include <dwexpr.h>

typedef struct vframe {
    uint32_t machine;    /* the machine frame whose registers it has */
    uint32_t below;      /* the machine frame whose CFA it has */
    bool tail;           /* a tail call frame */
    uint64_t pc;         /* a tail call frame's pc (run time) */
    uint8_t pc_bytes[8]; /* the same, as the pc register's contents */
} vframe;

typedef struct vframes vframes;

/* A frame list over INNER (frames by machine index; borrowed) for
 * MACHINE_FRAMES machine frames, PC_REGNO the pc's DWARF register (8 bytes,
 * little-endian). NULL on OOM. */
vframes *vframes_new(const dwexpr_target *inner, void *inner_user, uint32_t machine_frames,
                     uint32_t pc_regno);
void vframes_free(vframes *v);
/* Append machine frame M (in order), or a tail call frame at run-time PC
 * with the registers of machine frame CALLER and the CFA of machine frame
 * BELOW. Returns the new frame's index, or -1 on OOM. */
int vframes_add_machine(vframes *v, uint32_t m);
int vframes_add_tail(vframes *v, uint32_t caller, uint32_t below, uint64_t pc);
uint32_t vframes_count(const vframes *v);
const vframe *vframes_get(const vframes *v, uint32_t i);
/* The target of V (kept in V): pass it with V as user. A callback the
 * inner target lacks is missing here too, except reg_read,
 * register_location and frame_pc. */
const dwexpr_target *vframes_target(vframes *v);

#endif
