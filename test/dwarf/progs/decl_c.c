/* test/dwarf/progs/decl_c.c: see decl_a.c. */
#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

extern int hop(int h);

NOINLINE int pick(int p) { int r = hop(p * 2); return r + 1; }
