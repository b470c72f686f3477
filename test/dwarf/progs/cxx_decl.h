// test/dwarf/progs/cxx_decl.h: the classes of cxx_decl.cc and
// cxx_decl_def.cc. Each has a key function (its first virtual function
// that is not inline) that cxx_decl_def.cc defines: that unit alone holds
// the class's vtable, and so its full DWARF; cxx_decl.cc, which only uses
// the classes, describes them by declarations (DW_AT_declaration, no size,
// no members): clang's default -fno-standalone-debug, and GCC's default
// -fno-emit-class-debug-always.
#ifndef CXX_DECL_H
#define CXX_DECL_H
namespace geo {
class Shape {
public:
    explicit Shape(int i);
    virtual ~Shape();
    virtual int area() const;
    int id;
    double scale;
};
extern "C" void probe(int v);
class Rect : public Shape {
public:
    Rect(int i, int w, int h);
    int area() const override;
    // not the key function: emitted where it is called (cxx_decl.cc),
    // whose DWARF declares the class of its "this"
    __attribute__((noinline)) int perimeter(int extra) const
    {
        int p = 2 * (w + h);
        probe(extra + p);
        return p;
    }
    int w, h;
};
namespace detail {
struct Node {
    explicit Node(int v);
    virtual int weight() const;
    Node *next;
    int val;
    short tag[3];
};
} // namespace detail
} // namespace geo
// in the global namespace
struct Plain {
    Plain();
    virtual void touch();
    long a;
    char name[5];
};
// a class no unit defines (only pointers to it are used)
class Opaque;
// cxx_decl.cc's worker, which cxx_decl_def.cc calls back
int use_shapes(geo::Rect &r, const geo::Shape *s, geo::detail::Node &n, Plain *p, int k);
#endif
