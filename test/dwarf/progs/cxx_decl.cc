// test/dwarf/progs/cxx_decl.cc (with cxx_decl_def.cc and cxx_decl.h):
// classes this unit only declares. Each class of cxx_decl.h has its key
// function in cxx_decl_def.cc, so this unit's DWARF describes them by
// declarations (DW_AT_declaration: no size, no members); GDB resolves such
// a declaration to the definition of its qualified name in another unit
// (check_typedef's opaque type resolution), so that the variables of this
// unit whose types are declared (in namespaces or not), the members of a
// class of this unit of such types, pointers, references, arrays, typedefs
// and const versions of them show the full values, as does the class of
// "this" in the frame of a member function of such a class (the probe's
// caller) and a class of this unit derived from one. A pointer to a class
// no unit defines stays a pointer to an incomplete type.
#include "cxx_decl.h"

volatile int sink;

extern "C" __attribute__((noinline)) void probe(int v)
{
    sink = v;
    __asm__ volatile("" ::: "memory");
}

// a class of this unit (defined here: no virtual function) whose members
// have declared types
struct Holder {
    geo::Rect r;
    geo::Shape *sp;
    geo::detail::Node &nr;
    Plain pl[2];
    int k;
};
typedef geo::detail::Node NodeT;
// a class of this unit (it has no key function: its vtable is emitted
// here) whose base class is declared (DW_TAG_inheritance names the
// declaration)
namespace geo {
struct Extra : Shape {
    explicit Extra(int i) : Shape(i), extra(i * 3) {}
    int extra;
};
} // namespace geo

geo::Rect g_rect(7, 2, 9);
const geo::Shape *g_shape = &g_rect;
geo::detail::Node g_nodes[2] = {geo::detail::Node(11), geo::detail::Node(12)};
Holder g_holder = {geo::Rect(8, 3, 4), &g_rect, g_nodes[1], {}, 42};
Opaque *g_opaque;
NodeT *g_nodep = &g_nodes[0];
geo::Extra g_extra(13);

__attribute__((noinline)) int use_shapes(geo::Rect &r, const geo::Shape *s, geo::detail::Node &n,
                                         Plain *p, int k)
{
    geo::Rect local(k, k + 1, k + 2);
    const geo::Rect &cref = local;
    NodeT copy(n.val + 1);
    copy.next = &n;
    Holder h = {geo::Rect(k + 3, 5, 6), &r, n, {Plain(), Plain()}, k};
    h.pl[1].a = k * 3;
    Opaque *op = g_opaque;
    geo::Extra ex(k - 1);
    int per = local.perimeter(cref.h + s->id + copy.val + p->name[0] + h.k + (op != nullptr) +
                              ex.extra);
    return per + k + r.w + h.r.h + copy.next->val;
}

int main()
{
    g_nodes[0].next = &g_nodes[1];
    return g_rect.area() + g_shape->id == 0;
}
