/* examples/dwexpr/funcname.h: function names as a debugger shows them
 * (GDB's backtrace): C++ linkage names demangled, without their
 * parameters and a template function's return type. */
#ifndef DWEXPR_CLI_FUNCNAME_H
#define DWEXPR_CLI_FUNCNAME_H

#include <stdbool.h>
#include <stddef.h>

/* NAME as GDB prints a frame's function: a C++ mangled name ("_Z...")
 * demangled (the demangler of the C++ runtime, libstdc++'s
 * __cxa_demangle, when it can be loaded) without its parameter list,
 * function qualifiers and, for a template function, return type; a Rust
 * legacy symbol ("_ZN...17h<hash>E") with its escapes decoded, as GDB 13
 * names a minimal symbol ("r1::main::{{closure}}::h8a9d9ec0e320ed53"); true
 * with the result in BUF (CAP bytes). False (BUF untouched) for a name
 * that is not mangled or cannot be demangled. */
bool funcname_demangle(const char *name, char *buf, size_t cap);

/* The function part of demangled name D in place: "ns::f<int>" of
 * "int ns::f<int>(int) const" (GDB's cp_remove_params with the demangler's
 * DMGL_RET_DROP). D is left as it is where its shape is not that, and
 * a function-local name ("f(int)::L::m(int)") whole, as GDB shows it,
 * but for a template function's return type ("int g<f()::$_0>(f()::$_0)"
 * is "g<f()::$_0>(f()::$_0)"). */
void funcname_strip(char *d);

#endif
