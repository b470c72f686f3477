// test/dwarf/progs/cxx.cc: C++ frames for `dwexpr vars` against GDB:
// function names as GDB shows them (namespaces, classes, templates, an
// anonymous namespace, a function-local class, lambdas, operator()) and
// the variables of functions defined inside a class (a lambda's body, a
// local class's method), and pointers to members. No call is a tail call (each result is used after
// it), so every frame is a real one in GDB too.
extern "C" __attribute__((noinline)) int probe_c(int v)
{
    volatile int w = v;
    return w + 1;
}

namespace outer {
namespace inner {
struct Box {
    int v;
    explicit Box(int x) : v(x) {}
    __attribute__((noinline)) int get(int k) const
    {
        volatile int z = v + k;
        return probe_c(z) + 1;
    }
    static __attribute__((noinline)) int stat(int k)
    {
        Box b(k);
        const int &rk = k; /* a reference: its bytes are an address */
        return b.get(rk) + 2;
    }
    __attribute__((noinline)) int operator()(int k) { return stat(k + v) + 3; }
};
template <typename T> struct Tmpl {
    T t;
    __attribute__((noinline)) T run(T x)
    {
        Box b((int)t);
        return (T)b((int)x) + 4;
    }
};
template <typename T> __attribute__((noinline)) T twice(T x)
{
    Tmpl<T> m{x};
    return m.run(x) + 5;
}
__attribute__((noinline)) int over(int a) { return (int)twice<long>(a) + 6; }
__attribute__((noinline)) int over(double a) { return over((int)a) + 7; }
} // namespace inner
} // namespace outer

// pointers to members: GDB names the class ("int outer::inner::Box::*")
// and a pointer to a member function is two words (the Itanium ABI)
int outer::inner::Box::*g_pm = &outer::inner::Box::v;
int (outer::inner::Box::*g_pmf)(int) const = &outer::inner::Box::get;

// template arguments GDB prints canonicalized ("Tmpl<char const*>",
// "Tmpl<int const volatile* const>"): clang writes "const char *"
outer::inner::Tmpl<const char *> g_tmpl_cp = {"s"};
outer::inner::Tmpl<const volatile int *const> g_tmpl_q = {nullptr};
// and function pointer and array arguments: "Hold<int (*)(char const*,
// int)>", "Hold<int const [3]>"
template <typename T> struct Hold {
    T t;
};
Hold<int (*)(const char *, int)> g_tmpl_fp = {nullptr};
Hold<const int[3]> g_tmpl_arr = {{1, 2, 3}};

// globals outside the global namespace, named as GDB names them:
// "outer::inner::g_level", "Counted::count" (a static data member,
// defined outside its class), "(anonymous namespace)::g_hidden"
namespace outer {
namespace inner {
int g_level = 3;
} // namespace inner
} // namespace outer
struct Counted {
    static long count;
    int x;
};
long Counted::count = 12;

namespace {
int g_hidden = 6;
__attribute__((noinline)) int anon(int a)
{
    return outer::inner::over(a * 1.0) + 8 + g_hidden - 6 + outer::inner::g_level - 3 +
           (int)Counted::count - 12;
}
} // namespace

static __attribute__((noinline)) int local_class(int a)
{
    struct Local {
        int base;
        __attribute__((noinline)) int m(int x) { return anon(x + base) + 9; }
    };
    Local l{a};
    return l.m(a) + 10;
}

// a namespace-scope constant used only as a template's default argument:
// its definition DIE names (DW_AT_specification) the declaration that
// holds its DW_AT_const_value, which GDB reads through it (a global
// "cfg::default_mode = cfg::Atomic", as libstdc++'s
// __gnu_cxx::__default_lock_policy)
namespace cfg {
enum Mode { Slow, Fast, Atomic };
static const Mode default_mode = Atomic;
} // namespace cfg
template <cfg::Mode M = cfg::default_mode> struct Policy {
    int m = M;
};
Policy<> g_policy;

// integer template arguments: clang names them with suffixes ("Buf<4UL>",
// "Pair2<-3LL, 7U>"), GDB's canonical names in lower case ("Buf<4ul>")
template <unsigned long N> struct Buf {
    char b[N];
};
template <long long N, unsigned U> struct Pair2 {
    int v = (int)N + (int)U;
};
Buf<4> g_buf;
Pair2<-3, 7> g_pair2;

// an operator's '<' is no template argument list (a frame "Less::operator<")
struct Less {
    int k;
    __attribute__((noinline)) bool operator<(const Less &o) const { return local_class(k) < o.k; }
};

// a function template instantiated with a lambda's closure type: GCC
// gives it no linkage name, and GDB shows its DW_AT_name, which GDB's
// name parser does not read, with the parameter types
// ("apply_fn<via(int)::<lambda(int)> >(struct {...}, int)"); clang's
// demangled name is function-local: GDB keeps its parameters and drops
// its return type
template <typename F> __attribute__((noinline)) int apply_fn(F fn, int v)
{
    int r = fn(v);
    return r + 1;
}

// the lambda of a function with parameters: clang's name of apply_fn is
// "apply_fn<via(int)::$_0>(via(int)::$_0, int)" in GDB
__attribute__((noinline)) int via(int argc)
{
    auto f = [argc](int q) __attribute__((noinline)) { return (Less{q + argc} < Less{q}) + 11; };
    int r = apply_fn(f, 20);
    return r + 1;
}

int main(int argc, char **argv)
{
    (void)argv;
    outer::inner::Box b(argc);
    return via(argc) == 0 && b.*g_pm == 0 && (b.*g_pmf)(1) == 0 && g_tmpl_cp.t[0] == 's' &&
           !g_tmpl_q.t && !g_tmpl_fp.t && g_tmpl_arr.t[2] == 3 && g_policy.m == 2 &&
           g_buf.b[0] == 0 && g_pair2.v == 4;
}
