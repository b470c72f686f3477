// test/dwarf/progs/cxx_refs.cc: C++ references and classes for `dwexpr vars` against
// GDB (written for an outside audit): lvalue and rvalue references, single,
// multiple and virtual bases, a virtual call, a template; gcc -O2 describes
// refs()'s LOCAL with DW_OP_entry_value(DW_OP_breg5 0; DW_OP_deref_size 4),
// which the caller's call site answers with DW_AT_call_data_value.
#include <utility>
volatile int sink;

extern "C" __attribute__((noinline)) int probe(int v)
{
    sink = v;
    __asm__ volatile("" ::: "memory");
    return v;
}

struct Base {
    int b1;
    double b2;
    Base(int x) : b1(x), b2(x * 0.5) {}
    virtual ~Base() {}
    virtual int work(int k) const;
};
struct Other {
    long o1;
    short o2;
    Other(long x) : o1(x), o2((short)(x + 1)) {}
};
struct Derived : Base, Other {
    int d1;
    char d2[3];
    Derived(int x) : Base(x), Other(x * 10), d1(x + 7), d2{'d', 'e', 'r'} {}
    int work(int k) const override;
};
struct VBase { int vb = 77; };
struct VL : virtual VBase { int l = 1; };
struct VR : virtual VBase { int r = 2; };
struct Diamond : VL, VR { int dd = 3; };

__attribute__((noinline)) int refs(int &lr, const int &cr, int &&rr, Derived &dref,
                                   const Base &bref, Other *op, Diamond &dia)
{
    int local = lr + cr + rr;
    int &alias = lr;
    int &&moved = std::move(rr);
    const Other &oref = *op;
    alias += 1;
    int pr = probe(local + alias + moved + dref.d1 + bref.b1 + (int)oref.o1 + dia.vb);
    return pr + moved;
}

int Base::work(int k) const
{
    int wb = k + b1;
    return wb;
}

int Derived::work(int k) const
{
    int wd = k * d1;
    int x = 3, y = 4;
    Diamond dia;
    dia.vb = wd;
    int r = refs(x, y, wd + 1, const_cast<Derived &>(*this), *this, (Other *)this, dia);
    return r + Base::work(wd) + x;
}

template <typename T, int N> struct Arr {
    T v[N];
    __attribute__((noinline)) T sum(const Base &via) const
    {
        T acc = T();
        for (int i = 0; i < N; i++)
            acc += v[i];
        return acc + (T)via.work((int)acc);
    }
};

int main(int argc, char **)
{
    Derived d(argc + 4);
    Base *bp = &d;
    Arr<long, 3> arr = {{1, 2, (long)argc}};
    long s = arr.sum(*bp);
    return s == 3;
}
