/* test/xorshift.h: xorshift64, the unit tests' deterministic random input
 * (the same sequence on every run and host). */
#ifndef DWX_TEST_XORSHIFT_H
#define DWX_TEST_XORSHIFT_H
#include <stdint.h>

/* The next value of the sequence in *STATE (never 0). */
static inline uint64_t xorshift64(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}
#endif
