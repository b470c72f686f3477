/* test/dwarf/progs/tailcalls.c: tail calls (a function ending in a jump
 * to another) between the probe and main, for GDB's tail call frames
 * (compare_gdb.py; gcc -O2 makes the jumps and describes them with
 * DW_AT_call_tail_call). GDB reconstructs the frames the jumps left out
 * from the call sites, keeping what every path from a caller to its
 * callee has in common. At the probe (gcc -O2):
 *
 *   probe, amb_leaf,            (ambiguous: amb_top -> amb_leaf, or
 *                                amb_top -> amb_mid -> amb_leaf: none)
 *   suf_leaf, suf_k [tail],     (suf_top -> suf_m1 or suf_m2 -> suf_k:
 *                                the common end, suf_k's jump)
 *   pre_leaf, pre_top [tail],   (pre_top -> pre_mid -> pre_leaf, or
 *                                -> pre_n -> pre_leaf: the common start)
 *   leaf, mid2 [tail], mid1 [tail], top, main   (one path: all of it)
 *
 * The values of each function's parameter at entry come from its
 * caller's call site, which must call that very function: in a frame
 * whose caller's call site named another (a tail call in between) they
 * are unavailable, as GDB says. */
#include <stdio.h>

#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

volatile int sink;

NOINLINE void probe_tc(int depth) { sink = depth; }

/* ambiguous: amb_leaf is reached from amb_top directly or through amb_mid */
NOINLINE int amb_leaf(int v) { probe_tc(v); return v + sink; }
NOINLINE int amb_mid(int v) { return amb_leaf(v * 3); }
NOINLINE int amb_top(int v) { if (v & 1) return amb_leaf(v + 5); return amb_mid(v - 1); }

/* a common end: suf_top reaches suf_k through suf_m1 or suf_m2 */
NOINLINE int suf_leaf(int s) { int r = amb_top(s + 1); return r * 5 + s; }
NOINLINE int suf_k(int s) { sink = s; return suf_leaf(s + 1); }
NOINLINE int suf_m1(int s) { return suf_k(s * 2); }
NOINLINE int suf_m2(int s) { return suf_k(s + 7); }
NOINLINE int suf_top(int s) { if (s > 100) return suf_m2(s); return suf_m1(s); }

/* a common start: pre_top jumps to pre_mid, which reaches pre_leaf
 * directly or through pre_n */
NOINLINE int pre_leaf(int p) { int r = suf_top(p + 1); return r * 3 + p; }
NOINLINE int pre_n(int p) { return pre_leaf(p - 2); }
NOINLINE int pre_mid(int p) { if (p & 2) return pre_n(p); return pre_leaf(p + 4); }
NOINLINE int pre_top(int p) { sink = p; return pre_mid(p * 3); }

/* one path: top calls mid1, which jumps to mid2, which jumps to leaf */
NOINLINE int leaf(int x) { int y = pre_top(x + 1); return y * 2 + x; }
NOINLINE int mid2(int x, int k) { sink = k; return leaf(x + 2); }
NOINLINE int mid1(int x) { return mid2(x * 2, x); }
NOINLINE int top(int x) { int r = mid1(x + 1); return r - 1; }

int main(int argc, char **argv)
{
    (void)argv;
    printf("%d\n", top(argc + 3));
    return 0;
}
