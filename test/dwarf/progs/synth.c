/* test/dwarf/progs/synth.c: aggregates one of whose DW_OP_piece parts is
 * DW_OP_implicit_pointer (GCC at -O1 and above), which GDB prints as a
 * "<synthetic pointer>" member beside the members it can read: a
 * structure with a pointer to a local, an array of string pointers one of
 * which points to a literal, and a structure of two such pointers; each
 * function calls the next, so all are live at the probe. */
volatile int sink;

/* The debugger stops here; every caller frame is still live. */
__attribute__((noinline)) void probe_s(int v)
{
    sink = v;
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) int with_two(int n)
{
    int a = n + 3, b = n * 5;
    struct { int *first, *second; } two = {&a, &b};
    probe_s(n + 2);
    return *two.first * *two.second;
}

__attribute__((noinline)) int with_array(int n)
{
    const char *strs[3] = {"x", "yy", 0};
    int r = with_two(n + 1);
    return r + strs[0][0] + strs[1][n & 1] + (strs[2] != 0);
}

__attribute__((noinline)) int with_struct(int n)
{
    int x = n * 2;
    struct { int *p; int v; } s = {&x, n};
    int r = with_array(n + 1);
    return r + *s.p + s.v;
}

int main(int argc, char **argv)
{
    (void)argv;
    return with_struct(argc) == 0;
}
