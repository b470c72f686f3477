/* test/dwarf/progs/ckinds.c: C types and shapes no other program has, for
 * `dwexpr vars` against GDB: long double _Complex, _Atomic objects,
 * vectors of 8, 32 and 64 bytes, a flexible array member, bit-fields
 * across a storage unit, in a union, of an enumeration and of _Bool type
 * at their signed and unsigned limits, packed and over-aligned
 * structures, a pointer to an array and an array of function pointers,
 * arrays of structures and three dimensions, restrict and
 * const volatile pointers, enumerations with negative, 64-bit and
 * duplicate values (and a value that is no enumerator), nested anonymous
 * structures and unions, a two-dimensional VLA in a nested block, static
 * locals in nested blocks, a char array that is no string (bytes 0 and
 * above 127), char16_t / char32_t, __float128, (GCC) _Float16, _Float64x,
 * _Decimal32/64/128 and complex integers, a structure returned
 * by value, values an optimizer keeps in registers across a call and
 * (GCC) a nested function using its parent's variables. All are live at
 * the probe. */
#include <complex.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <uchar.h>

volatile int sink;

typedef char v8qi __attribute__((vector_size(8)));
typedef double v4df __attribute__((vector_size(32)));
typedef long v8di __attribute__((vector_size(64)));
typedef short v2hi __attribute__((vector_size(4)));

enum neg { N_LOW = -100, N_MID = -1, N_ZERO = 0, N_DUP = 0, N_HIGH = 7 };
enum big { B_SMALL = 1, B_HUGE = 0x7fffffffffffffffll };
enum ubig { U_TOP = 0xffffffffffffffffull };
enum tiny { T_A, T_B, T_C };

struct span {
    unsigned char lo : 6;
    unsigned int mid : 20;        /* across a byte and a 32-bit unit */
    unsigned long long top : 38;  /* across a 64-bit unit */
    signed int neg : 3;           /* -4: the signed limit */
    unsigned int umax : 3;        /* 7: the unsigned limit */
    enum neg en : 8;              /* -100, signed */
    enum tiny et : 2;             /* unsigned */
    _Bool flag : 1;
    signed char sc : 7;
};

union ubits {
    unsigned whole;
    struct {
        unsigned a : 4;
        signed b : 4;
    } parts;
    unsigned char bytes[4];
};

struct __attribute__((packed)) packed {
    char c;
    int i;
    short s;
    long long l;
};

struct __attribute__((aligned(32))) aligned {
    int a;
    double d;
};

struct inner_al {
    char c;
    int x __attribute__((aligned(16)));
};

struct flex {
    int n;
    short data[];
};

struct anon {
    int tag;
    union {
        int as_int;
        float as_float;
        struct {
            short lo, hi;
        };
    };
    struct {
        char k;
        union {
            unsigned char u8;
            signed char s8;
        };
    } named;
};

struct ret {
    long a;
    double b;
    int c[3];
};

typedef int (*binop)(int, int);

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }

/* globals */
long double _Complex g_cld = 1.5L - 2.25L * I;
_Atomic int g_atomic = 77;
_Atomic long g_atomic_long = -88;
v8qi g_v8 = {1, -2, 3, -4, 5, -6, 7, -8};
v4df g_v32 = {1.0, -2.5, 3.25, 0.0};
v8di g_v64 = {1, -1, 2, -2, 3, -3, 0x7fffffffffffffffl, -0x7fffffffffffffffl - 1};
v2hi g_v4 = {-300, 300};
struct span g_span = {63, 0xabcde, 0x2fedcba987ull, -4, 7, N_LOW, T_C, 1, -64};
union ubits g_ubits = {.parts = {9, -3}};
struct packed g_packed = {'p', -123456, 321, -1234567890123ll};
struct aligned g_aligned = {5, 6.5};
struct inner_al g_inner_al = {'q', 99};
struct anon g_anon = {1, {.as_int = 0x00020001}, {'k', {200}}};
enum neg g_neg = N_LOW;
enum neg g_neg_dup = N_DUP;
enum neg g_neg_none = (enum neg)42;
enum big g_big = B_HUGE;
enum ubig g_ubig = U_TOP;
int g_grid3[2][3][4];
struct ret g_rets[2] = {{1, 1.5, {1, 2, 3}}, {-1, -1.5, {-1, -2, -3}}};
int g_row[4] = {10, 20, 30, 40};
int (*g_rowp)[4] = &g_row;
binop g_ops[2] = {add, sub};
int (*(*g_opp)[2])(int, int) = &g_ops;
unsigned char g_bytes[6] = {0, 1, 127, 128, 255, 'A'};
char g_notstr[4] = {'a', 'b', 'c', 'd'};
signed char g_sbytes[3] = {-1, -128, 127};
char16_t g_c16 = u'\u00e9';
char32_t g_c32 = U'\U0001F600';
char16_t g_s16[3] = u"hi";
char32_t g_s32[3] = U"yo";
__float128 g_f128 = 2.5Q;
#ifndef __clang__
/* GCC only (clang 14 has none of them on x86-64): _Float16, _Float64x,
 * decimal floating point (DW_ATE_decimal_float) and complex integers
 * (DW_ATE_lo_user "complex int") */
_Float16 g_f16 = -1.5f16;
_Float64x g_f64x = 0.75;
_Decimal32 g_d32 = 1.5DF;
_Decimal64 g_d64 = -2.25DD;
_Decimal128 g_d128 = 100.125DL;
_Complex int g_cint = 3 + 4i;
_Complex unsigned char g_cuchar = 1 + 2i;
#endif
const volatile int g_cvi = 12;
int *restrict g_rp = &g_row[1];
const int *volatile g_pcv = &g_row[2];
const volatile char *const g_cvcp = g_notstr;
static struct flex *g_flex;
union ubits g_uarr[2] = {{.whole = 0xffffffffu}, {.bytes = {1, 2, 3, 4}}};

/* The debugger stops here; every caller frame is still live. */
__attribute__((noinline)) void probe(int v)
{
    sink = v;
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) struct ret make_ret(int k)
{
    struct ret r = {k * 10L, k * 0.5, {k, k + 1, k + 2}};
    return r;
}

/* Locals whose addresses escape: in memory at every level. */
__attribute__((noinline)) int locals(int n, const void **keep)
{
    long double _Complex cld = 3.0L + 4.0L * I;
    float _Complex cf = -1.0f + 0.5f * I;
    _Atomic int at = n + 1;
    v8qi v8 = {(char)n, 2, 3, 4, 5, 6, 7, 8};
    v4df v32 = {n, 1.0, 2.0, 3.0};
    struct span sp = g_span;
    union ubits ub = {.parts = {7, -8}};
    struct packed pk = {'x', n, -2, 3};
    struct aligned al = {n, -1.0};
    struct anon an = {2, {.lo = -5, .hi = 6}, {'z', {.s8 = -9}}};
    enum neg en = N_MID;
    enum ubig eu = U_TOP;
    int cube[2][2][2] = {{{1, 2}, {3, 4}}, {{5, 6}, {7, n}}};
    struct ret rs[2] = {make_ret(n), make_ret(n + 1)};
    int (*rowp)[4] = &g_row;
    binop ops[3] = {add, sub, 0};
    unsigned char raw[5] = {0, 200, 0, 'x', 255};
    char16_t c16 = u'z';
    char32_t c32 = U'\u20ac';
    __float128 f128 = n * 1.25Q;
#ifndef __clang__
    _Float16 f16 = (_Float16)n;
    _Decimal64 d64 = n;
    _Complex short cshort = n - 1i;
#endif
    int *restrict rp = &cube[0][0][0];
    const volatile int cv = -n;
    struct flex *fl = __builtin_alloca(sizeof(struct flex) + 3 * sizeof(short));
    fl->n = 3;
    fl->data[0] = 11;
    fl->data[1] = -12;
    fl->data[2] = 13;
    g_flex = fl;
    keep[0] = &cld; keep[1] = &cf; keep[2] = (const void *)&at; keep[3] = &v8;
    keep[4] = &v32; keep[5] = &sp; keep[6] = &ub; keep[7] = &pk; keep[8] = &al;
    keep[9] = &an; keep[10] = &en; keep[11] = &eu; keep[12] = cube; keep[13] = rs;
    keep[14] = &rowp; keep[15] = ops; keep[16] = raw; keep[17] = &c16; keep[18] = &c32;
    keep[19] = &f128; keep[20] = (const void *)&rp; keep[21] = (const void *)&cv; keep[22] = fl;
    int r = 0;
    {
        static int block_static = 31;
        int rows = n, cols = n + 1;
        {
            static short inner_static = -32;
            int vla[rows][cols];
            for (int i = 0; i < rows; i++)
                for (int j = 0; j < cols; j++)
                    vla[i][j] = i * 10 + j;
            keep[23] = vla;
#ifndef __clang__
            keep[24] = &f16;
            keep[25] = &d64;
            keep[26] = &cshort;
#endif
            block_static += n;
            inner_static -= (short)n;
#ifdef __clang__
            probe(n + (int)sizeof vla);
#else
            /* a GNU C nested function reaching its parent's variables
             * through the static chain (GCC only) */
            int tally = rows * 100;
            void reach(int k)
            {
                tally += k + n;
                probe(tally + (int)creall(cld));
            }
            reach((int)sizeof vla);
            r += tally;
#endif
            r += vla[rows - 1][cols - 1] + block_static + inner_static;
        }
    }
    return r + ops[0](1, 2) + (*rowp)[1] + cube[1][1][1] + (int)rs[1].a;
}

/* At -O2 these live in registers across the call (two-register
 * structures: pieces). */
__attribute__((noinline)) int regs(long a, long b, const void **keep)
{
    struct { long x, y; } pair = {a * 3, b - 1};
    double _Complex z = (double)a + (double)b * I;
    struct ret got = make_ret((int)a);
    v2hi v4 = {(short)a, (short)b};
    pair.x += locals((int)a - 3, keep);
    return (int)(pair.x ^ pair.y) + (int)creal(z) + (int)cimag(z) + (int)got.a + v4[0] + v4[1];
}

int main(int argc, char **argv)
{
    (void)argv;
    const void *keep[28];
    int r = regs(argc + 4, argc + 6, keep);
    g_atomic += 1;
    return r + g_ops[1](3, 1) + (*g_rowp)[0] + (int)g_f128 + (int)creall(g_cld) + g_v8[1] +
           (int)g_v32[1] + (int)g_v64[0] + g_v4[0] + (int)g_span.mid + (int)g_ubits.whole +
           g_packed.i + g_aligned.a + g_inner_al.x + g_anon.tag + g_neg + g_neg_dup + g_neg_none +
           (int)g_big + (int)g_ubig + g_grid3[1][2][3] + (int)g_rets[1].a + g_bytes[1] +
           g_notstr[0] + g_sbytes[0] + g_c16 + (int)g_c32 + g_s16[0] + (int)g_s32[0] + g_cvi +
           *g_rp + *g_pcv + g_cvcp[0] + g_flex->n + (int)g_atomic_long +
           (*g_opp)[0](1, 1) + (int)g_uarr[1].whole +
#ifndef __clang__
           (int)g_f16 + (int)g_f64x +
           (int)g_d32 + (int)g_d64 + (int)g_d128 + __real__ g_cint + __imag__ g_cuchar +
#endif
           0 == 0;
}
