// test/dwarf/progs/cxx_sort.cc: frames inside libstdc++ templates
// instantiated with lambdas, for `dwexpr vars` against GDB: std::sort with
// a lambda comparator stopped in the comparator's callee (GCC's
// __insertion_sort<..., _Iter_comp_iter<run(...)::<lambda(...)> > > has
// no linkage name: GDB shows its DW_AT_name whole with the parameter
// types; inlined ones without), a function whose parameter is a
// std::function<int(int)> (a function type GDB's name parser does not
// read: the frame "run(std::vector<Item, ...>&, std::function<int (int)>)"
// keeps its parameters, the type its spelling), a std::map local (a class
// name of some 300 bytes).
#include <algorithm>
#include <vector>
#include <functional>
#include <map>
#include <string>
volatile int sink;
__attribute__((noinline)) void probe(int depth) { sink = depth; __asm__ volatile("" ::: "memory"); }
struct Item { int key; std::string name; };
static int calls;
__attribute__((noinline)) bool compare(const Item &a, const Item &b)
{
    if (++calls == 5)
        probe(1);
    return a.key < b.key;
}
__attribute__((noinline)) int run(std::vector<Item> &items, std::function<int(int)> fn)
{
    int base = fn(3);
    std::sort(items.begin(), items.end(), [&](const Item &a, const Item &b) { return compare(a, b); });
    std::map<std::string, int> m;
    for (auto &it : items) m[it.name] = it.key;
    return base + (int)m.size();
}
int main()
{
    std::vector<Item> items{{5, "e"}, {3, "c"}, {9, "i"}, {1, "a"}, {7, "g"}, {2, "b"}};
    int k = 2;
    return run(items, [k](int x) { return x * k; }) == 0;
}
