/* lib/cfi_int.h: internals shared by lib/cfi.c (parser), lib/cfi_row.c
 * (rule rows) and lib/cfi_unwind.c (virtual unwinding); not installed. */
#ifndef DWX_CFI_INT_H
#define DWX_CFI_INT_H

#include "dwx.h"
#include "dwexpr/cfi.h"

/* One FDE in the pc index, sorted by begin. */
typedef struct dwx_cfi_idx {
    uint64_t begin, end, offset;
} dwx_cfi_idx;

struct dwexpr_cfi {
    dwexpr_cfi_section sec;        /* addr_size filled in */
    dwx_cfi_idx *idx;
    size_t count;
    const uint8_t *hdr_table;      /* .eh_frame_hdr search table, or NULL */
    size_t hdr_count;
    uint8_t hdr_enc;
    unsigned hdr_esz;
};

/* Entry I of the .eh_frame_hdr table: initial location and FDE address
 * (both as link-time addresses). E_TRUNCATED past the section. */
DWX_HIDDEN dwexpr_status dwx_cfi_hdr_entry(const dwexpr_cfi *cfi, size_t i, uint64_t *loc,
                                           uint64_t *fde);
/* Whether entries under CIE have a layout this reader knows (DWARF 5
 * 6.4.1 augmentation rule). */
DWX_HIDDEN bool dwx_cfi_aug_known(const dwexpr_cfi *cfi, const dwexpr_cfi_cie *cie);

#endif
