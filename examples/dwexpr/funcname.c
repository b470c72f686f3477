/* examples/dwexpr/funcname.c: see funcname.h. */
#include "funcname.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* libstdc++'s demangler (the Itanium C++ ABI's abi::__cxa_demangle, an
 * extern "C" function), loaded once; NULL where there is no C++ runtime. */
typedef char *(*cxa_demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);

static cxa_demangle_fn demangler(void)
{
    static bool tried;
    static cxa_demangle_fn fn;
    if (!tried) {
        tried = true;
        void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
        void *sym = h ? dlsym(h, "__cxa_demangle") : NULL;
        memcpy(&fn, &sym, sizeof fn); /* object to function pointer (POSIX) */
    }
    return fn;
}

/* Whether D[0..n) ends with WORD as a whole word. */
static bool ends_with_word(const char *d, size_t n, const char *word)
{
    size_t w = strlen(word);
    return n >= w && memcmp(d + n - w, word, w) == 0 &&
           (n == w || d[n - w - 1] == ' ' || d[n - w - 1] == ')');
}

/* Where the operator name D[0..n) ends with starts ("operator" and,
 * possibly, an operator's symbols: "operator<", "operator()"), or
 * SIZE_MAX: a space after it belongs to the name, and its symbols are
 * not brackets. */
static size_t operator_start(const char *d, size_t n)
{
    size_t i = n;
    while (i > 0 && strchr("+-*/%^&|~!=<>,()[]", d[i - 1]))
        i--;
    if (i >= 8 && memcmp(d + i - 8, "operator", 8) == 0 &&
        (i == 8 || d[i - 9] == ':' || d[i - 9] == ' '))
        return i - 8;
    return SIZE_MAX;
}

/* Whether D is a function-local name ("f(int)::L::m(int)": a scope
 * with a parameter list before a "::"), which GDB's name parser does not
 * take apart: GDB shows such a name whole, parameters included. */
static bool local_name(const char *d)
{
    for (const char *p = strstr(d, ")::"); p; p = strstr(p + 1, ")::")) {
        const size_t at = (size_t)(p - d);
        if (!(at >= 20 && memcmp(p - 20, "(anonymous namespace", 20) == 0))
            return true;
    }
    return false;
}

/* Whether D has a function type ("int (int)", as the demangler writes
 * it: a return type, a space, a parameter list; not a pointer or
 * reference to one, "int (*)(int)"), which GDB 13's name parser does
 * not read either: "g(std::function<int (int)>)" is shown whole, where
 * "h(W<int (*)(int)>)" is "h". */
static bool function_type(const char *d)
{
    for (const char *p = strstr(d, " ("); p; p = strstr(p + 1, " (")) {
        if (p[2] != '*' && p[2] != '&' && strncmp(p + 1, "(anonymous namespace)", 21) != 0)
            return true;
    }
    return false;
}

void funcname_strip(char *d)
{
    /* a function-local name, or one with a function type, keeps its
     * parameters; a template one loses its return type still (the
     * demangler's DMGL_RET_DROP, before cp_remove_params: clang's
     * "int apply<f()::$_0>(f()::$_0, int)" is GDB's
     * "apply<f()::$_0>(f()::$_0, int)") */
    /* a thunk's special name ("virtual thunk to ns::C::f() const"),
     * which GDB's name parser does not read either: shown whole */
    if (strncmp(d, "virtual thunk to ", 17) == 0 || strncmp(d, "non-virtual thunk to ", 21) == 0 ||
        strncmp(d, "covariant return thunk to ", 26) == 0)
        return;
    const bool local = local_name(d) || function_type(d);
    size_t n = strlen(d);
    /* the function's qualifiers after its parameters */
    for (;;) {
        while (n > 0 && d[n - 1] == ' ')
            n--;
        if (ends_with_word(d, n, "const"))
            n -= 5;
        else if (ends_with_word(d, n, "volatile"))
            n -= 8;
        else if (ends_with_word(d, n, "noexcept"))
            n -= 8;
        else if (n > 0 && d[n - 1] == '&')
            n--;
        else
            break;
    }
    if (n == 0 || d[n - 1] != ')')
        return; /* not a function's name */
    /* the parameter list: the parenthesis matching the last one */
    size_t i = n, depth = 0;
    while (i > 0) {
        char c = d[--i];
        if (c == ')')
            depth++;
        else if (c == '(' && --depth == 0)
            break;
    }
    if (depth != 0 || i == 0)
        return;
    n = i;
    if (!local)
        d[n] = 0;
    /* a template function's return type: text before the name, up to a
     * space outside brackets that is not part of an operator's name */
    if (d[n - 1] != '>')
        return;
    depth = 0;
    for (i = n; i > 0; i--) {
        char c = d[i - 1];
        if (c == '>' || c == ')' || c == ']' || c == '}') {
            depth++;
        } else if (c == '<' || c == '(' || c == '[' || c == '{') {
            if (depth == 0)
                return; /* unbalanced: leave it */
            depth--;
        } else if (c == ' ' && depth == 0) {
            const size_t op = operator_start(d, i - 1);
            if (op == SIZE_MAX) {
                memmove(d, d + i, strlen(d + i) + 1);
                return;
            }
            i = op + 1; /* on before "operator" */
        }
    }
}

bool funcname_demangle(const char *name, char *buf, size_t cap)
{
    if (!name || strncmp(name, "_Z", 2) != 0 || cap == 0)
        return false;
    cxa_demangle_fn fn = demangler();
    if (!fn)
        return false;
    int status = -1;
    char *d = fn(name, NULL, NULL, &status);
    if (!d || status != 0) {
        free(d);
        return false;
    }
    funcname_strip(d);
    size_t n = strlen(d);
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, d, n);
    buf[n] = 0;
    free(d);
    return true;
}
