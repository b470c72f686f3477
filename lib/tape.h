/* lib/tape.h: straight-line programs (and selections) compiled for warm evaluation
 * (lib/tape.c). Not installed. */
#ifndef DWX_TAPE_H
#define DWX_TAPE_H
#include "evalint.h"

/* dwx_tape_compile: lib/dwx.h. */

/* dwx_fast_prog of PROG, which has a tape, on CTX set up as for the fast
 * path: exactly what the fast loop gives, or (when it would decline) the
 * general path's answer (dwx_eval_other). */
DWX_HIDDEN dwexpr_status dwx_tape_run(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                      dwexpr_result *out);

/* The kinds of operation tape T has, as bits (1 << code; for tests:
 * test/test_fastpath.c checks that its random programs reach every one). */
enum { DWX_TAPE_CODES = 27 };
DWX_HIDDEN uint32_t dwx_tape_codes(const dwx_tape *t);

#endif
