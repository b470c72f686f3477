/* examples/dwexpr/vframes.c: machine frames and tail call frames as one
 * target (vframes.h). Every callback maps the frame it is asked about to
 * the machine frame that answers it; register locations the inner target
 * gives name machine frames and are renumbered to this list's frames. */
#include <stdlib.h>
#include <string.h>

#include "vframes.h"

/* Memory of renumbered composite locations, kept until vframes_free. */
typedef struct vblock {
    struct vblock *next;
    _Alignas(16) unsigned char data[];
} vblock;

struct vframes {
    dwexpr_target t;     /* vframes_target */
    dwexpr_target inner;
    void *iuser;
    uint32_t pc_regno;
    vframe *f;
    uint32_t n, cap;
    uint32_t *logical;   /* machine frame -> index of its frame here */
    uint32_t nmachine;
    vblock *blocks;
};

vframes *vframes_new(const dwexpr_target *inner, void *inner_user, uint32_t machine_frames,
                     uint32_t pc_regno)
{
    vframes *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    size_t k = inner->size < sizeof v->inner ? inner->size : sizeof v->inner;
    memcpy(&v->inner, inner, k);
    v->iuser = inner_user;
    v->pc_regno = pc_regno;
    v->nmachine = machine_frames;
    v->logical = calloc(machine_frames ? machine_frames : 1, sizeof *v->logical);
    if (!v->logical) {
        free(v);
        return NULL;
    }
    for (uint32_t i = 0; i < machine_frames; i++)
        v->logical[i] = i;
    return v;
}

void vframes_free(vframes *v)
{
    if (!v)
        return;
    while (v->blocks) {
        vblock *b = v->blocks;
        v->blocks = b->next;
        free(b);
    }
    free(v->logical);
    free(v->f);
    free(v);
}

static vframe *push(vframes *v)
{
    if (v->n == v->cap) {
        uint32_t cap = v->cap ? 2 * v->cap : 16;
        vframe *nf = realloc(v->f, cap * sizeof *nf);
        if (!nf)
            return NULL;
        v->f = nf;
        v->cap = cap;
    }
    vframe *f = &v->f[v->n++];
    memset(f, 0, sizeof *f);
    return f;
}

int vframes_add_machine(vframes *v, uint32_t m)
{
    vframe *f = push(v);
    if (!f)
        return -1;
    f->machine = f->below = m;
    if (m < v->nmachine)
        v->logical[m] = v->n - 1;
    return (int)(v->n - 1);
}

int vframes_add_tail(vframes *v, uint32_t caller, uint32_t below, uint64_t pc)
{
    vframe *f = push(v);
    if (!f)
        return -1;
    f->machine = caller;
    f->below = below;
    f->tail = true;
    f->pc = pc;
    for (int i = 0; i < 8; i++)
        f->pc_bytes[i] = (uint8_t)(pc >> (8 * i));
    return (int)(v->n - 1);
}

uint32_t vframes_count(const vframes *v)
{
    return v->n;
}

const vframe *vframes_get(const vframes *v, uint32_t i)
{
    return i < v->n ? &v->f[i] : NULL;
}

/* ---- the target ---- */

/* Frame I of V, or NULL past the list. */
static const vframe *at(const vframes *v, uint32_t i)
{
    return i < v->n ? &v->f[i] : NULL;
}

static void *grab(vframes *v, size_t size)
{
    vblock *b = malloc(sizeof *b + size);
    if (!b)
        return NULL;
    b->next = v->blocks;
    v->blocks = b;
    return b->data;
}

/* S with machine frame numbers made this list's (a composite copied). */
static dwexpr_status renumber(vframes *v, dwexpr_sld *s, int depth)
{
    if ((s->kind == DWEXPR_LOC_REGISTER || s->kind == DWEXPR_LOC_IMPLICIT_POINTER) &&
        (s->ctx & DWEXPR_CTX_FRAME) && s->frame < v->nmachine)
        s->frame = v->logical[s->frame];
    if (s->kind != DWEXPR_LOC_COMPOSITE || !s->u.comp)
        return DWEXPR_OK;
    if (depth > 16)
        return DWEXPR_E_UNSUPPORTED;
    const dwexpr_composite *c = s->u.comp;
    dwexpr_composite *nc = grab(v, sizeof *nc + c->count * sizeof *nc->parts);
    if (!nc)
        return DWEXPR_E_NOMEM;
    *nc = *c;
    nc->parts = (dwexpr_part *)(nc + 1);
    nc->cap = c->count;
    for (uint32_t i = 0; i < c->count; i++) {
        nc->parts[i] = c->parts[i];
        const dwexpr_loc *l = &c->parts[i].loc;
        if (!l->count)
            continue;
        dwexpr_sld *ns = grab(v, l->count * sizeof *ns);
        if (!ns)
            return DWEXPR_E_NOMEM;
        for (uint32_t k = 0; k < l->count; k++) {
            ns[k] = l->slds[k];
            dwexpr_status st = renumber(v, &ns[k], depth + 1);
            if (st)
                return st;
        }
        nc->parts[i].loc.slds = ns;
    }
    s->u.comp = nc;
    return DWEXPR_OK;
}

static dwexpr_status v_reg_size(void *user, uint32_t regno, uint32_t *bytes)
{
    vframes *v = user;
    return v->inner.reg_size ? v->inner.reg_size(v->iuser, regno, bytes) : DWEXPR_E_UNSUPPORTED;
}

static dwexpr_status v_reg_read(void *user, const dwexpr_regref *r, uint64_t offset, void *buf,
                                size_t len)
{
    vframes *v = user;
    const vframe *f = at(v, r->frame);
    if (!f)
        return DWEXPR_E_NOT_FOUND;
    if (f->tail && r->regno == v->pc_regno) {
        if (offset > 8 || len > 8 - offset)
            return DWEXPR_E_OUT_OF_RANGE;
        memcpy(buf, f->pc_bytes + offset, len);
        return DWEXPR_OK;
    }
    if (!v->inner.reg_read)
        return DWEXPR_E_UNSUPPORTED;
    dwexpr_regref g = *r;
    g.frame = f->machine;
    return v->inner.reg_read(v->iuser, &g, offset, buf, len);
}

static dwexpr_status v_reg_write(void *user, const dwexpr_regref *r, uint64_t offset,
                                 const void *buf, size_t len)
{
    vframes *v = user;
    const vframe *f = at(v, r->frame);
    if (!f)
        return DWEXPR_E_NOT_FOUND;
    if ((f->tail && r->regno == v->pc_regno) || !v->inner.reg_write)
        return DWEXPR_E_UNSUPPORTED;
    dwexpr_regref g = *r;
    g.frame = f->machine;
    return v->inner.reg_write(v->iuser, &g, offset, buf, len);
}

static dwexpr_status v_mem_read(void *user, const dwexpr_memref *m, void *buf, size_t len)
{
    vframes *v = user;
    return v->inner.mem_read ? v->inner.mem_read(v->iuser, m, buf, len) : DWEXPR_E_UNSUPPORTED;
}

static dwexpr_status v_mem_write(void *user, const dwexpr_memref *m, const void *buf, size_t len)
{
    vframes *v = user;
    return v->inner.mem_write ? v->inner.mem_write(v->iuser, m, buf, len)
                              : DWEXPR_E_UNSUPPORTED;
}

static dwexpr_status v_aspace_info(void *user, uint32_t as, dwexpr_aspace_info *out)
{
    vframes *v = user;
    if (v->inner.aspace_info)
        return v->inner.aspace_info(v->iuser, as, out);
    return DWEXPR_E_UNSUPPORTED;
}

/* F as the machine frame (of field MACHINE or BELOW) that answers it. */
static bool machine_ref(const vframes *v, const dwexpr_frameref *f, bool below,
                        dwexpr_frameref *g)
{
    const vframe *x = at(v, f->frame);
    if (!x)
        return false;
    *g = *f;
    g->frame = below ? x->below : x->machine;
    return true;
}

static dwexpr_status v_tls(void *user, const dwexpr_frameref *f, uint64_t ta, dwexpr_sld *out)
{
    vframes *v = user;
    dwexpr_frameref g;
    if (!machine_ref(v, f, false, &g))
        return DWEXPR_E_NOT_FOUND;
    return v->inner.tls_address ? v->inner.tls_address(v->iuser, &g, ta, out)
                                : DWEXPR_E_UNSUPPORTED;
}

static dwexpr_status v_cfa(void *user, const dwexpr_frameref *f, dwexpr_sld *out)
{
    vframes *v = user;
    dwexpr_frameref g;
    if (!machine_ref(v, f, true, &g))
        return DWEXPR_E_NOT_FOUND;
    return v->inner.cfa ? v->inner.cfa(v->iuser, &g, out) : DWEXPR_E_UNSUPPORTED;
}

static dwexpr_status v_register_location(void *user, const dwexpr_frameref *f, uint32_t regno,
                                         dwexpr_sld *out)
{
    vframes *v = user;
    const vframe *x = at(v, f->frame);
    if (!x)
        return DWEXPR_E_NOT_FOUND;
    if (x->tail && regno == v->pc_regno) {
        /* the pc GDB pretends: the return pc of the tail call site */
        memset(out, 0, sizeof *out);
        out->kind = DWEXPR_LOC_IMPLICIT;
        out->u.imp.data = x->pc_bytes;
        out->u.imp.bits = 64;
        return DWEXPR_OK;
    }
    if (!v->inner.register_location)
        return DWEXPR_E_UNSUPPORTED;
    dwexpr_frameref g = *f;
    g.frame = x->machine;
    dwexpr_status st = v->inner.register_location(v->iuser, &g, regno, out);
    return st ? st : renumber(v, out, 0);
}

static dwexpr_status v_entry_value(void *user, const dwexpr_frameref *f, const uint8_t *block,
                                   size_t len, dwexpr_value *out)
{
    vframes *v = user;
    const vframe *x = at(v, f->frame);
    if (!x || x->tail || !v->inner.entry_value)
        return DWEXPR_E_NOT_FOUND;
    dwexpr_frameref g = *f;
    g.frame = x->machine;
    return v->inner.entry_value(v->iuser, &g, block, len, out);
}

static dwexpr_status v_base_type(void *user, const dwexpr_unit *unit, uint64_t die,
                                 dwexpr_type *out)
{
    vframes *v = user;
    return v->inner.base_type ? v->inner.base_type(v->iuser, unit, die, out)
                              : DWEXPR_E_UNSUPPORTED;
}

static dwexpr_status v_die(void *user, const dwexpr_unit *unit, uint64_t off, bool sr,
                           dwexpr_die *out)
{
    vframes *v = user;
    return v->inner.die ? v->inner.die(v->iuser, unit, off, sr, out) : DWEXPR_E_UNSUPPORTED;
}

static dwexpr_status v_debug_addr(void *user, const dwexpr_unit *unit, uint64_t index,
                                  uint64_t *out)
{
    vframes *v = user;
    return v->inner.debug_addr ? v->inner.debug_addr(v->iuser, unit, index, out)
                               : DWEXPR_E_UNSUPPORTED;
}

static dwexpr_status v_frame_base(void *user, const dwexpr_frameref *f, dwexpr_frame_base *out)
{
    vframes *v = user;
    const vframe *x = at(v, f->frame);
    if (!x || x->tail || !v->inner.frame_base)
        return DWEXPR_E_UNSUPPORTED;
    dwexpr_frameref g = *f;
    g.frame = x->machine;
    return v->inner.frame_base(v->iuser, &g, out);
}

static dwexpr_status v_frame_pc(void *user, const dwexpr_frameref *f, uint64_t *pc)
{
    vframes *v = user;
    const vframe *x = at(v, f->frame);
    if (!x)
        return DWEXPR_E_NOT_FOUND;
    if (x->tail) {
        *pc = x->pc;
        return DWEXPR_OK;
    }
    if (!v->inner.frame_pc)
        return DWEXPR_E_UNSUPPORTED;
    dwexpr_frameref g = *f;
    g.frame = x->machine;
    return v->inner.frame_pc(v->iuser, &g, pc);
}

static dwexpr_status v_parameter_ref(void *user, const dwexpr_frameref *f,
                                     const dwexpr_unit *unit, uint64_t die, dwexpr_value *out)
{
    vframes *v = user;
    const vframe *x = at(v, f->frame);
    if (!x || x->tail || !v->inner.parameter_ref)
        return DWEXPR_E_NOT_FOUND;
    dwexpr_frameref g = *f;
    g.frame = x->machine;
    return v->inner.parameter_ref(v->iuser, &g, unit, die, out);
}

const dwexpr_target *vframes_target(vframes *v)
{
    /* what the inner target lacks stays missing (callers test for it),
     * except what tail call frames answer themselves */
    dwexpr_target *t = &v->t;
    const dwexpr_target *in = &v->inner;
    memset(t, 0, sizeof *t);
    t->size = sizeof *t;
#define W(name, fn) t->name = in->name ? fn : NULL
    W(reg_size, v_reg_size);
    t->reg_read = v_reg_read;
    W(reg_write, v_reg_write);
    W(mem_read, v_mem_read);
    W(mem_write, v_mem_write);
    W(aspace_info, v_aspace_info);
    W(tls_address, v_tls);
    W(cfa, v_cfa);
    t->register_location = v_register_location;
    W(entry_value, v_entry_value);
    W(base_type, v_base_type);
    W(die, v_die);
    W(debug_addr, v_debug_addr);
    W(frame_base, v_frame_base);
    t->frame_pc = v_frame_pc;
    W(parameter_ref, v_parameter_ref);
#undef W
    return t;
}
