/* fuzz/fuzz_funcname.c: libFuzzer harness for the CLI's function names
 * (examples/dwexpr/funcname.c): a name as an ELF symbol or DW_AT_name of
 * any file gives it. Input: the bytes up to the first NUL (at most 4 KiB)
 * as a symbol name: funcname_demangle (the Rust legacy demangler of our
 * own, and the C++ runtime's __cxa_demangle when it loads) into buffers
 * of several sizes, then funcname_strip of each result and of the input
 * itself. Invariants: no crash, leak or undefined behaviour; a result is
 * NUL-terminated inside its buffer; a failed demangle leaves the buffer
 * untouched; stripping never lengthens a name. */
#include "fuzz_common.h"

#include "funcname.h"

enum { MAX_NAME = 4096 };

/* funcname_strip of S (a copy), checked. */
static void strip_checked(const char *s)
{
    const size_t n = strlen(s);
    char *c = malloc(n + 1);
    if (!c)
        return;
    memcpy(c, s, n + 1);
    funcname_strip(c);
    FZ_CHECK(strlen(c) <= n, "funcname_strip lengthened \"%s\" to \"%s\"", s, c);
    free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = 0;
    while (n < size && n < MAX_NAME && data[n])
        n++;
    char *name = malloc(n + 1);
    if (!name)
        return 0;
    memcpy(name, data, n);
    name[n] = 0;
    static const size_t caps[] = {1, 2, 17, 256, 8192};
    for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++) {
        char *buf = malloc(caps[k] + 1);
        if (!buf)
            break;
        memset(buf, 0x5a, caps[k] + 1);
        const bool ok = funcname_demangle(name, buf, caps[k]);
        FZ_CHECK(buf[caps[k]] == 0x5a, "funcname_demangle wrote past %zu bytes", caps[k]);
        if (ok) {
            FZ_CHECK(memchr(buf, 0, caps[k]) != NULL, "result not terminated in %zu bytes",
                     caps[k]);
            strip_checked(buf);
        } else {
            for (size_t i = 0; i < caps[k]; i++)
                FZ_CHECK((uint8_t)buf[i] == 0x5a, "a failed demangle wrote byte %zu", i);
        }
        free(buf);
    }
    strip_checked(name);
    free(name);
    return 0;
}
