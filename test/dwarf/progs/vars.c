/* test/dwarf/progs/vars.c: the GDB-comparison program. main calls through
 * an inlined helper, a loop with lexical blocks (one without pcs at -O1
 * and above) and a leaf function into probe(); on the way it leaves variables on the stack, in registers, in
 * pieces, as constants, behind implicit pointers, as entry values, in
 * thread-local storage and in globals. */
#include <stdio.h>
#include <string.h>

struct point {
    int x, y;
};

struct rec {
    long id;
    struct point p;
    char tag[6];
    unsigned flag : 3;
    unsigned mode : 5;
    short s;
    double w;
};

enum color { RED, GREEN = 5, BLUE };

int g_int = 42;
static long g_arr[4] = {1, -2, 3, -4};
struct rec g_rec = {7, {1, 2}, "hello", 5, 17, -3, 2.5};
__thread int t_counter = 99;
static __thread struct point t_pt = {11, 22};
const char *g_str = "text";
enum color g_color = BLUE;
volatile int sink;
int g_scan;

/* The debugger stops here; every caller frame is still live. */
__attribute__((noinline)) void probe(int depth)
{
    sink = depth;
    __asm__ volatile("" ::: "memory");
}

/* Parameters used only before the call become entry values at -O2;
 * MOVED is split into pieces and PP points to it implicitly. */
__attribute__((noinline)) static int leaf(int a, long b, struct point pt, double d)
{
    int local = a * 3 + (int)b;
    struct point moved = {pt.x + a, pt.y - a};
    struct point *pp = &moved;
    const int konst = 17;
    double scaled = d * 2;
    enum color c = a > 1 ? GREEN : RED;
    _Bool odd = (a & 1) != 0;
    t_counter++;
    t_pt.x += a;
    probe(3);
    sink = local + pp->x + pp->y + konst + (int)scaled + (int)c + odd;
    return local + moved.x;
}

/* A loop with nested lexical blocks around the call. */
__attribute__((noinline)) static long middle(int n, const char *name)
{
    long total = 0;
    unsigned char bytes[3] = {1, 2, 3};
    /* a block whose code the compiler removes (-O1 and above): GCC keeps
     * it without pcs, and GDB lists its variables as middle's */
    for (g_scan = -7; g_scan < 12; g_scan += 3) {
        int *gone = &g_int;
        int **gone_p = &gone;
        *gone_p = gone;
    }
    for (int i = 0; i < n; i++) {
        int sq = i * i;
        total += sq;
        if (i == n - 1) {
            struct point pt = {i, sq};
            short narrow = (short)(sq - 7);
            total += leaf(i, total, pt, 1.5 * i) + narrow;
        }
    }
    return total + (long)strlen(name) + bytes[n % 3];
}

/* Inlined into main at -O1 and above. */
static inline int twice(int v)
{
    int t = v * 2;
    return t + (int)middle(v + 1, "inl");
}

int main(int argc, char **argv)
{
    static int calls;
    int r = twice(argc + 2);
    calls++;
    printf("%d %d %d %ld %s %d %d\n", r, calls, g_int, g_arr[1], g_str, g_rec.mode, t_pt.y);
    return argv[0][0] == 0;
}
