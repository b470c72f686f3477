// test/dwarf/progs/cxx_decl_def.cc: see cxx_decl.cc. The key functions of
// cxx_decl.h's classes: their full DWARF is here alone.
#include "cxx_decl.h"

geo::Shape::Shape(int i) : id(i), scale(i * 0.25) {}
geo::Shape::~Shape() {}
int geo::Shape::area() const { return id; }

geo::Rect::Rect(int i, int w_, int h_) : Shape(i), w(w_), h(h_) {}
__attribute__((noinline)) int geo::Rect::area() const
{
    // a frame of this unit (full types) below cxx_decl.cc's
    geo::detail::Node n(w + h);
    Plain p;
    int r = use_shapes(const_cast<Rect &>(*this), this, n, &p, w * h);
    return r + 1;
}

geo::detail::Node::Node(int v) : next(nullptr), val(v), tag{1, -2, 3} {}
int geo::detail::Node::weight() const { return val * 2; }

Plain::Plain() : a(-5), name{'p', 'l', 'a', 'i', 'n'} {}
void Plain::touch() { a++; }
