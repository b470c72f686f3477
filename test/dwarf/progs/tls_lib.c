/* test/dwarf/progs/tls_lib.c: the first shared library of tls.c
 * (libtls_lib.so): thread-local variables of its own, one of them a
 * function-static one of tls_lib_run, which calls into libtls_lib2.so. */
#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

int tls_lib2_work(int v);

__thread int l1_g = 0x1111;
__thread short l1_h = -3;
__thread long l1_bss;

/* Updates this thread's variables by V, then calls the second library. */
NOINLINE int tls_lib_run(int v)
{
    static __thread long l1_local = 77;
    l1_local += v;
    l1_g += v;
    l1_h -= (short)v;
    l1_bss = l1_local * 2;
    return tls_lib2_work(v + 1) + (int)l1_local;
}
