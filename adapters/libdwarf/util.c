/* adapters/libdwarf/util.c: the adapter's small containers (allocation
 * pool, growable arrays, a two-key hash map), bounded section readers
 * and error helpers. */
#include <stdio.h>
#include <stdlib.h>

#include "ld_int.h"

/* ---- pool ---- */

#define LD_CHUNK 65536

struct ld_chunk {
    ld_chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

/* Zeroed, 16-byte aligned memory that lives until ld_pool_free. */
void *ld_pool_alloc(ld_pool *p, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (size == 0)
        size = 16;
    ld_chunk *c = p->head;
    if (!c || c->cap - c->used < size) {
        size_t cap = size > LD_CHUNK ? size : LD_CHUNK;
        c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->used = 0;
        c->cap = cap;
        if (p->head && size > LD_CHUNK) {
            /* a big block goes behind the current chunk to keep its free space */
            c->next = p->head->next;
            p->head->next = c;
        } else {
            c->next = p->head;
            p->head = c;
        }
    }
    void *r = c->data + c->used;
    c->used += size;
    memset(r, 0, size);
    return r;
}

/* A pool copy of S (NULL stays NULL; NULL on OOM too). */
char *ld_pool_strdup(ld_pool *p, const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = ld_pool_alloc(p, n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Release every chunk. */
void ld_pool_free(ld_pool *p)
{
    ld_chunk *c = p->head;
    while (c) {
        ld_chunk *n = c->next;
        free(c);
        c = n;
    }
    p->head = NULL;
}

/* ---- vectors ---- */

/* Append a zeroed element; NULL on OOM. Pointers into the vector move. */
void *ld_vec_push(ld_vec *v)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 16;
        void *nv = realloc(v->v, cap * v->elem);
        if (!nv)
            return NULL;
        v->v = nv;
        v->cap = cap;
    }
    void *e = (unsigned char *)v->v + v->n * v->elem;
    memset(e, 0, v->elem);
    v->n++;
    return e;
}

/* Release the storage (the element size stays). */
void ld_vec_free(ld_vec *v)
{
    free(v->v);
    v->v = NULL;
    v->n = v->cap = 0;
}

/* ---- map ---- */

/* 64-bit mix of the two keys (splitmix64 finalizer). */
static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t x = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull);
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The value stored for (K1, K2), or NULL. */
void *ld_map_get(const ld_map *m, uint64_t k1, uint64_t k2)
{
    if (!m->cap)
        return NULL;
    size_t i = (size_t)mix(k1, k2) & (m->cap - 1);
    while (m->slots[i].used) {
        if (m->slots[i].k1 == k1 && m->slots[i].k2 == k2)
            return m->slots[i].val;
        i = (i + 1) & (m->cap - 1);
    }
    return NULL;
}

/* Store VAL for (K1, K2) (replacing); false on OOM. */
bool ld_map_put(ld_map *m, uint64_t k1, uint64_t k2, void *val)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        ld_map_slot *ns = calloc(cap, sizeof *ns);
        if (!ns)
            return false;
        for (size_t j = 0; j < m->cap; j++) {
            if (!m->slots[j].used)
                continue;
            size_t i = (size_t)mix(m->slots[j].k1, m->slots[j].k2) & (cap - 1);
            while (ns[i].used)
                i = (i + 1) & (cap - 1);
            ns[i] = m->slots[j];
        }
        free(m->slots);
        m->slots = ns;
        m->cap = cap;
    }
    size_t i = (size_t)mix(k1, k2) & (m->cap - 1);
    while (m->slots[i].used) {
        if (m->slots[i].k1 == k1 && m->slots[i].k2 == k2) {
            m->slots[i].val = val;
            return true;
        }
        i = (i + 1) & (m->cap - 1);
    }
    m->slots[i].used = true;
    m->slots[i].k1 = k1;
    m->slots[i].k2 = k2;
    m->slots[i].val = val;
    m->n++;
    return true;
}

/* Release the table (values are not owned). */
void ld_map_free(ld_map *m)
{
    free(m->slots);
    m->slots = NULL;
    m->n = m->cap = 0;
}

/* ---- cursors ---- */

/* An unsigned of SIZE (1..8) bytes in the section's byte order. */
uint64_t ld_get_u(ld_cursor *c, unsigned size)
{
    if (c->bad || (size_t)(c->end - c->p) < size) {
        c->bad = true;
        return 0;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)c->p[c->big ? size - 1 - i : i] << (8 * i);
    c->p += size;
    return v;
}

/* An unsigned LEB128 (bits past 64 are dropped). */
uint64_t ld_get_uleb(ld_cursor *c)
{
    uint64_t v = 0;
    unsigned shift = 0;
    while (!c->bad) {
        if (c->p >= c->end) {
            c->bad = true;
            break;
        }
        uint8_t b = *c->p++;
        if (shift < 64)
            v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80))
            break;
    }
    return c->bad ? 0 : v;
}

/* A signed LEB128. */
int64_t ld_get_sleb(ld_cursor *c)
{
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t b = 0;
    while (!c->bad) {
        if (c->p >= c->end) {
            c->bad = true;
            return 0;
        }
        b = *c->p++;
        if (shift < 64)
            v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80))
            break;
    }
    if (shift < 64 && (b & 0x40))
        v |= ~(uint64_t)0 << shift;
    return (int64_t)v;
}

/* ---- errors ---- */

dwexpr_status ld_fail(dwexpr_error *err, dwexpr_status s, const char *fmt, ...)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = s;
        err->offset = -1;
        err->opcode = -1;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return s;
}

/* A libdwarf failure as E_TARGET with its message; releases E. */
dwexpr_status ld_dwfail(Dwarf_Debug dbg, Dwarf_Error e, dwexpr_error *err, const char *what)
{
    ld_fail(err, DWEXPR_E_TARGET, "%s: libdwarf: %s", what, e ? dwarf_errmsg(e) : "error");
    ld_drop(dbg, e);
    return DWEXPR_E_TARGET;
}

/* Release a libdwarf error object. */
void ld_drop(Dwarf_Debug dbg, Dwarf_Error e)
{
    if (e)
        dwarf_dealloc_error(dbg, e);
}

/* See ld_int.h. */
bool ld_constant_displacement(const uint8_t *p, size_t len, uint64_t *off)
{
    if (len < 2)
        return false;
    if (p[0] >= 0x30 && p[0] <= 0x4f) { /* DW_OP_lit0..31, DW_OP_plus */
        *off = (uint64_t)(p[0] - 0x30);
        return len == 2 && p[1] == 0x22;
    }
    if (p[0] != 0x23 && p[0] != 0x10) /* DW_OP_plus_uconst, DW_OP_constu */
        return false;
    ld_cursor c = {p + 1, p + len, false, false};
    const uint64_t v = ld_get_uleb(&c);
    if (c.bad)
        return false;
    *off = v;
    return p[0] == 0x23 ? c.p == c.end : c.end - c.p == 1 && c.p[0] == 0x22;
}
