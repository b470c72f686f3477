/* examples/dwexpr/funcname.c: see funcname.h. */
#include "funcname.h"

#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
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

/* Whether D names a type by decltype ("f(int, decltype(nullptr))": the
 * demangler's spelling of std::nullptr_t, mangled "Dn", and of any
 * decltype in a signature), a keyword GDB 13's C++ name parser
 * (cp-name-parser.y) does not know: cp_remove_params fails and GDB's
 * backtrace shows the name whole, "f4(int, decltype(nullptr))" for
 * f4(int, std::nullptr_t) (g++ and clang++ alike). */
static bool has_decltype(const char *d)
{
    for (const char *p = strstr(d, "decltype("); p; p = strstr(p + 1, "decltype(")) {
        if (p == d || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'))
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
    const bool local = local_name(d) || function_type(d) || has_decltype(d);
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

/* Whether [S, S+N) is a Rust legacy symbol's hash component: "h" and 16
 * hex digits, at least 5 of them distinct (libiberty's rust-demangle.c
 * takes a symbol for Rust's only with such a hash, "17h...E", last). */
static bool rust_hash(const char *s, size_t n)
{
    if (n != 17 || s[0] != 'h')
        return false;
    unsigned seen = 0;
    for (size_t i = 1; i < n; i++) {
        const char *hex = "0123456789abcdef", *at = strchr(hex, s[i]);
        if (!s[i] || !at)
            return false;
        seen |= 1u << (at - hex);
    }
    int distinct = 0;
    for (; seen; seen &= seen - 1)
        distinct++;
    return distinct >= 5;
}

/* Append the identifier [S, S+N) of a Rust legacy symbol to O (CAP
 * bytes, used *AT) with its escapes decoded, as GDB's demangler writes
 * them: "$LT$" '<', "$GT$" '>', "$RF$" '&', "$BP$" '*', "$SP$" '@',
 * "$C$" ',', "$LP$" '(', "$RP$" ')', "$uXX$" the ASCII character XX,
 * ".." "::", and the '_' before a leading escape dropped. False for an
 * escape it does not know. */
static bool rust_ident(const char *s, size_t n, char *o, size_t cap, size_t *at)
{
    static const char *const esc[][2] = {{"$SP$", "@"}, {"$BP$", "*"}, {"$RF$", "&"},
                                         {"$LT$", "<"}, {"$GT$", ">"}, {"$LP$", "("},
                                         {"$RP$", ")"}, {"$C$", ","}};
    if (n >= 2 && s[0] == '_' && s[1] == '$') {
        s++;
        n--;
    }
    for (size_t i = 0; i < n;) {
        char out[3] = {s[i], 0, 0};
        size_t used = 1;
        if (s[i] == '$') {
            used = 0;
            for (size_t k = 0; k < sizeof esc / sizeof esc[0]; k++) {
                const size_t len = strlen(esc[k][0]);
                if (i + len <= n && memcmp(s + i, esc[k][0], len) == 0) {
                    out[0] = esc[k][1][0];
                    used = len;
                    break;
                }
            }
            if (!used && i + 1 < n && s[i + 1] == 'u') {
                unsigned c = 0;
                size_t j = i + 2;
                while (j < n && j < i + 4 && strchr("0123456789abcdef", s[j]) && s[j])
                    c = c * 16 + (unsigned)(s[j] <= '9' ? s[j] - '0' : s[j] - 'a' + 10), j++;
                if (j < n && s[j] == '$' && j > i + 2 && c > 0 && c < 0x80) {
                    out[0] = (char)c;
                    used = j + 1 - i;
                }
            }
            if (!used)
                return false;
        } else if (s[i] == '.' && i + 1 < n && s[i + 1] == '.') {
            out[1] = ':';
            out[0] = ':';
            used = 2;
        }
        const size_t len = strlen(out);
        if (*at + len >= cap)
            return false;
        memcpy(o + *at, out, len + 1);
        *at += len;
        i += used;
    }
    return true;
}

/* A Rust legacy symbol NAME ("_ZN" then length-prefixed identifiers, the
 * last "h" and a 16-digit hash, then "E") as GDB 13 names a function from
 * its ELF symbol alone (a minimal symbol; with DWARF it names it by the
 * DWARF): the identifiers decoded (rust_ident) and joined by "::", the
 * hash kept: "_ZN9rust_vars4main28_$u7b$$u7b$closure$u7d$$u7d$17h8a9d9ec0e320ed53E"
 * is "rust_vars::main::{{closure}}::h8a9d9ec0e320ed53". False (BUF
 * untouched) for any other symbol: C++'s are the C++ demangler's. */
static bool rust_legacy_demangle(const char *name, char *buf, size_t cap)
{
    if (strncmp(name, "_ZN", 3) != 0)
        return false;
    const char *p = name + 3, *last = NULL;
    size_t last_len = 0, parts = 0;
    /* the path's components up to "E", the end of the symbol */
    while (*p >= '0' && *p <= '9') {
        size_t len = 0;
        while (*p >= '0' && *p <= '9' && len < 100000)
            len = len * 10 + (size_t)(*p++ - '0');
        if (strnlen(p, len) < len)
            return false;
        last = p;
        last_len = len;
        p += len;
        parts++;
    }
    if (strcmp(p, "E") != 0 || parts < 2 || !rust_hash(last, last_len))
        return false;
    char out[1024];
    size_t at = 0;
    out[0] = 0;
    p = name + 3;
    for (size_t k = 0; k < parts; k++) {
        size_t len = 0;
        while (*p >= '0' && *p <= '9')
            len = len * 10 + (size_t)(*p++ - '0');
        if (k > 0) {
            if (at + 2 >= sizeof out)
                return false;
            memcpy(out + at, "::", 3);
            at += 2;
        }
        if (!rust_ident(p, len, out, sizeof out, &at))
            return false;
        p += len;
    }
    snprintf(buf, cap, "%s", out);
    return true;
}

bool funcname_demangle(const char *name, char *buf, size_t cap)
{
    if (!name || strncmp(name, "_Z", 2) != 0 || cap == 0)
        return false;
    if (rust_legacy_demangle(name, buf, cap))
        return true;
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
