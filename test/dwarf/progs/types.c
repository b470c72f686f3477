/* test/dwarf/progs/types.c: every C base type the compilers emit (for the
 * base type check against readelf), bit-fields, a union, a variable length
 * array whose bound is computed at run time, and a probe to stop in. */
#include <complex.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef int v4si __attribute__((vector_size(16)));

struct bits {
    unsigned a : 3;
    signed b : 5;
    unsigned long c : 40;
    _Bool d : 1;
};

union pun {
    float f;
    unsigned u;
    unsigned char b[4];
};

_Bool g_bool = 1;
char g_char = 'x';
signed char g_schar = -3;
unsigned char g_uchar = 250;
short g_short = -1234;
unsigned short g_ushort = 60000;
int g_int_ = -100000;
unsigned g_uint = 4000000000u;
long g_long = -5000000000l;
unsigned long g_ulong = 18000000000000000000ul;
long long g_llong = -7;
unsigned long long g_ullong = 7;
__int128 g_i128 = -((__int128)1 << 100);
unsigned __int128 g_u128 = ((unsigned __int128)1 << 120) + 5;
float g_float = 1.5f;
double g_double = -2.25;
long double g_ldouble = 3.0L;
float _Complex g_cfloat = 1.0f + 2.0f * I;
double _Complex g_cdouble = 3.0 - 4.0 * I;
v4si g_vec = {1, 2, 3, 4};
struct bits g_bits = {5, -7, 0x123456789ul, 1};
union pun g_pun = {.u = 0x3fc00000u};
wchar_t g_wchar = L'z';
volatile int sink_t;

__attribute__((noinline)) void probe_t(int n)
{
    sink_t = n;
    __asm__ volatile("" ::: "memory");
}

/* A VLA: its bound lives in a variable (DW_AT_upper_bound / DW_AT_count
 * as an expression or a reference). */
__attribute__((noinline)) int vla_user(int n)
{
    int arr[n];
    struct bits lb = g_bits;
    union pun lp = g_pun;
    for (int i = 0; i < n; i++)
        arr[i] = i * 3;
    lb.b = (signed)(n - 20);
    lp.b[0] = (unsigned char)n;
    probe_t(n);
    return arr[n - 1] + lb.b + lp.b[0];
}

int main(void)
{
    return vla_user(5) == 0;
}
