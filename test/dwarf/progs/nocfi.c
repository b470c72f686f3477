/* test/dwarf/progs/nocfi.c: the probe is a leaf written in assembly
 * without CFI (as glibc's clone3 is just after its syscall): no FDE holds
 * frame 0's pc, so the callers are found by the frameless guess GDB also
 * makes (the return address at the stack pointer), and their variables
 * are read as usual. */
int probe_nc(int *p);
__asm__(".text\n"
        ".globl probe_nc\n"
        ".type probe_nc, @function\n"
        "probe_nc:\n"
        "    movl (%rdi), %eax\n"
        "    ret\n"
        ".size probe_nc, .-probe_nc\n");

volatile int sink;

__attribute__((noinline)) int middle(int *p, int k)
{
    int before = *p + k;
    int r = probe_nc(p) + k;
    sink = before;
    return r * 2;
}

int main(int argc, char **argv)
{
    (void)argv;
    int box = argc + 40;
    return middle(&box, argc) == 0;
}
