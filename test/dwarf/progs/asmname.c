/* asmname.c: a C function with an assembler name (GCC's asm label: its
 * DWARF has DW_AT_name "work" and DW_AT_linkage_name "work_impl", as
 * glibc's raise has __GI_raise), stopped by its own SIGSTOP inside
 * raise, for the frame names GDB shows (check_vars.py gdb_frame_names). */
#include <signal.h>

extern int work(int k) __asm__("work_impl");

__attribute__((noinline)) int work(int k)
{
    if (k)
        raise(SIGSTOP);
    return k + 1;
}

int main(int argc, char **argv)
{
    (void)argv;
    return work(argc) != 2;
}
