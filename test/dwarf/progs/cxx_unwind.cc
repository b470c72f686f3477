// test/dwarf/progs/cxx_unwind.cc: a stop in the middle of an exception's
// propagation, for `dwexpr vars` against GDB. The first call of probe()
// (where the comparison stops) is in a destructor that the unwinder runs
// during phase 2 (the cleanup landing pad of the throwing frame), so the
// stack holds the landing pad's frame, libgcc's _Unwind_RaiseException
// (phase 2 on the unwinder's own stack), __cxa_throw and the frames
// below the throw, each with its variables. The rest (a catch by
// reference, a constructor's function-try-block) runs after the stop.
#include <stdexcept>
#include <string>
volatile int sink;
__attribute__((noinline)) void probe(int d)
{
    sink = d;
    __asm__ volatile("" ::: "memory");
}
struct Problem : std::runtime_error {
    int code;
    double weight;
    Problem(int c, double w) : std::runtime_error("problem"), code(c), weight(w) {}
};
struct Guard {
    int id;
    long serial;
    explicit Guard(int i) : id(i), serial(1000L + i) {}
    ~Guard()
    {
        int seen = id * 3;
        probe(seen + (int)serial);
    }
};
__attribute__((noinline)) int thrower(int depth, int limit)
{
    Guard g(depth);
    int local = depth * 7;
    if (depth >= limit)
        throw Problem(depth, 2.5 * depth);
    return thrower(depth + 1, limit) + local;
}
struct Built {
    int a, b;
    Built(int x) try : a(x), b(thrower(0, x)) {
    } catch (const Problem &p) {
        int caught_code = p.code;
        probe(caught_code + 100);
    }
};
__attribute__((noinline)) int catcher(int limit)
{
    int before = limit + 40;
    try {
        return thrower(0, limit);
    } catch (Problem &p) {
        double w = p.weight;
        probe(p.code + before + (int)w);
        return p.code;
    }
}
int main(int argc, char **argv)
{
    (void)argv;
    int r = catcher(argc + 1);
    try {
        Built b(argc);
        r += b.a;
    } catch (const Problem &) {
        r += 1;
    }
    return r & 1;
}
