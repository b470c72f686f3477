/* fuzz/fuzz_eval.c: libFuzzer harness for dwexpr_eval / dwexpr_eval_bytes,
 * their bound forms (dwexpr_ctx_bind, dwexpr_eval_bound, dwexpr_eval_bound_ref,
 * dwexpr_eval_bytes_bound) and dwexpr_eval_lanes, compared with each
 * other, and for reading and writing through result locations, against a
 * deterministic mock target chosen by the input (fuzz/README.md). */

/* The mock target: registers and memory are hashes of (seed, place), with
 * a copy-on-write overlay for writes. The input chooses the unit, the
 * evaluation context, the limits, the initial stack, the object, the DIE
 * table (exprloc / loclist / const_value callees) and the expression.
 *
 * Input layout (missing bytes read as 0; an all-zero header is a rich,
 * generic64 context with every callback present):
 *   h0  unit byte (fz_unit); bit 7: AMDGPU-shaped target
 *   h1  0-1 result kind (none/value/location/none), 2-3 lane mode (none,
 *       64 lanes, 32 lanes, lane without lane count), 4 pc given, 5-6 frame
 *       (3 = no frame element), 7 thread given; h1 = 0x60 with h6 bits 0-5
 *       clear: all-zero evaluation params
 *   h2  limits: 0-1 steps, 2-3 stack, 4-5 calls, 6-7 composite parts
 *   h3 h4  callbacks left out (bit i = callback i absent, see CB_*); bit 14
 *       (CB_SIZES_VARY) clear: the target promises fixed register sizes
 *       (DWEXPR_TARGET_REG_SIZES_FIXED: true within one input, whose
 *       context is its own), so later evaluations use remembered sizes
 *   h5  hash seed
 *   h6  0-2 initial stack entries, 3-5 object kind, 6-7 read size
 *   h7  lane number (bit 7: may be outside the lane count)
 *   h8  0-3 debug_addr entries, 4-5 frame base kind, 6-7 implicit limit
 *   h9  0-1 static context size, 2-4 pc page, 5-7 interrupt test
 *   2 bytes per initial stack entry, 2 bytes for the object
 *   L   expression length (0 = the rest of the input), then L bytes
 *   records, each [tag][len][len bytes]: the DIE table (tag 0-1 kind
 *   exprloc/loclist/const_value/none, 2-3 byte size, 4 loclist default
 *   entry, 6 other address size) */
#include "fuzz_common.h"
#include "evalint.h"   /* ctx->steps and ctx->lim: the step-limit invariant */

enum {
    CB_REG_SIZE, CB_REGS, CB_MEM, CB_ASPACE, CB_TLS, CB_CFA, CB_REGLOC, CB_ENTRY,
    CB_BASE_TYPE, CB_DIE, CB_DEBUG_ADDR, CB_FRAME_BASE, CB_FRAME_PC, CB_PARAM_REF,
    CB_SIZES_VARY /* not a callback: DWEXPR_TARGET_REG_SIZES_FIXED left out */
};

enum { HDR = 10, MAX_RECS = 16, MAX_ENTS = 4, OVL_CAP = 8192, MAX_READ_BYTES = 512 };

/* One written byte of target state (copy-on-write overlay slot). */
typedef struct ovl {
    uint8_t used, kind, val;
    uint32_t space, lane, frame;
    uint64_t thread, addr;
} ovl;

/* One DIE of the table. */
typedef struct rec {
    uint8_t tag;
    const uint8_t *p;
    size_t n;
    dwexpr_loclist_entry ents[MAX_ENTS];
    size_t nents;
} rec;

/* The mock target. */
typedef struct mock {
    uint64_t seed;
    dwexpr_unit unit;
    bool amdgpu;
    uint32_t lanes;
    uint16_t absent;
    unsigned ndebug_addr, fb_mode;
    bool has_pc;
    uint64_t pc;
    uint32_t cur_frame;
    rec recs[MAX_RECS];
    size_t nrecs;
    bool in_eval;          /* evaluation must never write */
    size_t nov;
    ovl ov[OVL_CAP];
    uint8_t imp[256];      /* implicit value bytes, wide values */
} mock;

/* splitmix64 finalizer. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Hash of the seed and three numbers. */
static uint64_t h3(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
    return mix(mix(mix(seed ^ a) ^ b) ^ c);
}

/* ---- state: base bytes and the overlay ---- */

/* The byte a place holds before any write. */
static uint8_t base_byte(const mock *m, const ovl *k)
{
    uint64_t h = h3(m->seed, ((uint64_t)k->kind << 32) | k->space,
                    ((uint64_t)k->lane << 32) | k->frame, k->thread * 0x100000001b3ull ^ k->addr);
    return (uint8_t)h;
}

/* Overlay slot of place K: found, or the empty slot to put it in; NULL
 * when the overlay is full. */
static ovl *ovl_find(mock *m, const ovl *k)
{
    uint64_t h = h3(k->kind, k->space, ((uint64_t)k->lane << 32) | k->frame, k->thread ^ k->addr);
    for (size_t i = 0; i < OVL_CAP; i++) {
        ovl *o = &m->ov[(h + i) % OVL_CAP];
        if (!o->used)
            return m->nov + 1 < OVL_CAP ? o : NULL;
        if (o->kind == k->kind && o->space == k->space && o->lane == k->lane &&
            o->frame == k->frame && o->thread == k->thread && o->addr == k->addr)
            return o;
    }
    return NULL;
}

/* Current byte of place K. */
static uint8_t get_byte(mock *m, const ovl *k)
{
    ovl *o = ovl_find(m, k);
    return o && o->used ? o->val : base_byte(m, k);
}

/* Forget every write. */
static void ovl_clear(mock *m)
{
    if (m->nov)
        memset(m->ov, 0, sizeof m->ov);
    m->nov = 0;
}

/* True when every written byte holds its original value again. */
static bool state_unchanged(const mock *m, size_t *bad)
{
    for (size_t i = 0; i < OVL_CAP; i++)
        if (m->ov[i].used && m->ov[i].val != base_byte(m, &m->ov[i])) {
            *bad = i;
            return false;
        }
    return true;
}

/* Move LEN bytes between BUF and the places K, K+1, ... (all or nothing). */
static dwexpr_status xfer(mock *m, ovl k, uint8_t *buf, size_t len, bool write)
{
    FZ_CHECK(!(write && m->in_eval), "the evaluator wrote to the target");
    if (!write) {
        for (size_t i = 0; i < len; i++, k.addr++)
            buf[i] = get_byte(m, &k);
        return DWEXPR_OK;
    }
    ovl *slots[MAX_READ_BYTES + 64];
    if (len > sizeof slots / sizeof slots[0])
        return DWEXPR_E_TARGET;
    for (size_t i = 0; i < len; i++, k.addr++) {
        ovl *o = ovl_find(m, &k);
        if (!o)
            return DWEXPR_E_TARGET;   /* overlay full: nothing written yet */
        if (!o->used) {
            *o = k;
            o->used = 1;
            m->nov++;
        }
        slots[i] = o;
    }
    for (size_t i = 0; i < len; i++)
        slots[i]->val = buf[i];
    return DWEXPR_OK;
}

/* ---- registers and memory ---- */

/* Size of register REGNO, or 0 if there is none. */
static uint32_t reg_bytes(const mock *m, uint32_t regno)
{
    static const uint8_t sizes[8] = {1, 2, 4, 8, 8, 16, 32, 10};
    if (m->amdgpu && regno >= 2560 && regno < 2816)
        return 4u * (m->lanes ? m->lanes : 64);
    if (m->amdgpu && regno >= 1536 && regno < 2048)
        return 4u * 32;
    if (regno < 17)
        return m->unit.addr_size;
    uint64_t h = h3(m->seed, 0x5e, regno, 0);
    if (h % 23 == 0)
        return 0;
    return sizes[(h >> 8) & 7];
}

/* Callback: register size. */
static dwexpr_status cb_reg_size(void *user, uint32_t regno, uint32_t *bytes)
{
    uint32_t n = reg_bytes(user, regno);
    if (!n)
        return DWEXPR_E_NOT_FOUND;
    *bytes = n;
    return DWEXPR_OK;
}

/* Register access: bounds, unreadable registers, then the bytes. */
static dwexpr_status reg_xfer(mock *m, const dwexpr_regref *r, uint64_t offset, void *buf,
                              size_t len, bool write)
{
    uint32_t n = reg_bytes(m, r->regno);
    if (!n)
        return DWEXPR_E_NOT_FOUND;
    if (offset > n || len > n - offset)
        return DWEXPR_E_TARGET;
    if (h3(m->seed, 0x7a, r->regno, 0) % 29 == 0)
        return DWEXPR_E_TARGET;
    ovl k;
    memset(&k, 0, sizeof k);
    k.kind = 2;
    k.space = r->regno;
    k.frame = (r->ctx & DWEXPR_CTX_FRAME) ? r->frame : 0;
    k.thread = (r->ctx & DWEXPR_CTX_THREAD) ? r->thread : 0;
    k.lane = UINT32_MAX;
    k.addr = offset;
    return xfer(m, k, buf, len, write);
}

/* Callback: read register bytes. */
static dwexpr_status cb_reg_read(void *user, const dwexpr_regref *r, uint64_t offset, void *buf,
                                 size_t len)
{
    return reg_xfer(user, r, offset, buf, len, false);
}

/* Callback: write register bytes (into the overlay). */
static dwexpr_status cb_reg_write(void *user, const dwexpr_regref *r, uint64_t offset,
                                  const void *buf, size_t len)
{
    return reg_xfer(user, r, offset, (void *)(uintptr_t)buf, len, true);
}

/* Address space facts: AMDGPU's (the library's table), or hashed ones
 * for spaces 1..3. */
static bool aspace_of(const mock *m, uint32_t as, dwexpr_aspace_info *out)
{
    memset(out, 0, sizeof *out);
    if (as == 0) {
        out->addr_bits = (uint8_t)(m->amdgpu ? 64 : 8 * m->unit.addr_size);
        return true;
    }
    if (m->amdgpu)
        return dwexpr_amdgpu_aspace_info(as, out) == DWEXPR_OK;
    if (as > 3)
        return false;
    static const uint8_t bits[4] = {16, 32, 64, 32};
    uint64_t h = h3(m->seed, 0xa5, as, 0);
    out->addr_bits = bits[h & 3];
    out->per_thread = (h >> 2) & 1;
    out->per_lane = (h >> 3) & 1;
    return true;
}

/* Callback: address space facts. */
static dwexpr_status cb_aspace_info(void *user, uint32_t as, dwexpr_aspace_info *out)
{
    return aspace_of(user, as, out) ? DWEXPR_OK : DWEXPR_E_NOT_FOUND;
}

/* Memory access; pages whose hash ends in 5 zero bits are unmapped. */
static dwexpr_status mem_xfer(mock *m, const dwexpr_memref *r, void *buf, size_t len,
                              bool write)
{
    dwexpr_aspace_info ai;
    if (!aspace_of(m, r->aspace, &ai))
        return DWEXPR_E_NOT_FOUND;
    if (len && r->address > UINT64_MAX - (len - 1))
        return DWEXPR_E_TARGET;
    uint64_t last = (r->address + (len ? len - 1 : 0)) >> 8;
    for (uint64_t pg = r->address >> 8; pg <= last; pg++) {
        if ((h3(m->seed, 0x33, r->aspace, pg) & 31) == 0)
            return DWEXPR_E_TARGET;
        if (pg == UINT64_MAX)
            break;
    }
    ovl k;
    memset(&k, 0, sizeof k);
    k.kind = 1;
    k.space = r->aspace;
    k.lane = (r->ctx & DWEXPR_CTX_LANE) ? r->lane : UINT32_MAX;
    k.thread = (r->ctx & DWEXPR_CTX_THREAD) ? r->thread : 0;
    k.addr = r->address;
    return xfer(m, k, buf, len, write);
}

/* Callback: read memory. */
static dwexpr_status cb_mem_read(void *user, const dwexpr_memref *r, void *buf, size_t len)
{
    return mem_xfer(user, r, buf, len, false);
}

/* Callback: write memory (into the overlay). */
static dwexpr_status cb_mem_write(void *user, const dwexpr_memref *r, const void *buf, size_t len)
{
    return mem_xfer(user, r, (void *)(uintptr_t)buf, len, true);
}

/* ---- frames ---- */

/* A memory SLD in space AS at ADDR, with the lane/thread the space needs. */
static void memory_sld(const mock *m, const dwexpr_frameref *f, uint32_t as, uint64_t addr,
                       dwexpr_sld *out)
{
    dwexpr_aspace_info ai;
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_MEMORY;
    out->aspace = as;
    out->byte_offset = addr;
    if (!aspace_of(m, as, &ai) || !f)
        return;
    if (ai.per_lane && (f->ctx & DWEXPR_CTX_LANE)) {
        out->ctx |= DWEXPR_CTX_LANE;
        out->lane = f->lane;
    }
    if ((ai.per_thread || ai.per_lane) && (f->ctx & DWEXPR_CTX_THREAD)) {
        out->ctx |= DWEXPR_CTX_THREAD;
        out->thread = f->thread;
    }
}

/* A register SLD for REGNO of FRAME. */
static void register_sld(const dwexpr_frameref *f, uint32_t frame, uint32_t regno,
                         dwexpr_sld *out)
{
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_REGISTER;
    out->u.regno = regno;
    out->frame = frame;
    out->ctx = DWEXPR_CTX_FRAME;
    if (f && (f->ctx & DWEXPR_CTX_THREAD)) {
        out->ctx |= DWEXPR_CTX_THREAD;
        out->thread = f->thread;
    }
}

/* Callback: DW_OP_form_tls_address (some offsets have no answer). */
static dwexpr_status cb_tls_address(void *user, const dwexpr_frameref *f, uint64_t ta,
                                    dwexpr_sld *out)
{
    mock *m = user;
    if (((ta ^ m->seed) & 15) == 15)
        return DWEXPR_E_NOT_FOUND;
    memory_sld(m, NULL, 0, 0x7f0000001000ull + (m->seed & 0xff0) + ta, out);
    return DWEXPR_OK;
}

/* Callback: the CFA of frames 0..3, a memory location. */
static dwexpr_status cb_cfa(void *user, const dwexpr_frameref *f, dwexpr_sld *out)
{
    mock *m = user;
    if (f->frame > 3)
        return DWEXPR_E_NOT_FOUND;
    memory_sld(m, f, 0, 0x7ffe0000u + 0x100u * f->frame + (m->seed & 0xf0), out);
    return DWEXPR_OK;
}

/* Where register REGNO of caller frame f->frame lives (hashed choice). */
static dwexpr_status cb_register_location(void *user, const dwexpr_frameref *f, uint32_t regno,
                                          dwexpr_sld *out)
{
    mock *m = user;
    if (f->frame == 0) {
        register_sld(f, 0, regno, out);
        return DWEXPR_OK;
    }
    uint64_t h = h3(m->seed, 0x11, f->frame, regno);
    switch (h % 8) {
    case 0: case 1: case 2:
        register_sld(f, f->frame - 1, regno, out);
        break;
    case 3:
        register_sld(f, f->frame - 1, (uint32_t)((h >> 8) % 32), out);
        break;
    case 4:
        memory_sld(m, f, 0, 0x7ffe0000u + 0x100u * f->frame + ((h >> 8) & 0xf8), out);
        break;
    case 5:
        memset(out, 0, sizeof *out);
        out->kind = DWEXPR_LOC_IMPLICIT;
        out->u.imp.data = m->imp;
        out->u.imp.bits = 8u * (1u + ((h >> 16) % 16));
        break;
    case 6:
        memset(out, 0, sizeof *out);
        out->kind = DWEXPR_LOC_UNDEFINED;
        break;
    default:
        return DWEXPR_E_NOT_FOUND;
    }
    return DWEXPR_OK;
}

/* A generic value of unit U holding the low bits of V. */
static dwexpr_value generic_value(const dwexpr_unit *u, uint64_t v)
{
    dwexpr_value r;
    memset(&r, 0, sizeof r);
    r.type.bits = 8u * u->addr_size;
    r.type.lanes = 1;
    r.type.encoding = DWEXPR_ATE_GENERIC;
    r.bits = u->addr_size >= 8 ? v : v & ((1ull << (8 * u->addr_size)) - 1);
    return r;
}

/* Callback: entry value shortcut for a quarter of the blocks. */
static dwexpr_status cb_entry_value(void *user, const dwexpr_frameref *f, const uint8_t *block,
                                    size_t len, dwexpr_value *out)
{
    mock *m = user;
    uint64_t h = m->seed;
    for (size_t i = 0; i < len; i++)
        h = mix(h ^ block[i]);
    if (h & 3)
        return DWEXPR_E_NOT_FOUND;   /* let dwexpr evaluate the block */
    *out = generic_value(&m->unit, h >> 8);
    return DWEXPR_OK;
}

/* The base type at DIE (most offsets hold one). */
static bool mock_type(const mock *m, uint64_t die, dwexpr_type *t)
{
    static const uint16_t bits[8] = {8, 16, 32, 64, 64, 128, 1, 24};
    static const uint16_t enc[8] = {DW_ATE_signed, DW_ATE_unsigned, DW_ATE_boolean, DW_ATE_float,
                                    DW_ATE_address, DW_ATE_signed_char, DW_ATE_UTF,
                                    DW_ATE_lo_user};
    static const uint16_t lanes[4] = {1, 1, 2, 4};
    static const uint8_t endian[4] = {DW_END_default, DW_END_default, DW_END_big, DW_END_little};
    uint64_t h = h3(m->seed, 0xb7, die, 0);
    if (die == 0 || (h & 7) == 7)
        return false;
    memset(t, 0, sizeof *t);
    t->die = die;
    t->bits = bits[(h >> 3) & 7];
    t->encoding = enc[(h >> 6) & 7];
    if (((h >> 13) & 7) == 0)
        t->encoding = DW_ATE_decimal_float; /* lib/decimal.c: 32, 64, 128 bits */
    t->lanes = lanes[(h >> 9) & 3];
    t->endian = endian[(h >> 11) & 3];
    return true;
}

/* Callback: the base type at DIE. */
static dwexpr_status cb_base_type(void *user, const dwexpr_unit *unit, uint64_t die,
                                  dwexpr_type *out)
{
    return mock_type(user, die, out) ? DWEXPR_OK : DWEXPR_E_NOT_FOUND;
}

/* A DIE: offset modulo (records + 1) picks a record or nothing. */
static dwexpr_status cb_die(void *user, const dwexpr_unit *unit, uint64_t offset,
                            bool section_relative, dwexpr_die *out)
{
    mock *m = user;
    if (!m->nrecs || offset % (m->nrecs + 1) == m->nrecs)
        return DWEXPR_E_NOT_FOUND;
    const rec *r = &m->recs[offset % (m->nrecs + 1)];
    memset(out, 0, sizeof *out);
    out->unit = m->unit;
    if (r->tag & 0x40) {
        out->unit.addr_size = m->unit.addr_size == 8 ? 4 : 8;
        out->unit.id = 2;
    }
    static const uint8_t bsz[4] = {0, 0, 4, 8};
    out->byte_size = (r->tag >> 2) & 3 ? bsz[(r->tag >> 2) & 3] : r->n;
    switch (r->tag & 3) {
    case 0:
        out->kind = DWEXPR_DIE_EXPRLOC;
        out->expr = r->p;
        out->expr_len = r->n;
        break;
    case 1:
        out->kind = DWEXPR_DIE_LOCLIST;
        out->entries = r->ents;
        out->count = r->nents;
        break;
    case 2:
        out->kind = DWEXPR_DIE_CONST_VALUE;
        out->expr = r->p;
        out->expr_len = r->n;
        break;
    default:
        out->kind = DWEXPR_DIE_NONE;
        break;
    }
    return DWEXPR_OK;
}

/* Callback: .debug_addr entries below the input's count. */
static dwexpr_status cb_debug_addr(void *user, const dwexpr_unit *unit, uint64_t index,
                                   uint64_t *out)
{
    mock *m = user;
    if (index >= m->ndebug_addr)
        return DWEXPR_E_NOT_FOUND;
    *out = h3(m->seed, 0xda, index, 0) & 0xffffffffffull;
    return DWEXPR_OK;
}

/* Callback: the frame base as the input chose it. */
static dwexpr_status cb_frame_base(void *user, const dwexpr_frameref *f, dwexpr_frame_base *out)
{
    mock *m = user;
    memset(out, 0, sizeof *out);
    out->unit = m->unit;
    switch (m->fb_mode) {
    case 0:
        if (!m->nrecs)
            return DWEXPR_E_NOT_FOUND;
        out->expr = m->recs[f->frame % m->nrecs].p;
        out->expr_len = m->recs[f->frame % m->nrecs].n;
        if (!out->expr) {
            static const uint8_t reg6 = 0x56;
            out->expr = &reg6;
            out->expr_len = 1;
        }
        return DWEXPR_OK;
    case 1:
        memory_sld(m, f, 0, 0x7ffe0080u + 0x100u * f->frame, &out->loc);
        return DWEXPR_OK;
    case 2:
        register_sld(f, f->frame, 6, &out->loc);
        return DWEXPR_OK;
    default:
        return DWEXPR_E_NOT_FOUND;
    }
}

/* Callback: the pc of frame F. */
static dwexpr_status cb_frame_pc(void *user, const dwexpr_frameref *f, uint64_t *pc)
{
    mock *m = user;
    if (m->has_pc && f->frame == m->cur_frame)
        *pc = m->pc;
    else
        *pc = 0x1000u * (f->frame + 1) + (m->seed & 0xfff);
    return DWEXPR_OK;
}

/* Callback: DW_OP_GNU_parameter_ref, half of the DIEs answer. */
static dwexpr_status cb_parameter_ref(void *user, const dwexpr_frameref *f,
                                      const dwexpr_unit *unit, uint64_t die, dwexpr_value *out)
{
    mock *m = user;
    uint64_t h = h3(m->seed, 0x9a, die, f->frame);
    if (h & 1)
        return DWEXPR_E_NOT_FOUND;
    *out = generic_value(unit, h >> 1);
    return DWEXPR_OK;
}

/* The callbacks the input did not leave out. */
static dwexpr_target make_target(const mock *m)
{
    dwexpr_target t;
    memset(&t, 0, sizeof t);
    t.size = sizeof t;
#define ON(bit) (!(m->absent & (1u << (bit))))
    if (ON(CB_REG_SIZE)) t.reg_size = cb_reg_size;
    if (ON(CB_REGS)) { t.reg_read = cb_reg_read; t.reg_write = cb_reg_write; }
    if (ON(CB_MEM)) { t.mem_read = cb_mem_read; t.mem_write = cb_mem_write; }
    if (ON(CB_ASPACE)) t.aspace_info = cb_aspace_info;
    if (ON(CB_TLS)) t.tls_address = cb_tls_address;
    if (ON(CB_CFA)) t.cfa = cb_cfa;
    if (ON(CB_REGLOC)) t.register_location = cb_register_location;
    if (ON(CB_ENTRY)) t.entry_value = cb_entry_value;
    if (ON(CB_BASE_TYPE)) t.base_type = cb_base_type;
    if (ON(CB_DIE)) t.die = cb_die;
    if (ON(CB_DEBUG_ADDR)) t.debug_addr = cb_debug_addr;
    if (ON(CB_FRAME_BASE)) t.frame_base = cb_frame_base;
    if (ON(CB_FRAME_PC)) t.frame_pc = cb_frame_pc;
    if (ON(CB_PARAM_REF)) t.parameter_ref = cb_parameter_ref;
    if (ON(CB_SIZES_VARY)) t.flags = DWEXPR_TARGET_REG_SIZES_FIXED;
#undef ON
    return t;
}

/* ---- input ---- */

typedef struct rd {
    const uint8_t *p;
    size_t n;
} rd;

/* Next byte, 0 past the end. */
static uint8_t rd_u8(rd *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}

/* Up to WANT bytes (the rest when fewer remain). */
static const uint8_t *rd_take(rd *r, size_t want, size_t *got)
{
    const uint8_t *p = r->p;
    *got = want < r->n ? want : r->n;
    r->p += *got;
    r->n -= *got;
    return p;
}

/* One single location description of KIND (0..5: memory, register,
 * implicit, undefined, memory in another space, implicit pointer); K
 * varies bit offsets, P addresses and sizes. */
static void make_sld(const mock *m, const dwexpr_eval_params *pp, unsigned kind, uint8_t k,
                     uint8_t p, dwexpr_sld *s)
{
    dwexpr_frameref f;
    memset(&f, 0, sizeof f);
    f.ctx = pp->ctx;
    f.thread = pp->thread;
    f.lane = pp->lane;
    f.frame = pp->frame;
    switch (kind % 6) {
    case 0:
        memory_sld(m, &f, 0, 0x1000u + 8u * p, s);
        break;
    case 1:
        register_sld(&f, pp->frame, p % 40, s);
        break;
    case 2:
        memset(s, 0, sizeof *s);
        s->kind = DWEXPR_LOC_IMPLICIT;
        s->u.imp.data = m->imp;
        s->u.imp.bits = 1u + p;
        s->bit = (uint8_t)((k >> 3) & 7) % (uint8_t)(1u + p < 8 ? 1u + p : 8);
        break;
    case 3:
        memset(s, 0, sizeof *s);
        s->kind = DWEXPR_LOC_UNDEFINED;
        break;
    case 4:
        memory_sld(m, &f, m->amdgpu ? 5 : 1 + p % 3, 0x40u + p, s);
        break;
    default:
        memset(s, 0, sizeof *s);
        s->kind = DWEXPR_LOC_IMPLICIT_POINTER;
        s->u.ptr.die = p;
        s->u.ptr.disp = (int8_t)k;
        s->u.ptr.bits = 8u * m->unit.addr_size;
        break;
    }
    if (s->kind == DWEXPR_LOC_MEMORY || s->kind == DWEXPR_LOC_REGISTER)
        s->bit = (uint8_t)((k >> 5) & 7);
}

/* ---- comparing results ---- */

typedef struct blob {
    uint8_t *b;
    size_t n, cap;
    size_t budget;         /* nodes left: shared composites can be a DAG */
} blob;

/* Append N bytes to O. */
static void put(blob *o, const void *p, size_t n)
{
    if (o->n + n > o->cap) {
        size_t cap = o->cap ? o->cap : 256;
        while (cap < o->n + n)
            cap *= 2;
        uint8_t *nb = realloc(o->b, cap);
        FZ_CHECK(nb != NULL, "out of memory");
        o->b = nb;
        o->cap = cap;
    }
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

/* Append a 64-bit number to O. */
static void put64(blob *o, uint64_t v)
{
    put(o, &v, sizeof v);
}

static void put_loc(blob *o, const dwexpr_loc *l);

/* Serialize one SLD with everything it denotes. */
static void put_sld(blob *o, const dwexpr_sld *s)
{
    if (!o->budget) {
        put64(o, 0xdeadull);
        return;
    }
    o->budget--;
    put64(o, ((uint64_t)s->kind << 24) | ((uint64_t)s->bit << 16) | s->ctx);
    put64(o, s->aspace);
    put64(o, s->byte_offset);
    put64(o, (s->ctx & DWEXPR_CTX_THREAD) ? s->thread : 0);
    put64(o, (s->ctx & DWEXPR_CTX_LANE) ? s->lane : 0);
    put64(o, (s->ctx & DWEXPR_CTX_FRAME) ? s->frame : 0);
    switch (s->kind) {
    case DWEXPR_LOC_REGISTER:
        put64(o, s->u.regno);
        break;
    case DWEXPR_LOC_IMPLICIT:
        put64(o, s->u.imp.bits);
        FZ_CHECK(s->u.imp.bits == 0 || s->u.imp.data != NULL, "implicit storage without bytes");
        if (s->u.imp.bits)
            put(o, s->u.imp.data, (size_t)((s->u.imp.bits + 7) / 8));
        break;
    case DWEXPR_LOC_IMPLICIT_POINTER:
        put64(o, s->u.ptr.die);
        put64(o, (uint64_t)s->u.ptr.disp);
        put64(o, s->u.ptr.bits);
        break;
    case DWEXPR_LOC_COMPOSITE: {
        const dwexpr_composite *c = s->u.comp;
        FZ_CHECK(c != NULL, "composite without storage");
        put64(o, c->count);
        put64(o, c->complete);
        put64(o, c->depth);
        put64(o, c->bits);
        uint64_t sum = 0;
        for (uint32_t i = 0; i < c->count; i++) {
            put64(o, c->parts[i].bit_size);
            sum += c->parts[i].bit_size;
            put_loc(o, &c->parts[i].loc);
        }
        FZ_CHECK(sum == c->bits, "composite parts sum to %llu bits, not %llu",
                 (unsigned long long)sum, (unsigned long long)c->bits);
        break;
    }
    default:
        break;
    }
}

/* Serialize a location description (all its places). */
static void put_loc(blob *o, const dwexpr_loc *l)
{
    put64(o, l->count);
    for (uint32_t i = 0; i < l->count; i++)
        put_sld(o, &l->slds[i]);
}

/* Serialize the outcome of an evaluation (result or error details). */
static void put_outcome_n(blob *o, dwexpr_status st, const dwexpr_ctx *ctx,
                          const dwexpr_result *r, size_t budget)
{
    o->n = 0;
    o->budget = budget;
    put64(o, st);
    if (st != DWEXPR_OK) {
        const dwexpr_error *e = dwexpr_ctx_error(ctx);
        put64(o, e->status);
        put64(o, (uint64_t)e->offset);
        put64(o, (uint64_t)e->opcode);
        if (e->op_name)
            put(o, e->op_name, strlen(e->op_name));
        put(o, e->message, strnlen(e->message, sizeof e->message));
        return;
    }
    put64(o, r->kind);
    if (r->kind == DWEXPR_RESULT_VALUE) {
        const dwexpr_value *v = &r->value;
        put64(o, v->type.die);
        put64(o, ((uint64_t)v->type.bits << 32) | ((uint64_t)v->type.encoding << 16) |
                     v->type.lanes);
        put64(o, v->type.endian);
        put64(o, v->is_implicit_pointer);
        if (v->is_implicit_pointer) {
            put64(o, v->ipv_aspace);
            put64(o, v->ipv_die);
            put64(o, (uint64_t)v->ipv_disp);
        } else {
            put64(o, v->bits);
            uint64_t total = (uint64_t)v->type.bits * (v->type.lanes ? v->type.lanes : 1);
            if (total > 64) {
                FZ_CHECK(v->wide != NULL, "%llu-bit value without wide bytes",
                         (unsigned long long)total);
                put(o, v->wide, (size_t)((total + 7) / 8));
            }
        }
    } else {
        FZ_CHECK(r->kind == DWEXPR_RESULT_LOCATION, "result kind %d", (int)r->kind);
        put_loc(o, &r->loc);
    }
}

/* put_outcome_n with room for 2^16 places. */
static void put_outcome(blob *o, dwexpr_status st, const dwexpr_ctx *ctx, const dwexpr_result *r)
{
    put_outcome_n(o, st, ctx, r, 1u << 16);
}

/* True if the location (recursively) has a single place everywhere. */
static bool single_place(const dwexpr_loc *l, unsigned *budget)
{
    if (l->count != 1 || !*budget)
        return false;
    --*budget;
    const dwexpr_sld *s = &l->slds[0];
    if (s->kind != DWEXPR_LOC_COMPOSITE)
        return true;
    for (uint32_t i = 0; i < s->u.comp->count; i++)
        if (!single_place(&s->u.comp->parts[i].loc, budget))
            return false;
    return true;
}

/* Failure classes valid API use may produce. */
static bool eval_class_ok(dwexpr_status s)
{
    switch (dwexpr_status_class(s)) {
    case DWEXPR_CLASS_NONE:
    case DWEXPR_CLASS_DECODE:
    case DWEXPR_CLASS_ILL_FORMED:
    case DWEXPR_CLASS_EVALUATION:
    case DWEXPR_CLASS_CONTEXT:
    case DWEXPR_CLASS_LIMIT:
    case DWEXPR_CLASS_TARGET:
        return true;
    default:
        return false;
    }
}

/* Check what an evaluation on CTX returned (ST): the class, the step
 * bound and the error record. Returns ST. */
static dwexpr_status outcome_checked(dwexpr_ctx *ctx, dwexpr_status st)
{
    FZ_CHECK(eval_class_ok(st), "eval failed with %s (class %s): %s", dwexpr_status_name(st),
             dwexpr_class_name(dwexpr_status_class(st)), dwexpr_ctx_error(ctx)->message);
    FZ_CHECK(ctx->steps <= ctx->lim.steps + (st == DWEXPR_E_STEPS ? 1 : 0),
             "%llu steps with a limit of %llu (%s)", (unsigned long long)ctx->steps,
             (unsigned long long)ctx->lim.steps, dwexpr_status_name(st));
    if (st != DWEXPR_OK) {
        FZ_CHECK(dwexpr_ctx_error(ctx)->status == st, "error record says %s, eval returned %s",
                 dwexpr_status_name(dwexpr_ctx_error(ctx)->status), dwexpr_status_name(st));
        /* the stack as the failing operation found it can be inspected */
        size_t n = dwexpr_ctx_stack_depth(ctx);
        dwexpr_result e;
        FZ_CHECK(n <= ctx->lim.stack, "%zu entries on a %u-entry stack", n,
                 (unsigned)ctx->lim.stack);
        for (size_t i = 0; i < n && i < 8; i++)
            FZ_CHECK(dwexpr_ctx_stack_get(ctx, i, &e) == DWEXPR_OK, "stack entry %zu", i);
    }
    return st;
}

/* Evaluate PROG, or BYTES with dwexpr_eval_bytes when PROG is NULL, and
 * check the outcome (outcome_checked). */
static dwexpr_status eval_checked(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                  const uint8_t *bytes, size_t len, const dwexpr_target *t,
                                  mock *m, const dwexpr_eval_params *pp, dwexpr_result *res)
{
    m->in_eval = true;
    dwexpr_status st = prog ? dwexpr_eval(ctx, prog, t, m, pp, res)
                            : dwexpr_eval_bytes(ctx, bytes, len, &m->unit, t, m, pp, res);
    m->in_eval = false;
    return outcome_checked(ctx, st);
}

/* eval_checked on a context bound to the mock M (dwexpr_ctx_bind): PROG
 * with dwexpr_eval_bound, or BYTES (unit M's) with dwexpr_eval_bytes_bound
 * when PROG is NULL. */
static dwexpr_status eval_bound_checked(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                        const uint8_t *bytes, size_t len, mock *m,
                                        dwexpr_result *res)
{
    m->in_eval = true;
    dwexpr_status st = prog ? dwexpr_eval_bound(ctx, prog, res)
                            : dwexpr_eval_bytes_bound(ctx, bytes, len, &m->unit, res);
    m->in_eval = false;
    return outcome_checked(ctx, st);
}

/* Bind CTX to target T, the mock M and PP (may be NULL): always OK. */
static void bind_checked(dwexpr_ctx *ctx, const dwexpr_target *t, mock *m,
                         const dwexpr_eval_params *pp)
{
    dwexpr_status st = dwexpr_ctx_bind(ctx, t, m, pp);
    FZ_CHECK(st == DWEXPR_OK, "ctx_bind: %s", dwexpr_status_name(st));
}

/* Whether the one-shot path (dwexpr_eval_bytes, dwexpr_eval_bytes_bound)
 * may end otherwise than decode + evaluate because the scratch ran out
 * (status ST_BYTES): it decodes an expression of DWX_SMALL_PROGRAM bytes
 * or more into the context's scratch, so a program that fills the scratch
 * runs out sooner there, at another operation. */
static bool oneshot_scratch_excused(dwexpr_status st_bytes, size_t len)
{
    return st_bytes == DWEXPR_E_NOSPACE && len >= DWX_SMALL_PROGRAM;
}

/* On CTX, bound by the caller: dwexpr_eval_bound of PROG, then
 * dwexpr_eval_bytes_bound of BYTES, then dwexpr_eval_bound_ref of PROG
 * (NULL on failure), each give the outcome REF of status ST (put_outcome
 * of the unbound evaluation). TMP is scratch; WHAT names the binding. */
static void check_bound(dwexpr_ctx *ctx, const dwexpr_program *prog, const uint8_t *bytes,
                        size_t len, mock *m, dwexpr_status st, const blob *ref, blob *tmp,
                        const char *what)
{
    static const char *const how_name[] = {"eval_bound", "eval_bytes_bound", "eval_bound_ref"};
    dwexpr_result res;
    for (int how = 0; how < 3; how++) {
        dwexpr_status st2;
        if (how < 2) {
            st2 = eval_bound_checked(ctx, how ? NULL : prog, bytes, len, m, &res);
        } else {
            const dwexpr_result *r = &res;
            m->in_eval = true;
            st2 = outcome_checked(ctx, dwexpr_eval_bound_ref(ctx, prog, &r));
            m->in_eval = false;
            FZ_CHECK((st2 == DWEXPR_OK) == (r != NULL), "eval_bound_ref: %s with %s result",
                     dwexpr_status_name(st2), r ? "a" : "no");
            if (r)
                res = *r;
        }
        if (how == 1 && oneshot_scratch_excused(st2, len))
            continue;
        put_outcome(tmp, st2, ctx, &res);
        FZ_CHECK(st == st2 && ref->n == tmp->n && memcmp(ref->b, tmp->b, ref->n) == 0,
                 "%s (%s) gives %s, unbound %s", how_name[how], what,
                 dwexpr_status_name(st2), dwexpr_status_name(st));
    }
}

/* What the trace hook checks and counts. */
typedef struct trace_state {
    const dwexpr_limits *lim;
    uint64_t count;        /* operations seen */
    uint64_t stop_at;      /* interrupt at this operation (0: never) */
    blob scratch;
} trace_state;

/* Trace hook: sane events, an inspectable stack within its limit, and an
 * operation count within the step limit. */
static int trace_cb(void *arg, const dwexpr_ctx *ctx, const dwexpr_trace_event *ev)
{
    trace_state *ts = arg;
    ts->count++;
    FZ_CHECK(ts->count <= ts->lim->steps, "operation %llu with a step limit of %llu",
             (unsigned long long)ts->count, (unsigned long long)ts->lim->steps);
    FZ_CHECK((unsigned)ev->id < DWEXPR_OP_COUNT, "trace op id %d", (int)ev->id);
    FZ_CHECK(ev->depth <= ts->lim->calls + 1, "trace depth %u with a call limit of %u",
             ev->depth, (unsigned)ts->lim->calls);
    if (ev->op)
        FZ_CHECK(ev->op->offset == ev->offset && ev->op->id == ev->id,
                 "trace event at 0x%x names the operation at 0x%x", (unsigned)ev->offset,
                 (unsigned)ev->op->offset);
    size_t n = dwexpr_ctx_stack_depth(ctx);
    FZ_CHECK(n <= ts->lim->stack, "%zu entries on a %u-entry stack", n, (unsigned)ts->lim->stack);
    for (size_t i = 0; i < n && i < 16; i++) {
        dwexpr_result r;
        dwexpr_status s = dwexpr_ctx_stack_get(ctx, i, &r);
        FZ_CHECK(s == DWEXPR_OK, "stack entry %zu of %zu: %s", i, n, dwexpr_status_name(s));
        if (i < 2)
            put_outcome_n(&ts->scratch, s, NULL, &r, 16);
    }
    dwexpr_result r;
    FZ_CHECK(dwexpr_ctx_stack_get(ctx, n, &r) == DWEXPR_E_USAGE, "stack entry past the top");
    return ts->stop_at && ts->count == ts->stop_at;
}

/* FUZZ_VERBOSE set in the environment: say what each step did (stderr). */
static bool verbose(void)
{
    static int v = -1;
    if (v < 0)
        v = getenv("FUZZ_VERBOSE") != NULL;
    return v;
}

/* Read through a location result, write the bits back, and check the
 * target is unchanged (and reads the same again). */
static void check_read_write(dwexpr_ctx *ctx, const dwexpr_target *t, mock *m,
                             const dwexpr_loc *loc, uint64_t nbits)
{
    static uint8_t buf[MAX_READ_BYTES], mask[MAX_READ_BYTES], again[MAX_READ_BYTES];
    size_t nb = (size_t)((nbits + 7) / 8);
    ovl_clear(m);
    dwexpr_status rs = dwexpr_loc_read(ctx, t, m, loc, nbits, buf, mask);
    FZ_CHECK(eval_class_ok(rs) && dwexpr_status_class(rs) != DWEXPR_CLASS_DECODE,
             "loc_read failed with %s: %s", dwexpr_status_name(rs),
             dwexpr_ctx_error(ctx)->message);
    FZ_CHECK(m->nov == 0, "a read wrote to the target");
    if (verbose())
        fprintf(stderr, "  read %llu bits: %s\n", (unsigned long long)nbits,
                dwexpr_status_name(rs));
    if (rs != DWEXPR_OK)
        return;
    bool undef = false;
    for (size_t i = 0; i < nb; i++)
        undef |= mask[i] != 0;
    dwexpr_status ws = dwexpr_loc_write(ctx, t, m, loc, nbits, buf);
    FZ_CHECK(eval_class_ok(ws) && dwexpr_status_class(ws) != DWEXPR_CLASS_DECODE,
             "loc_write failed with %s: %s", dwexpr_status_name(ws),
             dwexpr_ctx_error(ctx)->message);
    if (verbose())
        fprintf(stderr, "  write back: %s (%zu bytes touched)\n", dwexpr_status_name(ws), m->nov);
    unsigned budget = 1u << 14;
    if (!single_place(loc, &budget)) {
        ovl_clear(m);
        return;
    }
    size_t bad = 0;
    if (!state_unchanged(m, &bad)) {
        const ovl *o = &m->ov[bad];
        FZ_CHECK(0, "writing back %llu bits read through the location changed %s %u "
                    "(frame %u lane %d thread %llu) byte 0x%llx: 0x%02x -> 0x%02x (write %s)",
                 (unsigned long long)nbits, o->kind == 1 ? "aspace" : "register",
                 (unsigned)o->space, (unsigned)o->frame, (int)o->lane,
                 (unsigned long long)o->thread, (unsigned long long)o->addr,
                 base_byte(m, o), o->val, dwexpr_status_name(ws));
    }
    if (ws == DWEXPR_OK) {
        FZ_CHECK(!undef, "wrote %llu bits through a location with undefined bits",
                 (unsigned long long)nbits);
        rs = dwexpr_loc_read(ctx, t, m, loc, nbits, again, NULL);
        FZ_CHECK(rs == DWEXPR_OK && memcmp(again, buf, nb) == 0,
                 "reading again after writing back gives %s / other bits",
                 dwexpr_status_name(rs));
    }
    ovl_clear(m);
}

/* The whole check for one input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static mock m;
    static _Alignas(16) unsigned char sbuf[32768];
    static const uint64_t steps_of[4] = {20000, 1000, 50, 100000};
    static const uint32_t stack_of[4] = {64, 16, 4, 512};
    static const uint32_t calls_of[4] = {8, 3, 1, 32};
    static const uint32_t parts_of[4] = {64, 8, 2, 1024};
    static const uint64_t imp_of[4] = {4096, 64, 8, 65536};
    static const size_t static_of[4] = {8192, 2048, 32768, 512};
    rd r = {data, size};
    uint8_t h[HDR];
    for (int i = 0; i < HDR; i++)
        h[i] = rd_u8(&r);

    ovl_clear(&m);
    memset(&m, 0, offsetof(mock, ov));
    m.unit = fz_unit(h[0]);
    m.amdgpu = (h[0] & 0x80) != 0;
    m.seed = mix(h[5]);
    for (size_t i = 0; i < sizeof m.imp; i++)
        m.imp[i] = (uint8_t)h3(m.seed, 0x1b, i, 0);
    m.absent = (uint16_t)(h[3] | (h[4] << 8));
    m.ndebug_addr = h[8] & 15;
    m.fb_mode = (h[8] >> 4) & 3;

    dwexpr_limits lim;
    memset(&lim, 0, sizeof lim);
    lim.steps = steps_of[h[2] & 3];
    lim.stack = stack_of[(h[2] >> 2) & 3];
    lim.calls = calls_of[(h[2] >> 4) & 3];
    lim.parts = parts_of[(h[2] >> 6) & 3];
    lim.implicit_bytes = imp_of[(h[8] >> 6) & 3];
    lim.arena_bytes = (size_t)8 << 20;

    dwexpr_eval_params pp;
    memset(&pp, 0, sizeof pp);
    static const dwexpr_result_kind kinds[4] = {0, DWEXPR_RESULT_VALUE, DWEXPR_RESULT_LOCATION, 0};
    pp.result_kind = kinds[h[1] & 3];
    switch ((h[1] >> 2) & 3) {
    case 1: m.lanes = 64; break;
    case 2: m.lanes = 32; break;
    default: m.lanes = 0; break;
    }
    if ((h[1] >> 2) & 3) {
        pp.ctx |= DWEXPR_CTX_LANE;
        pp.lanes = m.lanes;
        pp.lane = (h[7] & 0x80) ? (h[7] & 0x7f) : (m.lanes ? h[7] % m.lanes : h[7]);
    }
    if (m.amdgpu && !m.lanes)
        m.lanes = 64;
    if (h[1] & 0x10) {
        pp.has_pc = true;
        pp.pc = 0x1000u * ((h[9] >> 2) & 7) + 0x10u;
    }
    if (((h[1] >> 5) & 3) != 3) {
        pp.ctx |= DWEXPR_CTX_FRAME;
        pp.frame = (h[1] >> 5) & 3;
    }
    if (h[1] & 0x80) {
        pp.ctx |= DWEXPR_CTX_THREAD;
        pp.thread = 7;
    }
    m.has_pc = pp.has_pc;
    m.pc = pp.pc;
    m.cur_frame = pp.frame;

    /* initial stack and object */
    dwexpr_value ivals[8];
    dwexpr_loc ilocs[8];
    dwexpr_sld islds[8][2];
    size_t ninit = h[6] & 7;
    for (size_t i = 0; i < ninit; i++) {
        uint8_t k = rd_u8(&r), p = rd_u8(&r);
        memset(&ivals[i], 0, sizeof ivals[i]);
        memset(&ilocs[i], 0, sizeof ilocs[i]);
        if ((k & 3) == 0) {
            dwexpr_type t;
            if ((k & 4) && mock_type(&m, p, &t)) {
                uint64_t total = (uint64_t)t.bits * t.lanes;
                ivals[i].type = t;
                if (total > 64) {
                    ivals[i].wide = m.imp;
                    memcpy(&ivals[i].bits, m.imp, 8);
                } else {
                    ivals[i].bits = h3(m.seed, 0x1f, i, p) &
                                    (total == 64 ? ~0ull : (1ull << total) - 1);
                }
            } else {
                ivals[i] = generic_value(&m.unit, (k & 8) ? p : h3(m.seed, 0x1f, i, p));
            }
        } else {
            make_sld(&m, &pp, (unsigned)(k >> 2) % 6, k, p, &islds[i][0]);
            ilocs[i].count = 1;
            if ((k & 3) == 3) {
                make_sld(&m, &pp, (unsigned)(p >> 1) % 6, p, (uint8_t)(k ^ p), &islds[i][1]);
                ilocs[i].count = 2;
            }
            ilocs[i].slds = islds[i];
        }
    }
    pp.initial_values = ivals;
    pp.initial_locs = ilocs;
    pp.initial_count = ninit;
    dwexpr_loc obj;
    dwexpr_sld objsld[2];
    {
        uint8_t k = rd_u8(&r), p = rd_u8(&r);
        unsigned kind = (h[6] >> 3) & 7;
        if (kind) {
            make_sld(&m, &pp, kind == 7 ? 0 : kind - 1, k, p, &objsld[0]);
            obj.count = 1;
            if (kind == 7) {
                make_sld(&m, &pp, 1, k, p, &objsld[1]);
                obj.count = 2;
            }
            obj.slds = objsld;
            pp.object = &obj;
        }
    }

    /* the expression, then the DIE table */
    size_t elen = rd_u8(&r);
    const uint8_t *expr = rd_take(&r, elen ? elen : r.n, &elen);
    while (r.n && m.nrecs < MAX_RECS) {
        rec *rc = &m.recs[m.nrecs++];
        rc->tag = rd_u8(&r);
        size_t want = rd_u8(&r);
        rc->p = rd_take(&r, want, &rc->n);
        if ((rc->tag & 3) == 1) {
            /* a location list: [len][bytes] entries */
            rd sub = {rc->p, rc->n};
            while (sub.n && rc->nents < MAX_ENTS) {
                dwexpr_loclist_entry *e = &rc->ents[rc->nents];
                size_t el = rd_u8(&sub);
                e->expr = rd_take(&sub, el, &e->expr_len);
                e->low = 0x1000u * rc->nents;
                e->high = e->low + 0x1000u;
                rc->nents++;
            }
            if ((rc->tag & 0x10) && rc->nents)
                rc->ents[rc->nents - 1].is_default = true;
        }
    }

    /* decode: an exact-size copy so a sanitizer sees overreads */
    uint8_t *bytes = malloc(elen ? elen : 1);
    FZ_CHECK(bytes != NULL, "out of memory");
    memcpy(bytes, expr, elen);
    dwexpr_program *prog = NULL;
    dwexpr_error derr;
    dwexpr_status ds = dwexpr_program_decode(bytes, elen, &m.unit, &prog, &derr);
    dwexpr_target t = make_target(&m);
    dwexpr_ctx *ctx = NULL;
    dwexpr_status st = dwexpr_ctx_new(&lim, &ctx);
    FZ_CHECK(st == DWEXPR_OK, "ctx_new: %s", dwexpr_status_name(st));
    dwexpr_result res;
    blob b1 = {0}, b2 = {0};
    if (ds != DWEXPR_OK) {
        if (verbose())
            fprintf(stderr, "decode %zu bytes: %s\n", elen, dwexpr_status_name(ds));
        FZ_CHECK(fz_decode_class(ds), "decode failed with %s", dwexpr_status_name(ds));
        /* the one-shot path reports the same decode failure */
        st = eval_checked(ctx, NULL, bytes, elen, &t, &m, &pp, &res);
        FZ_CHECK(st == ds, "decode fails with %s, eval_bytes with %s", dwexpr_status_name(ds),
                 dwexpr_status_name(st));
        /* and so does the bound one-shot path, with the same error record */
        put_outcome(&b1, st, ctx, &res);
        bind_checked(ctx, &t, &m, &pp);
        dwexpr_status st2 = eval_bound_checked(ctx, NULL, bytes, elen, &m, &res);
        put_outcome(&b2, st2, ctx, &res);
        FZ_CHECK(st == st2 && b1.n == b2.n && memcmp(b1.b, b2.b, b1.n) == 0,
                 "eval_bytes_bound gives %s, eval_bytes %s", dwexpr_status_name(st2),
                 dwexpr_status_name(st));
        free(b1.b);
        free(b2.b);
        dwexpr_ctx_free(ctx);
        free(bytes);
        return 0;
    }

    /* evaluate twice on the same context: the same outcome */
    st = eval_checked(ctx, prog, NULL, 0, &t, &m, &pp, &res);
    put_outcome(&b1, st, ctx, &res);
    dwexpr_status st2 = eval_checked(ctx, prog, NULL, 0, &t, &m, &pp, &res);
    put_outcome(&b2, st2, ctx, &res);
    if (verbose())
        fprintf(stderr, "eval %zu bytes: %s%s%s\n", elen, dwexpr_status_name(st),
                st == DWEXPR_OK ? (res.kind == DWEXPR_RESULT_VALUE ? " value" : " location") : ": ",
                st == DWEXPR_OK ? "" : dwexpr_ctx_error(ctx)->message);
    FZ_CHECK(st == st2 && b1.n == b2.n && memcmp(b1.b, b2.b, b1.n) == 0,
             "evaluating twice differs: %s then %s", dwexpr_status_name(st),
             dwexpr_status_name(st2));

    /* another program (with all-zero params), then this one again: the
     * outcome does not depend on what the context evaluated before */
    {
        static const uint8_t other_code[4][12] = {
            {0x50, 0x93, 0x04, 0x35, 0x9f, 0x93, 0x02, 0x93, 0x08}, /* reg0 piece; lit5 sv piece; piece */
            {0x9e, 0x09, 1, 2, 3, 4, 5, 6, 7, 8, 9},                  /* implicit_value 9 bytes */
            {0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x22},         /* a deep stack left */
            {0x31, 0x30, 0x1b},                                       /* division by zero */
        };
        static const size_t other_len[4] = {9, 11, 8, 3};
        unsigned k = (unsigned)(m.seed >> 8) & 3;
        dwexpr_program *other = NULL;
        if (dwexpr_program_decode(other_code[k], other_len[k], &m.unit, &other, NULL) ==
            DWEXPR_OK) {
            dwexpr_eval_params zp;
            memset(&zp, 0, sizeof zp);
            (void)eval_checked(ctx, other, NULL, 0, &t, &m, &zp, &res);
            dwexpr_program_free(other);
        }
        st2 = eval_checked(ctx, prog, NULL, 0, &t, &m, &pp, &res);
        put_outcome(&b2, st2, ctx, &res);
        FZ_CHECK(st == st2 && b1.n == b2.n && memcmp(b1.b, b2.b, b1.n) == 0,
                 "after another program the outcome differs: %s then %s",
                 dwexpr_status_name(st), dwexpr_status_name(st2));
    }

    /* with a trace hook that inspects the stack: the same outcome, and
     * at most the step limit of operations */
    trace_state ts;
    memset(&ts, 0, sizeof ts);
    ts.lim = &lim;
    dwexpr_eval_params tp = pp;
    tp.trace = trace_cb;
    tp.trace_arg = &ts;
    st2 = eval_checked(ctx, prog, NULL, 0, &t, &m, &tp, &res);
    put_outcome(&b2, st2, ctx, &res);
    FZ_CHECK(st == st2 && b1.n == b2.n && memcmp(b1.b, b2.b, b1.n) == 0,
             "a trace hook changes the outcome: %s then %s", dwexpr_status_name(st),
             dwexpr_status_name(st2));
    free(ts.scratch.b);
    const uint64_t traced = ts.count;
    if (h[9] >> 5) {
        /* interrupted at operation K: E_INTERRUPTED, or the same outcome
         * when the evaluation has fewer operations */
        uint64_t ran = ts.count;
        memset(&ts, 0, sizeof ts);
        ts.lim = &lim;
        ts.stop_at = 1 + h3(m.seed, 0x57, h[9], 0) % (ran + 1);
        st2 = eval_checked(ctx, prog, NULL, 0, &t, &m, &tp, &res);
        if (ts.stop_at <= ran) {
            FZ_CHECK(st2 == DWEXPR_E_INTERRUPTED, "interrupted at %llu of %llu: %s",
                     (unsigned long long)ts.stop_at, (unsigned long long)ran,
                     dwexpr_status_name(st2));
            FZ_CHECK(ts.count == ts.stop_at, "%llu trace events after interrupting at %llu",
                     (unsigned long long)ts.count, (unsigned long long)ts.stop_at);
        } else {
            put_outcome(&b2, st2, ctx, &res);
            FZ_CHECK(st == st2 && b1.n == b2.n && memcmp(b1.b, b2.b, b1.n) == 0,
                     "a trace hook that does not stop changes the outcome");
        }
        free(ts.scratch.b);
    }

    /* the one-shot path: the same outcome (but where the scratch runs
     * out: oneshot_scratch_excused) */
    st2 = eval_checked(ctx, NULL, bytes, elen, &t, &m, &pp, &res);
    put_outcome(&b2, st2, ctx, &res);
    FZ_CHECK(oneshot_scratch_excused(st2, elen) ||
                 (st == st2 && b1.n == b2.n && memcmp(b1.b, b2.b, b1.n) == 0),
             "eval_bytes gives %s, decode + eval %s", dwexpr_status_name(st2),
             dwexpr_status_name(st));

    /* bound evaluation (dwexpr_ctx_bind), on this context with its
     * history: bound to no params, eval_bound and eval_bytes_bound give
     * what dwexpr_eval with none gives; rebound to the input's, what it
     * gives (b1); unbound calls still work on a bound context; a trace
     * hook in the bound params sees as many operations as unbound */
    {
        blob bn = {0};
        bind_checked(ctx, &t, &m, NULL);
        dwexpr_status stn = eval_checked(ctx, prog, NULL, 0, &t, &m, NULL, &res);
        put_outcome(&bn, stn, ctx, &res);
        check_bound(ctx, prog, bytes, elen, &m, stn, &bn, &b2, "no params");
        free(bn.b);
        bind_checked(ctx, &t, &m, &pp);
        check_bound(ctx, prog, bytes, elen, &m, st, &b1, &b2, "the input's params");
        st2 = eval_checked(ctx, prog, NULL, 0, &t, &m, &pp, &res);
        put_outcome(&b2, st2, ctx, &res);
        FZ_CHECK(st == st2 && b1.n == b2.n && memcmp(b1.b, b2.b, b1.n) == 0,
                 "dwexpr_eval on a bound context gives %s, unbound %s", dwexpr_status_name(st2),
                 dwexpr_status_name(st));
        memset(&ts, 0, sizeof ts);
        ts.lim = &lim;
        bind_checked(ctx, &t, &m, &tp);
        st2 = eval_bound_checked(ctx, prog, NULL, 0, &m, &res);
        put_outcome(&b2, st2, ctx, &res);
        FZ_CHECK(st == st2 && b1.n == b2.n && memcmp(b1.b, b2.b, b1.n) == 0,
                 "eval_bound with a trace hook gives %s, unbound %s", dwexpr_status_name(st2),
                 dwexpr_status_name(st));
        FZ_CHECK(ts.count == traced, "%llu trace events bound, %llu unbound",
                 (unsigned long long)ts.count, (unsigned long long)traced);
        free(ts.scratch.b);
    }

    /* the lanes batch: exactly the single-lane evaluations, lane by lane;
     * lanes outside the mask untouched (kind 0, E_NO_CONTEXT); the error
     * record describes the first failing lane */
    {
        enum { MAXL = 8 };
        uint32_t count = 1 + (uint32_t)(h3(m.seed, 0x1a, h[8], 0) % MAXL);
        uint32_t first = pp.lane > UINT32_MAX - MAXL ? 0 : pp.lane;
        uint64_t mask = h3(m.seed, 0x1b, h[8], 1) & ((1u << count) - 1);
        if (!mask)
            mask = 1;
        blob single[MAXL];
        dwexpr_status sst[MAXL];
        memset(single, 0, sizeof single);
        dwexpr_ctx *lctx = NULL;
        FZ_CHECK(dwexpr_ctx_new(&lim, &lctx) == DWEXPR_OK, "ctx_new");
        int first_bad = -1;
        for (uint32_t i = 0; i < count; i++) {
            if (!(mask >> i & 1))
                continue;
            dwexpr_eval_params lp = pp;
            lp.lane = first + i;
            lp.ctx |= DWEXPR_CTX_LANE;
            sst[i] = dwexpr_eval(lctx, prog, &t, &m, &lp, &res);
            put_outcome(&single[i], sst[i], lctx, &res);
            if (sst[i] != DWEXPR_OK && first_bad < 0)
                first_bad = (int)i;
        }
        dwexpr_result lres[MAXL];
        dwexpr_status lst[MAXL];
        st2 = dwexpr_eval_lanes(lctx, prog, &t, &m, &pp, first, count, mask, lres, lst);
        /* the documented exception (eval.h): the batch keeps the lanes'
         * result places and the scratch of earlier lanes that succeeded,
         * so a lane may run out of it (E_NOSPACE) where a single
         * evaluation does not, or sooner, at another operation */
        bool excused = false;
        for (uint32_t i = 0; i < count; i++) {
            if (!(mask >> i & 1))
                continue;
            if (lst[i] == DWEXPR_E_NOSPACE)
                excused = true;
        }
        FZ_CHECK(excused || st2 == (first_bad < 0 ? DWEXPR_OK : sst[first_bad]),
                 "eval_lanes returns %s, the first failing single lane %s",
                 dwexpr_status_name(st2),
                 first_bad < 0 ? "none" : dwexpr_status_name(sst[first_bad]));
        for (uint32_t i = 0; i < count; i++) {
            if (!(mask >> i & 1)) {
                FZ_CHECK(lst[i] == DWEXPR_E_NO_CONTEXT && lres[i].kind == 0,
                         "inactive lane %u: %s, kind %d", i, dwexpr_status_name(lst[i]),
                         (int)lres[i].kind);
                continue;
            }
            if (lst[i] == DWEXPR_E_NOSPACE)
                continue; /* the exception above */
            FZ_CHECK(lst[i] == sst[i], "lane %u: batch %s, single %s", first + i,
                     dwexpr_status_name(lst[i]), dwexpr_status_name(sst[i]));
            if (lst[i] == DWEXPR_OK || (int)i == first_bad) {
                put_outcome(&b2, lst[i], lctx, &lres[i]);
                FZ_CHECK(b2.n == single[i].n && memcmp(b2.b, single[i].b, b2.n) == 0,
                         "lane %u: the batch result differs from a single evaluation", first + i);
            }
        }
        for (uint32_t i = 0; i < count; i++)
            free(single[i].b);
        dwexpr_ctx_free(lctx);
    }

    /* read through a location result, write it back: the target is unchanged */
    st2 = eval_checked(ctx, prog, NULL, 0, &t, &m, &pp, &res);
    if (st2 == DWEXPR_OK && res.kind == DWEXPR_RESULT_LOCATION) {
        uint64_t nbits;
        switch ((h[6] >> 6) & 3) {
        case 0: nbits = 64; break;
        case 1: nbits = 8u * m.unit.addr_size; break;
        case 2:
            nbits = res.loc.count && res.loc.slds[0].kind == DWEXPR_LOC_COMPOSITE
                        ? res.loc.slds[0].u.comp->bits : 32;
            break;
        default: nbits = 1 + m.seed % 200; break;
        }
        if (nbits > 8u * MAX_READ_BYTES)
            nbits = 8u * MAX_READ_BYTES;
        check_read_write(ctx, &t, &m, &res.loc, nbits);
    }
    dwexpr_ctx_free(ctx);

    /* a static context never allocates: the same outcome, or E_NOSPACE */
    dwexpr_ctx *sctx = NULL;
    size_t ssize = static_of[h[9] & 3];
    if (dwexpr_ctx_init_static(sbuf, ssize, &lim, &sctx) == DWEXPR_OK) {
        /* a context made again in a buffer that held a bound one is
         * never bound: the bound entries refuse, and the error record
         * says so (bound here first, so one input reproduces) */
        bind_checked(sctx, &t, &m, &pp);
        FZ_CHECK(dwexpr_ctx_init_static(sbuf, ssize, &lim, &sctx) == DWEXPR_OK,
                 "init_static again");
        dwexpr_status st3 = dwexpr_eval_bound(sctx, prog, &res);
        FZ_CHECK(st3 == DWEXPR_E_USAGE && dwexpr_ctx_error(sctx)->status == DWEXPR_E_USAGE,
                 "eval_bound on a context never bound: %s", dwexpr_status_name(st3));
        st3 = dwexpr_eval_bytes_bound(sctx, bytes, elen, &m.unit, &res);
        FZ_CHECK(st3 == DWEXPR_E_USAGE && dwexpr_ctx_error(sctx)->status == DWEXPR_E_USAGE,
                 "eval_bytes_bound on a context never bound: %s", dwexpr_status_name(st3));
        bind_checked(sctx, &t, &m, &pp);
        for (int mode = 0; mode < 4; mode++) {
            int oneshot = mode & 1, bound = mode >> 1;
            const dwexpr_program *sp = oneshot ? NULL : prog;
            st3 = bound ? eval_bound_checked(sctx, sp, bytes, elen, &m, &res)
                        : eval_checked(sctx, sp, bytes, elen, &t, &m, &pp, &res);
            if (st3 == DWEXPR_E_NOSPACE)
                continue;
            put_outcome(&b2, st3, sctx, &res);
            FZ_CHECK(st3 == st && b1.n == b2.n && memcmp(b1.b, b2.b, b1.n) == 0,
                     "a static context (%zu bytes%s%s) gives %s, a heap context %s", ssize,
                     oneshot ? ", eval_bytes" : "", bound ? ", bound" : "",
                     dwexpr_status_name(st3), dwexpr_status_name(st));
        }
    }
    free(b1.b);
    free(b2.b);
    dwexpr_program_free(prog);
    free(bytes);
    return 0;
}
