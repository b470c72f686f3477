/* test/dwarf/progs/decl_b.c: see decl_a.c. */
#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

extern volatile int sink;
extern void probe(int v);

/* glibc's hidden_proto / hidden_def: the definition's assembler name (its
 * DW_AT_linkage_name) is __GI_jumper, and "jumper" an alias of it */
extern int jumper(int x) __asm__("__GI_jumper") __attribute__((visibility("hidden")));

NOINLINE int leaf(int z) { probe(z); return sink + 3; }

/* a tail call: jumper's frame is gone at the probe */
NOINLINE int jumper(int x) { sink = x; return leaf(x + 1); }

extern __typeof(jumper) jumper_alias __asm__("jumper") __attribute__((alias("__GI_jumper")));

/* a static pick, the first function of that name in the DWARF: not the
 * one main's declaration names */
NOINLINE static int pick(int p) { sink = p; return sink * 4; }

int other(int v) { return pick(v) + 1; }
