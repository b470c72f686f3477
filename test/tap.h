/* test/tap.h: a tiny TAP producer for the C unit tests (one plan per exe).
 * CHECK* print both sides on failure; main() ends with TAP_DONE(). */
#ifndef DWX_TAP_H
#define DWX_TAP_H
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_fail;

#define TAP_OK(cond, ...)                                                     \
    do {                                                                      \
        int c_ = !!(cond);                                                    \
        ++tap_n;                                                              \
        if (c_) {                                                           \
            printf("ok %d - ", tap_n);                                        \
        } else {                                                              \
            ++tap_fail;                                                       \
            printf("not ok %d - ", tap_n);                                    \
        }                                                                     \
        printf(__VA_ARGS__);                                                  \
        printf("\n");                                                         \
        if (!c_) printf("#   at %s:%d: %s\n", __FILE__, __LINE__, #cond);   \
    } while (0)

#define CHECK_U64(got, want, ...)                                             \
    do {                                                                      \
        uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want);                 \
        TAP_OK(g_ == w_, __VA_ARGS__);                                        \
        if (g_ != w_) printf("#   got 0x%" PRIx64 ", want 0x%" PRIx64 "\n", g_, w_); \
    } while (0)

#define CHECK_STR(got, want, ...)                                             \
    do {                                                                      \
        const char *g_ = (got), *w_ = (want);                                 \
        int eq_ = g_ && w_ && strcmp(g_, w_) == 0;                            \
        TAP_OK(eq_, __VA_ARGS__);                                             \
        if (!eq_) printf("#   got \"%s\", want \"%s\"\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
    } while (0)

#define TAP_DONE() (printf("1..%d\n", tap_n), tap_fail ? 1 : 0)
#endif
