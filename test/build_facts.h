/* test/build_facts.h: what the library under test was built with, for the
 * few tests of an optimisation's own properties. */
#ifndef DWEXPR_TEST_BUILD_FACTS_H
#define DWEXPR_TEST_BUILD_FACTS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Whether the library's fast path, and so its decode-time folds, runs:
 * on a little-endian host unless the build says otherwise with
 * -DDWX_HOST_LITTLE=0 (lib/dwx.h; meson's c_args reach the tests too).
 * Without it every evaluation takes the general path: same results, but
 * no fold outlives the next evaluation and a bound evaluation asks the
 * target about address space 0 as it goes. */
static inline bool fast_path_built(void)
{
#if defined(DWX_HOST_LITTLE)
    return DWX_HOST_LITTLE != 0;
#else
    const uint16_t one = 1;
    uint8_t first;
    memcpy(&first, &one, 1);
    return first == 1;
#endif
}

#endif
