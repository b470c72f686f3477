// test/dwarf/progs/cxx_kinds.cc: C++ types no other program has, for
// `dwexpr vars` against GDB: scoped enumerations with negative values
// and 64-bit ones (an unsigned one at its largest, a value that is no
// enumerator), anonymous unions and structures inside a class,
// bit-fields of a class (signed, bool, an enumeration's, one across a
// byte boundary, after a base class), std::array and std::pair values
// (GDB runs without pretty printers), static constexpr data members
// (defined outside the class too: clang 14's default is C++14, where
// they are no inline variables), std::nullptr_t (DWARF's unspecified
// type "decltype(nullptr)"), wchar_t, char16_t and char32_t, a reference
// to an array, pointers to data members of a base and of a second base,
// a class with a virtual base, a lambda's closure object, and class
// templates with pointer, reference, pointer-to-member and negative
// non-type arguments.
#include <array>
#include <cstddef>
#include <utility>

volatile int sink;

extern "C" __attribute__((noinline)) void probe(int v)
{
    sink = v;
    __asm__ volatile("" ::: "memory");
}

namespace kinds {
enum class Neg : int { Low = -100, Mid = -1, Zero = 0, High = 7 };
enum class Wide : long long { Min = -9223372036854775807LL - 1, Max = 9223372036854775807LL };
enum class UWide : unsigned long long { One = 1, Top = 0xffffffffffffffffULL };
enum class Small : signed char { Neg = -2, Pos = 3 };
enum Plain { P0, P1, P2 = 1000 };

struct Base {
    int base_k = 5;
};
struct Packed : Base {
    unsigned a : 3;
    int b : 5;          // negative: sign-extended
    bool flag : 1;
    Small s : 4;        // an enumeration's bit-field
    unsigned long long wide : 41; // across byte boundaries
    unsigned tail : 7;
};

struct Variant {
    int tag;
    union {             // anonymous union: its members are the class's
        int i;
        float f;
        unsigned char raw[4];
    };
    struct {            // anonymous structure (a GNU extension in C++)
        short x, y;
    };
    double after;
};

struct Limits {
    static constexpr int kMax = 42;
    static constexpr long long kBig = -1234567890123LL;
    static constexpr Neg kNeg = Neg::Low;
    int v;
};

struct VB {
    int vb = 9;
};
struct VD : virtual VB {
    int vd = 8;
};
// a pointer to a member of the second base: its offset in MC
struct MA {
    long ma = 1;
};
struct MB {
    int mb = 2;
};
struct MC : MA, MB {
    int mc = 3;
};

template <const int *P, int N> struct Ptr {
    int get() const { return *P + N; }
    int pad = N;
};
// GCC names these "RefArg<((int const&)(& kinds::g_target))>" and
// "PmArg<&kinds::MC::mc, (& kinds::g_target)>", GDB "RefArg<(int
// const&)(&kinds::g_target)>" and "PmArg<&kinds::MC::mc, &kinds::g_target>"
template <const int &R> struct RefArg {
    int r = 1;
};
template <int MC::*PM, const int *P> struct PmArg {
    int p = 2;
};
int g_target = 31;
constexpr int Limits::kMax;
constexpr long long Limits::kBig;
constexpr Neg Limits::kNeg;
} // namespace kinds

kinds::Neg g_neg = kinds::Neg::Low;
kinds::Neg g_neg_odd = static_cast<kinds::Neg>(-55);
kinds::Wide g_wide_min = kinds::Wide::Min;
kinds::UWide g_uwide = kinds::UWide::Top;
kinds::Small g_small = kinds::Small::Neg;
kinds::Plain g_plain = kinds::P2;
kinds::Packed g_packed;
kinds::Variant g_variant;
std::array<short, 4> g_arr = {{1, -2, 3, -4}};
std::pair<int, double> g_pair = {-7, 2.5};
std::nullptr_t g_null = nullptr;
wchar_t g_wc = L'W';
char16_t g_c16 = u'\u263a';
char32_t g_c32 = U'\U0001F600';
kinds::Ptr<&kinds::g_target, -3> g_ptr;
kinds::RefArg<kinds::g_target> g_refarg;
kinds::PmArg<&kinds::MC::mc, &kinds::g_target> g_pmarg;
int kinds::Base::*g_pm_base = &kinds::Base::base_k;
int kinds::MC::*g_pm_second = &kinds::MC::mb;
const int *g_kmax_p = &kinds::Limits::kMax;

__attribute__((noinline)) int work(kinds::Neg n, kinds::Wide w, kinds::UWide u,
                                   const kinds::Packed &pk, kinds::Variant var,
                                   std::array<int, 3> arr, std::pair<char, long> pr,
                                   std::nullptr_t np, int (&ra)[3])
{
    kinds::Packed local = pk;
    local.b = -11;
    local.wide = 0x1abcdef0123ULL;
    kinds::Variant v2 = var;
    v2.f = -0.5f;
    kinds::VD vd;
    vd.vb = 21;
    kinds::MC mc;
    int kinds::MC::*pm2 = g_pm_second;
    int kinds::VD::*pmv = &kinds::VD::vd;
    kinds::Limits lim{kinds::Limits::kMax};
    long long big = kinds::Limits::kBig;
    kinds::Neg kn = kinds::Limits::kNeg;
    std::array<kinds::Small, 2> sa = {{kinds::Small::Pos, kinds::Small::Neg}};
    std::pair<kinds::Neg, const char *> np2 = {kinds::Neg::Mid, "mid"};
    wchar_t wc = L'\u00e9';
    char16_t c16 = u'x';
    char32_t c32 = U'\u2603';
    int base = 4;
    auto lam = [base, &arr](int q) { return q + base + arr[0]; };
    probe((int)n + (int)w + (int)u + local.b + (int)local.wide + v2.i + vd.*pmv + mc.*pm2 + lim.v +
          (int)big + (int)kn + (int)sa[1] + (int)np2.first + wc + c16 + (int)c32 + lam(1) +
          arr[2] + pr.first + (int)pr.second + (np == nullptr) + ra[1] + g_ptr.get() + g_refarg.r +
          g_pmarg.p);
    return local.a + v2.x + (int)sa[0];
}

int main()
{
    g_packed.a = 5;
    g_packed.b = -9;
    g_packed.flag = true;
    g_packed.s = kinds::Small::Pos;
    g_packed.wide = 0x15555555555ULL;
    g_packed.tail = 100;
    g_variant.tag = 2;
    g_variant.f = 3.25f;
    g_variant.x = -3;
    g_variant.y = 4;
    g_variant.after = 1.5;
    int ra[3] = {10, 20, 30};
    return work(kinds::Neg::High, kinds::Wide::Max, kinds::UWide::One, g_packed, g_variant,
                {{7, 8, 9}}, {'p', -70000L}, nullptr, ra) == 0 && *g_kmax_p == 42;
}
