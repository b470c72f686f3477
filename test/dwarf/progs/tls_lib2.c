/* test/dwarf/progs/tls_lib2.c: the second shared library of tls.c
 * (libtls_lib2.so, which libtls_lib.so and the executable link): its
 * thread-local variables, initialized (.tdata) and not (.tbss), and a
 * function-static one, read in the frame of tls_lib2_work, where the
 * calling thread stops itself. */
#include <signal.h>

#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

__thread int l2_g = 0x2222;
__thread long l2_bss;

/* Stops the process (SIGSTOP) in this library's frame. */
NOINLINE int tls_lib2_work(int v)
{
    static __thread int l2_local = 5;
    l2_local += v;
    l2_bss = v * 3L + l2_g;
    raise(SIGSTOP);
    return l2_local + (int)l2_bss;
}
