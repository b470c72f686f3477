/* test/dwarf/progs/statics.c: static locals of functions that are
 * inlined (GCC at -O1 and above describes them in the abstract instance
 * only, with their DW_OP_addr location; the inline and out-of-line
 * concrete instances do not repeat them), recursion 15 frames deep
 * (rec(14) down to rec(0)) whose parameter is, after the recursive call,
 * an entry value that each caller's call site gives as an entry value of
 * its own (GCC at -O1 and above), and const and volatile arrays (GCC
 * wraps the array type in DW_TAG_const_type / DW_TAG_volatile_type,
 * which GDB applies to the element type) as globals and locals. All are
 * live at the probe. Built with -DSTOP_SELF, the probe stops the process
 * (SIGSTOP) for `dwexpr vars --pid` without a debugger (check_vars.py). */
#ifdef STOP_SELF
#include <signal.h>
#endif

volatile int sink;

/* Qualified arrays and pointers, spelled as GDB 13 spells them. */
const int c_table[2][3] = {{1, 2, 3}, {4, 5, 6}};
static const char c_name[] = "statics";
const char *const c_strs[3] = {"one", "two", "three"};
char *const cp_arr[2] = {0, (char *)c_name};
char *const (*cp_ptr)[2] = &cp_arr;
const volatile int cv_arr[2] = {7, 8};
volatile int v_arr[2] = {9, 10};
volatile short v_grid[2][2] = {{11, 12}, {13, 14}};
typedef int pair[2];
const pair c_pair = {15, 16};
int *const volatile cvp = (int *)&v_arr[0];

/* The debugger stops here; every caller frame is still live. */
__attribute__((noinline)) void probe_st(const void *a, const void *b, const void *c)
{
    sink = a != b && b != c;
#ifdef STOP_SELF
    raise(SIGSTOP);
#endif
    __asm__ volatile("" ::: "memory");
}

/* Qualified arrays on the stack (their addresses passed on: in memory
 * at every level). */
__attribute__((noinline)) int leaf(int k)
{
    const int grid[2][3] = {{k, 2, 3}, {4, 5, k + 6}};
    volatile int vv[2] = {k, k + 1};
    const char *const names[2] = {"a", c_name};
    char *const ptrs[2] = {(char *)&k, 0};
    const volatile short cvs[2] = {(short)k, 2};
    probe_st(grid, names, ptrs);
    return grid[1][2] + vv[1] + names[1][0] + (ptrs[1] != 0) + cvs[0];
}

/* Recursion: after the call DEPTH lives nowhere but in the caller's call
 * site, whose value is the caller's own entry value less one. */
__attribute__((noinline)) static int rec(int depth)
{
    if (depth == 0)
        return leaf(depth + 5);
    int r = rec(depth - 1);
    sink = r;
    return r + 1;
}

/* Called out of line through outer_fp and inlined into again: an
 * abstract instance and two concrete ones. */
static inline int outer(int n)
{
    static int seen = 200;
    seen += n;
    return rec(14) + seen;
}

int (*volatile outer_fp)(int) = outer;

/* Where outer is inlined (GCC does not inline it into main). */
__attribute__((noinline)) int again(int n) { return outer(n) + 1; }

/* Inlined into main at -O1 and above. */
static inline int inl(int n)
{
    static int hits = 10;
    hits += n;
    return outer_fp(n) + hits;
}

int main(int argc, char **argv)
{
    (void)argv;
    int r = inl(argc);
    sink = r;
    return again(argc + 1) + c_table[1][1] + c_strs[0][0] + cv_arr[1] + v_arr[0] + v_grid[1][1] +
           c_pair[1] + *cvp + ((*cp_ptr)[0] != 0) == 0;
}
