/* test/dwarf/progs/solib_lib.c: the shared library of solib.c (built
 * with -shared -fPIC; compare_gdb.py links solib.c against it). The
 * probe, in the executable, is reached through these functions: their
 * frames are read with the library's DWARF. On the way: locals on the
 * stack and in registers, a structure, an inlined function (lib_step),
 * parameters used only before a call (entry values at -O2, from call
 * sites in the library and, for lib_run's, in the executable: main's
 * call into the library, its callee named by a declaration) and a
 * function ending in a jump (lib_dispatch: GDB's tail call frame at
 * -O2). At the probe:
 *
 *   probe_s, lib_leaf, lib_step [inlined], lib_walk,
 *   lib_dispatch [tail call at -O2], lib_run, main */
#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

struct lib_acc {
    int count;
    long total;
    double mean;
};

typedef void (*lib_cb)(int depth);

volatile int lib_sink;
int lib_calls = 3;
static struct lib_acc lib_state = {2, 40, 1.5};

/* Calls back into the executable (the probe); CB and BASE are not used
 * after the call. */
NOINLINE static int lib_leaf(lib_cb cb, int k, long base)
{
    long scaled = base * k + lib_state.total;
    int parity = k & 1;
    cb(k);
    lib_sink = (int)scaled + parity;
    return parity + (int)(scaled >> 2) + k;
}

/* Inlined into lib_walk. */
static inline int lib_step(lib_cb cb, int k, const struct lib_acc *acc)
{
    int local = k * 5 + acc->count;
    double m = acc->mean * k;
    int r = lib_leaf(cb, local, acc->total);
    return r + local + (int)m;
}

/* SEED is used only before the loop. */
NOINLINE static int lib_walk(lib_cb cb, int n, long seed)
{
    struct lib_acc acc = {n, seed * 2, (double)seed / 4.0};
    int sum = 0;
    for (int i = 0; i < n; i++) {
        int t = i * 3 + n;
        sum += lib_step(cb, t, &acc);
    }
    return sum;
}

/* Ends in a jump to lib_walk at -O2. */
NOINLINE static int lib_dispatch(lib_cb cb, int n, long seed)
{
    lib_sink = n;
    return lib_walk(cb, n + 1, seed + lib_calls);
}

/* The library's entry point. */
NOINLINE int lib_run(lib_cb cb, int n)
{
    int r = lib_dispatch(cb, n * 2, (long)n << 4);
    lib_calls++;
    return r + 1;
}
