// test/dwarf/progs/cxx_thunk.cc: a virtual call through a virtual base for
// `dwexpr vars` against GDB. At -O2 g++ compiles VLeaf::get into its
// "virtual thunk to app::detail::VLeaf::get() const" (_ZTv0_n24_...), a
// frame of its own without DWARF of its own, whose special name GDB's
// name parser does not read: GDB shows it whole, parameters and const
// included. Also a class template with a non-type argument, a scoped enum
// and a std::unique_ptr local.
#include <memory>
#include <tuple>
volatile int sink;
__attribute__((noinline)) void probe(int d)
{
    sink = d;
    __asm__ volatile("" ::: "memory");
}
namespace app {
namespace detail {
struct VBase {
    virtual ~VBase() = default;
    virtual int get() const = 0;
    int base_v = 10;
};
struct VMid1 : virtual VBase {
    int m1 = 11;
};
struct VMid2 : virtual VBase {
    int m2 = 12;
};
struct VLeaf final : VMid1, VMid2 {
    int get() const override
    {
        probe(1);
        return base_v + m1 + m2;
    }
};
template <int N, typename T> struct Fixed {
    T vals[N];
};
enum class Kind : unsigned char { A = 1, B = 2 };
} // namespace detail
} // namespace app

__attribute__((noinline)) int visit(const app::detail::VBase &b, std::tuple<int, char, long> tup,
                                    app::detail::Kind k)
{
    app::detail::Fixed<3, short> fx{{1, 2, 3}};
    std::unique_ptr<app::detail::VLeaf> up(new app::detail::VLeaf);
    int r = b.get() + (int)std::get<0>(tup) + (int)k + fx.vals[1];
    return r + up->m1;
}

int main()
{
    app::detail::VLeaf leaf;
    return visit(leaf, std::make_tuple(1, 'x', 3L), app::detail::Kind::B) == 0;
}
