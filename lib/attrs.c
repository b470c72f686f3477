/* lib/attrs.c: the seed's SIMT attributes ("Debugging Information Entry
 * Attributes"): attribute code tables, DW_AT_LLVM_lanes, lane_pc and
 * active_lane evaluation, and DW_AT_LLVM_augmentation strings. */
#include "evalint.h"

/* Both code tables, indexed by dwexpr_llvm_attr (0: none assigned). */
static const struct {
    const char *name;
    uint16_t seed, current;
} attr_table[] = {
    [DWEXPR_LLVM_AT_NONE] = {"?", 0, 0},
    [DWEXPR_LLVM_AT_active_lane] = {"DW_AT_LLVM_active_lane", DWEXPR_AT_SEED_active_lane, 0},
    [DWEXPR_LLVM_AT_augmentation] = {"DW_AT_LLVM_augmentation", DWEXPR_AT_SEED_augmentation, 0},
    [DWEXPR_LLVM_AT_lanes] = {"DW_AT_LLVM_lanes", DWEXPR_AT_SEED_lanes, DWEXPR_AT_LLVM_lanes},
    [DWEXPR_LLVM_AT_lane_pc] = {"DW_AT_LLVM_lane_pc", DWEXPR_AT_SEED_lane_pc,
                                DWEXPR_AT_LLVM_lane_pc},
    [DWEXPR_LLVM_AT_vector_size] = {"DW_AT_LLVM_vector_size", DWEXPR_AT_SEED_vector_size,
                                    DWEXPR_AT_LLVM_vector_size},
    [DWEXPR_LLVM_AT_memory_space] = {"DW_AT_LLVM_memory_space", 0, DWEXPR_AT_LLVM_memory_space},
    [DWEXPR_LLVM_AT_address_space] = {"DW_AT_LLVM_address_space", 0,
                                      DWEXPR_AT_LLVM_address_space},
};
#define NATTRS (sizeof attr_table / sizeof attr_table[0])

dwexpr_llvm_attr dwexpr_llvm_attr_from_code(uint64_t code, unsigned codes)
{
    if (code == 0)
        return DWEXPR_LLVM_AT_NONE;
    for (unsigned i = 1; i < NATTRS; i++) {
        if ((codes & DWEXPR_AT_CODES_SEED) && attr_table[i].seed == code)
            return (dwexpr_llvm_attr)i;
        if ((codes & DWEXPR_AT_CODES_CURRENT) && attr_table[i].current == code)
            return (dwexpr_llvm_attr)i;
    }
    return DWEXPR_LLVM_AT_NONE;
}

uint64_t dwexpr_llvm_attr_code(dwexpr_llvm_attr attr, unsigned codes)
{
    if ((unsigned)attr >= NATTRS)
        return 0;
    if (codes == DWEXPR_AT_CODES_SEED)
        return attr_table[attr].seed;
    if (codes == DWEXPR_AT_CODES_CURRENT)
        return attr_table[attr].current;
    return 0;
}

const char *dwexpr_llvm_attr_name(dwexpr_llvm_attr attr)
{
    return (unsigned)attr < NATTRS ? attr_table[attr].name : "?";
}

/* Seed "DW_AT_LLVM_lanes": default 1, ill-formed if 0. */
dwexpr_status dwexpr_llvm_lanes(bool present, uint64_t value, uint32_t *out)
{
    if (!out)
        return DWEXPR_E_USAGE;
    if (!present) {
        *out = 1;
        return DWEXPR_OK;
    }
    if (value == 0 || value > UINT32_MAX)
        return DWEXPR_E_ILL_FORMED;
    *out = (uint32_t)value;
    return DWEXPR_OK;
}

/* ---- augmentation strings ---- */

/* A semantic-versioning number (seed "DW_AT_LLVM_augmentation": SEMVER
 * 2.0.0 item 2, non-negative, no leading zeros) at S[*I..LEN). */
static bool semver_number(const char *s, size_t len, size_t *i, uint64_t *out)
{
    size_t start = *i;
    uint64_t v = 0;
    while (*i < len && s[*i] >= '0' && s[*i] <= '9') {
        unsigned d = (unsigned)(s[*i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
        (*i)++;
    }
    if (*i == start || (s[start] == '0' && *i - start > 1))
        return false;
    *out = v;
    return true;
}

/* Seed "DW_AT_LLVM_augmentation": ([vendor:vX.Y[:options]])*. */
dwexpr_status dwexpr_augmentation_parse(const char *s, size_t len, dwexpr_augmentation *out,
                                        size_t cap, size_t *count, dwexpr_error *err)
{
    size_t i = 0, n = 0;
    if (count)
        *count = 0;
    if (!s && len)
        return dwx_fail(err, DWEXPR_E_USAGE, -1, DWEXPR_OP_COUNT, "no string given");
    while (i < len) {
        dwexpr_augmentation a;
        memset(&a, 0, sizeof a);
        if (s[i] != '[')
            return dwx_fail(err, DWEXPR_E_SYNTAX, (int64_t)i, DWEXPR_OP_COUNT,
                            "augmentation: expected '[' at offset %zu", i);
        size_t v0 = ++i;
        while (i < len && s[i] != ':' && s[i] != ']' && s[i] != '[')
            i++;
        if (i == v0)
            return dwx_fail(err, DWEXPR_E_SYNTAX, (int64_t)i, DWEXPR_OP_COUNT,
                            "augmentation: empty vendor at offset %zu", i);
        if (i >= len || s[i] != ':')
            return dwx_fail(err, DWEXPR_E_SYNTAX, (int64_t)i, DWEXPR_OP_COUNT,
                            "augmentation: expected ':v<major>.<minor>' after the vendor "
                            "at offset %zu", i);
        a.vendor = s + v0;
        a.vendor_len = i - v0;
        i++;
        size_t ver = i;
        if (i >= len || s[i] != 'v')
            return dwx_fail(err, DWEXPR_E_SYNTAX, (int64_t)i, DWEXPR_OP_COUNT,
                            "augmentation: expected 'v<major>.<minor>' at offset %zu", i);
        i++;
        if (!semver_number(s, len, &i, &a.major) || i >= len || s[i] != '.') {
            return dwx_fail(err, DWEXPR_E_SYNTAX, (int64_t)ver, DWEXPR_OP_COUNT,
                            "augmentation: version at offset %zu is not v<major>.<minor> "
                            "(semantic versioning numbers)", ver);
        }
        i++;
        if (!semver_number(s, len, &i, &a.minor))
            return dwx_fail(err, DWEXPR_E_SYNTAX, (int64_t)ver, DWEXPR_OP_COUNT,
                            "augmentation: version at offset %zu is not v<major>.<minor> "
                            "(semantic versioning numbers)", ver);
        if (i < len && s[i] == ':') {
            size_t o0 = ++i;
            while (i < len && s[i] != ']')
                i++;
            a.options = s + o0;
            a.options_len = i - o0;
        }
        if (i >= len || s[i] != ']')
            return dwx_fail(err, DWEXPR_E_SYNTAX, (int64_t)i, DWEXPR_OP_COUNT,
                            "augmentation: expected ']' at offset %zu", i);
        i++;
        if (n < cap && out)
            out[n] = a;
        n++;
    }
    if (count)
        *count = n;
    if (n > cap)
        return dwx_fail(err, DWEXPR_E_NOSPACE, -1, DWEXPR_OP_COUNT,
                        "augmentation: %zu entries, room for %zu", n, cap);
    return DWEXPR_OK;
}

/* ---- lane_pc and active_lane ---- */

/* Seed "DW_AT_LLVM_lane_pc": LOC is a LANES-element vector of generic
 * type elements; an element with undefined bits is a lane that was not
 * active on entry. */
dwexpr_status dwexpr_lane_pcs(dwexpr_ctx *ctx, const dwexpr_target *target, void *user,
                              const dwexpr_unit *unit, const dwexpr_loc *loc, uint32_t lanes,
                              uint64_t *pcs, bool *defined)
{
    if (!ctx || !loc || (lanes && (!pcs || !defined)))
        return DWEXPR_E_USAGE;
    dwexpr_unit u = dwx_unit_normalize(unit);
    size_t g = u.addr_size, total = (size_t)lanes * g;
    uint8_t *buf = total ? dwx_alloc(ctx, 2 * total) : NULL;
    if (total && !buf)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOSPACE, "no scratch for %u lane pcs", lanes);
    uint8_t *mask = buf + total;
    dwexpr_status st = dwexpr_loc_read(ctx, target, user, loc, 8 * (uint64_t)total, buf, mask);
    if (st)
        return st;
    for (uint32_t n = 0; n < lanes; n++) {
        const uint8_t *e = buf + (size_t)n * g, *m = mask + (size_t)n * g;
        uint64_t v = 0;
        bool undef = false;
        for (size_t k = 0; k < g; k++) {
            undef |= m[k] != 0;
            v |= (uint64_t)e[u.big_endian ? g - 1 - k : k] << (8 * k);
        }
        defined[n] = !undef;
        pcs[n] = undef ? 0 : v;
    }
    return DWEXPR_OK;
}

/* Params for an attribute expression (seed: "an unspecified object ...
 * an empty initial stack, and other context elements corresponding to
 * the source language thread of execution upon which the user is
 * focused"). */
static dwexpr_eval_params attr_params(const dwexpr_eval_params *p, dwexpr_result_kind kind)
{
    dwexpr_eval_params q;
    if (p)
        q = *p;
    else
        memset(&q, 0, sizeof q);
    q.result_kind = kind;
    q.object = NULL;
    q.initial_values = NULL;
    q.initial_locs = NULL;
    q.initial_count = 0;
    return q;
}

dwexpr_status dwexpr_eval_lane_pc(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                  const dwexpr_target *target, void *user,
                                  const dwexpr_eval_params *params, uint32_t lanes,
                                  uint64_t *pcs, bool *defined)
{
    dwexpr_eval_params q = attr_params(params, DWEXPR_RESULT_LOCATION);
    dwexpr_result r;
    if (!ctx || !prog)
        return DWEXPR_E_USAGE;
    dwexpr_status st = dwexpr_eval(ctx, prog, target, user, &q, &r);
    if (st)
        return st;
    return dwexpr_lane_pcs(ctx, target, user, dwexpr_program_unit(prog), &r.loc, lanes, pcs,
                           defined);
}

/* Seed "DW_AT_LLVM_active_lane": the DWARF is ill-formed if the result
 * is not an integral value; bit N is lane N. */
dwexpr_status dwexpr_eval_active_lane(dwexpr_ctx *ctx, const dwexpr_program *prog,
                                      const dwexpr_target *target, void *user,
                                      const dwexpr_eval_params *params, uint64_t *mask)
{
    dwexpr_eval_params q = attr_params(params, DWEXPR_RESULT_VALUE);
    dwexpr_result r;
    if (!ctx || !prog || !mask)
        return DWEXPR_E_USAGE;
    dwexpr_status st = dwexpr_eval(ctx, prog, target, user, &q, &r);
    if (st)
        return st;
    if (r.value.is_implicit_pointer || !dwexpr_type_is_integral(&r.value.type) ||
        r.value.type.lanes > 1)
        return dwx_ctx_fail(ctx, DWEXPR_E_NOT_INTEGRAL,
                            "DW_AT_LLVM_active_lane: the result is not an integral value");
    *mask = r.value.bits;
    if (r.value.wide) {
        uint64_t v = 0;
        for (unsigned k = 0; k < 8; k++)
            v |= (uint64_t)r.value.wide[k] << (8 * k);
        *mask = v;
    }
    return DWEXPR_OK;
}
