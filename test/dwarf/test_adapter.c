/* test/dwarf/test_adapter.c: the libdwarf adapter on hand-written DWARF
 * (attrs.S, linked into the binary named by argv[1]): units, base types,
 * every DW_AT_const_value form, every DW_LLE_* kind and DWARF 4 pairs,
 * location list matching (overlap, default, no match, no pc), .debug_addr,
 * DW_OP_call4, implicit pointers, and each attribute evaluation with the
 * context the seed prescribes, against a small simulated machine; type
 * names of a Fortran unit in GDB's notation. */
#include <stdlib.h>

/* dwexpr/adapter_libdwarf.h only: dwexpr.h's cfi.h and libdwarf's dwarf.h
 * both define DW_EH_PE_* */
#include <dwexpr/adapter_libdwarf.h>
#include <dwarf.h>

#include "../tap.h"

/* ---- the machine: registers 0..16 hold 0x7000 + 0x10 * n, memory
 * 0x7000..0x7fff a pattern with planted values ---- */

static uint8_t mem[0x1000];
static bool reg5_saved;   /* register_location of reg 5 in frame 1: memory 0x7700 */
static uint64_t caller_pc = 0x1050; /* frame 1's pc: a return address in f1 */

static void put64(uint64_t addr, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        mem[addr - 0x7000 + i] = (uint8_t)(v >> (8 * i));
}

/* Every register is 8 bytes. */
static dwexpr_status m_reg_size(void *u, uint32_t regno, uint32_t *bytes)
{
    (void)u;
    if (regno > 16)
        return DWEXPR_E_NOT_FOUND;
    *bytes = 8;
    return DWEXPR_OK;
}

/* Register N of frame 0 holds 0x7000 + 0x10 * N. */
static dwexpr_status m_reg_read(void *u, const dwexpr_regref *r, uint64_t off, void *buf,
                                size_t len)
{
    (void)u;
    if (r->regno > 16 || off + len > 8)
        return DWEXPR_E_TARGET;
    uint64_t v = 0x7000 + 0x10 * (uint64_t)r->regno;
    for (size_t i = 0; i < len; i++)
        ((uint8_t *)buf)[i] = (uint8_t)(v >> (8 * (off + i)));
    return DWEXPR_OK;
}

/* Memory 0x7000..0x7fff. */
static dwexpr_status m_mem_read(void *u, const dwexpr_memref *m, void *buf, size_t len)
{
    (void)u;
    if (m->aspace != 0 || m->address < 0x7000 || m->address + len > 0x8000)
        return DWEXPR_E_TARGET;
    memcpy(buf, mem + (m->address - 0x7000), len);
    return DWEXPR_OK;
}

/* The CFA of every frame: 0x7800. */
static dwexpr_status m_cfa(void *u, const dwexpr_frameref *f, dwexpr_sld *out)
{
    (void)u;
    (void)f;
    memset(out, 0, sizeof *out);
    out->kind = DWEXPR_LOC_MEMORY;
    out->byte_offset = 0x7800;
    return DWEXPR_OK;
}

/* Frame 0 runs callee, frame 1 returns into f1 at 0x1050 (caller_pc). */
static dwexpr_status m_frame_pc(void *u, const dwexpr_frameref *f, uint64_t *pc)
{
    (void)u;
    if (f->frame > 1)
        return DWEXPR_E_NOT_FOUND;
    *pc = f->frame == 0 ? 0x8010 : caller_pc; /* callee, called from f1 */
    return DWEXPR_OK;
}

/* Frame 1's registers: "same value" (frame 0's), or reg 5 saved in memory. */
static dwexpr_status m_register_location(void *u, const dwexpr_frameref *f, uint32_t regno,
                                         dwexpr_sld *out)
{
    (void)u;
    memset(out, 0, sizeof *out);
    if (f->frame == 1 && regno == 5 && reg5_saved) {
        out->kind = DWEXPR_LOC_MEMORY;
        out->byte_offset = 0x7700;
        return DWEXPR_OK;
    }
    out->kind = DWEXPR_LOC_REGISTER;
    out->u.regno = regno;
    out->ctx = DWEXPR_CTX_FRAME;
    out->frame = f->frame ? f->frame - 1 : 0;
    return DWEXPR_OK;
}

static const dwexpr_target machine = {
    .size = sizeof(dwexpr_target),
    .reg_size = m_reg_size,
    .reg_read = m_reg_read,
    .mem_read = m_mem_read,
    .cfa = m_cfa,
    .frame_pc = m_frame_pc,
    .register_location = m_register_location,
};

/* ---- helpers ---- */

static dwexpr_libdwarf *ld;
static size_t U, U4;   /* the units of attrs.c (DWARF 5) and old.c (DWARF 4) */

static const dwexpr_libdwarf_var *var(const char *name)
{
    for (size_t i = 0; i < dwexpr_libdwarf_var_count(ld); i++) {
        const dwexpr_libdwarf_var *v = dwexpr_libdwarf_var_get(ld, i);
        if (strcmp(v->name, name) == 0)
            return v;
    }
    return NULL;
}

/* The DIE named NAME (with TAG, 0: any) in unit 0. */
static uint64_t die(const char *name, uint16_t tag)
{
    uint64_t off = 0;
    if (dwexpr_libdwarf_find_die(ld, U, name, tag, &off) != DWEXPR_OK)
        printf("# no DIE %s\n", name);
    return off;
}

/* Child INDEX with TAG of PARENT. */
static uint64_t child(uint64_t parent, uint16_t tag, size_t index)
{
    uint64_t off = 0;
    if (dwexpr_libdwarf_child_die(ld, U, parent, tag, index, &off) != DWEXPR_OK)
        printf("# no child 0x%x of 0x%llx\n", tag, (unsigned long long)parent);
    return off;
}

/* The focus: frame 0 at PC. */
static dwexpr_eval_params at_pc(uint64_t pc)
{
    dwexpr_eval_params p;
    memset(&p, 0, sizeof p);
    p.has_pc = true;
    p.pc = pc;
    p.ctx = DWEXPR_CTX_FRAME;
    return p;
}

/* A memory location at ADDR (for containing objects and descriptors). */
static dwexpr_sld mem_sld(uint64_t addr)
{
    dwexpr_sld s;
    memset(&s, 0, sizeof s);
    s.kind = DWEXPR_LOC_MEMORY;
    s.byte_offset = addr;
    return s;
}

/* Check that R is one place of KIND at OFF_OR_REG. */
static void check_one(const dwexpr_result *r, int kind, uint64_t off_or_reg, const char *what)
{
    bool ok = r->kind == DWEXPR_RESULT_LOCATION && r->loc.count == 1 &&
              r->loc.slds[0].kind == kind;
    uint64_t got = !ok ? 0
                   : kind == DWEXPR_LOC_REGISTER ? r->loc.slds[0].u.regno
                                                 : r->loc.slds[0].byte_offset;
    TAP_OK(ok && got == off_or_reg, "%s", what);
    if (!(ok && got == off_or_reg))
        printf("#   kind %d count %u value 0x%llx, want kind %d 0x%llx\n",
               r->loc.count ? r->loc.slds[0].kind : -1, r->loc.count,
               (unsigned long long)got, kind, (unsigned long long)off_or_reg);
}

/* Type names of the Fortran unit of attrs.S in GDB's Fortran notation, a
 * case per rule of its printer (f-typeprint.c). Each spelling is the one
 * GDB 13 prints for the same DWARF (str(symbol.type) with the language set
 * to Fortran), but for the lower bound computed at run time, which GDB
 * fails to print. */
static void fortran_types(void)
{
    static const struct {
        const char *var, *want, *rule;
    } cases[] = {
        {"fv_int", "integer(kind=4)", "a base type by its name"},
        {"fv_const", "integer(kind=4)", "const dropped"},
        {"fv_volconst", "integer(kind=4)", "volatile const dropped"},
        {"fv_arr", "integer(kind=4) (5)", "dimensions in parentheses after a space"},
        {"fv_low", "integer(kind=4) (0:4,-1:1)",
         "a lower bound other than 1 written, dimensions in source order"},
        {"fv_row", "integer(kind=4) (2,3)", "DW_ORD_row_major: the dimensions reversed"},
        {"fv_alloc", "real(kind=8), allocatable (:,:)",
         "DW_AT_allocated: allocatable, the rank only"},
        {"fv_shape", "real(kind=8) (:)", "DW_AT_data_location computed: the rank only"},
        {"fv_dynup", "integer(kind=4) (1)",
         "an upper bound computed at run time: the lower bound (f77_get_upperbound)"},
        {"fv_dynlow", "integer(kind=4) (:,2)",
         "a lower bound computed at run time: ':' (GDB fails)"},
        {"fv_star", "integer(kind=4) (3,*)", "no upper bound: '*' (assumed size)"},
        {"fv_gone", "integer(kind=4) (*)",
         "an upper bound referring to a DIE without a location: '*'"},
        {"fv_sext", "integer(kind=4) (-2:2)",
         "a DW_FORM_data1 bound sign-extended from a signed 1-byte subrange type"},
        {"fv_count", "integer(kind=4) (0:3)", "DW_AT_count: upper = lower + count - 1"},
        {"fv_arrarr", "integer(kind=4) (3,2)", "an array of arrays: the element's dimensions first"},
        {"fv_ranked", "real(kind=8) (:)", "assumed rank (DW_TAG_generic_subrange): one dimension"},
        {"fv_ptr", "PTR TO -> ( integer(kind=4) )", "a pointer"},
        {"fv_ptrarr", "PTR TO -> ( integer(kind=4) (5) )", "a pointer to an array"},
        {"fv_node", "Type node", "a derived type"},
        {"fv_union", "Type, C_Union :: u", "a union"},
        {"fv_pnode", "PTR TO -> ( Type node )", "a pointer to a derived type"},
        {"fv_nodes", "Type node (2)", "an array of a derived type"},
        {"fv_c13", "character*13", "a constant DW_AT_string_length"},
        {"fv_cstar", "character*(*)", "a DW_AT_string_length computed at run time"},
        {"fv_cgone", "character*1",
         "a DW_AT_string_length referring to a DIE without a location: 1"},
        {"fv_names", "character*6 (3)", "an array of DW_AT_byte_size 6 strings"},
        {"fv_fp", "PTR TO -> ( real(kind=8) () (void) )",
         "a procedure pointer without arguments: (void)"},
        {"fv_ps", "PTR TO -> ( void () (REF TO -> ( integer(kind=4) ), REF TO -> ( real(kind=8) (:) )) )",
         "a subroutine pointer: its arguments (references) spelled in full"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const dwexpr_libdwarf_var *v = var(cases[i].var);
        const char *got = v && v->type_name ? v->type_name : "(none)";
        TAP_OK(strcmp(got, cases[i].want) == 0, "Fortran %s: %s is %s (got %s)", cases[i].rule,
               cases[i].var, cases[i].want, got);
    }
}

/* Open argv[1] and check it all (TAP). */
/* GDB's tail call frames on the hand-written call graph of tailcalls.S
 * (see there): the frames between t_caller, returning to RET, and
 * t_leaf, as return pcs of tail call sites, youngest first. */
static void tail_case(dwexpr_libdwarf *tl, uint64_t ret, const uint64_t *want, size_t nwant,
                      const char *what)
{
    uint64_t pcs[8] = {0};
    size_t n = dwexpr_libdwarf_tail_frames(tl, ret, 0x9450, pcs, 8);
    bool ok = n == nwant;
    for (size_t i = 0; ok && i < n; i++)
        ok = pcs[i] == want[i];
    TAP_OK(ok, "tail call frames, caller returning to 0x%llx: %s (got %zu: 0x%llx 0x%llx)",
           (unsigned long long)ret, what, n, (unsigned long long)pcs[0],
           (unsigned long long)pcs[1]);
}

static void tail_calls(const char *path)
{
    dwexpr_libdwarf *tl;
    dwexpr_error err;
    if (dwexpr_libdwarf_open(path, 0, &tl, &err) != DWEXPR_OK) {
        TAP_OK(false, "open %s: %s", path, err.message);
        return;
    }
    static const uint64_t start[] = {0x9110}, end[] = {0x9310}, both[] = {0x9310, 0x9810};
    tail_case(tl, 0x9010, start, 1, "two paths with a common start: t_top's jump");
    tail_case(tl, 0x9020, NULL, 0, "a direct call: none");
    tail_case(tl, 0x9030, NULL, 0, "two paths with nothing in common: none");
    tail_case(tl, 0x9040, end, 1, "two paths with a common end: t_n's jump");
    tail_case(tl, 0x9050, NULL, 0, "a tail call to an unknown target besides a path: none");
    tail_case(tl, 0x9060, NULL, 0, "a function that does not list all its calls: none");
    tail_case(tl, 0x9070, end, 1, "the caller names a declaration: the function of that name");
    tail_case(tl, 0x9080, NULL, 0, "an indirect tail call (DW_AT_call_target) besides a path: none");
    tail_case(tl, 0x9090, both, 2, "one path: all of it, youngest first");
    static const uint64_t last[] = {0x9b20};
    tail_case(tl, 0x90a0, last, 1,
              "a function that may jump to itself first: the common end, its jump to t_leaf");
    static const uint64_t ext[] = {0x9c20};
    tail_case(tl, 0x90b0, ext, 1,
              "a jump to a library's function (a declaration of no function here) beside "
              "one to t_leaf: that one");
    tail_case(tl, 0x90c0, NULL, 0,
              "the caller names a declaration two functions have the name of: none");
    static const uint64_t sym[] = {0x9f10};
    tail_case(tl, 0x90d0, sym, 1,
              "the caller names a declaration whose name only an ELF symbol has: the "
              "function at its address");
    tail_case(tl, 0x9011, NULL, 0, "no call site returns there: none");
    TAP_OK(dwexpr_libdwarf_tail_frames(tl, 0x9010, 0x1, NULL, 0) == 0 &&
               dwexpr_libdwarf_tail_frames(NULL, 0x9010, 0x9450, NULL, 0) == 0 &&
               dwexpr_libdwarf_tail_frames_across(NULL, 0x9010, tl, 0x9450, NULL, 0) == 0 &&
               dwexpr_libdwarf_tail_frames_across(tl, 0x9010, NULL, 0x9450, NULL, 0) == 0,
           "tail call frames: a callee pc in no function, or no DWARF: none");
    uint64_t one;
    TAP_OK(dwexpr_libdwarf_tail_frames(tl, 0x9090, 0x9450, &one, 1) == 2 && one == 0x9310,
           "tail call frames: the count of all, the first CAP of them given");
    dwexpr_libdwarf_close(tl);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("1..0 # SKIP no attrs binary given\n");
        return 0;
    }
    dwexpr_error err;
    if (dwexpr_libdwarf_open(argv[1], 0, &ld, &err) != DWEXPR_OK) {
        printf("not ok 1 - open %s: %s\n1..1\n", argv[1], err.message);
        return 1;
    }
    for (int i = 0; i < 0x1000; i++)
        mem[i] = (uint8_t)i;
    put64(0x7100, 0x7200);      /* descriptor: data pointer */
    mem[0x108] = 3;             /* descriptor: upper bound (u32) */
    mem[0x109] = mem[0x10a] = mem[0x10b] = 0;
    put64(0x7110, (uint64_t)-16); /* descriptor: byte stride (desc_strided) */
    put64(0x7300, 0x7400);      /* object: vtable pointer */
    mem[0x50] = 42;             /* string length at reg5 = 0x7050 (u32) */
    mem[0x51] = mem[0x52] = mem[0x53] = 0;
    mem[0x600] = 5;             /* n_elems */
    mem[0x601] = mem[0x602] = mem[0x603] = 0;
    put64(0x7700, 0x99);        /* reg 5 of frame 1 when saved */

    /* units (DWARF 5 and 4; a sanitizer runtime may add its own) */
    U = U4 = SIZE_MAX;
    for (size_t i = 0; i < dwexpr_libdwarf_unit_count(ld); i++) {
        const char *n = dwexpr_libdwarf_unit_get(ld, i)->name;
        if (n && strcmp(n, "attrs.c") == 0)
            U = i;
        else if (n && strcmp(n, "old.c") == 0)
            U4 = i;
    }
    TAP_OK(U != SIZE_MAX && U4 != SIZE_MAX, "units attrs.c and old.c");
    if (U == SIZE_MAX || U4 == SIZE_MAX)
        return TAP_DONE();
    const dwexpr_libdwarf_unit *u0 = dwexpr_libdwarf_unit_get(ld, U);
    const dwexpr_libdwarf_unit *u1 = dwexpr_libdwarf_unit_get(ld, U4);
    TAP_OK(u0 && u0->unit.version == 5 && u0->unit.addr_size == 8 && u0->unit.offset_size == 4 &&
               u0->unit.id == U && u0->base_address == 0x1000,
           "attrs.c: DWARF 5, 8-byte addresses, 32-bit DWARF, base 0x1000");
    TAP_OK(u1 && u1->unit.version == 4 && u1->unit.id == U4 && u1->base_address == 0x3000,
           "old.c: DWARF 4, base 0x3000");
    /* DW_AT_language (by which names and types are spelled): 0 without
     * one, ftypes.f90's DW_LANG_Fortran90, 0 past the last unit */
    uint64_t flang = UINT64_MAX;
    for (size_t i = 0; i < dwexpr_libdwarf_unit_count(ld); i++) {
        const char *n = dwexpr_libdwarf_unit_get(ld, i)->name;
        if (n && strcmp(n, "ftypes.f90") == 0)
            flang = dwexpr_libdwarf_unit_language(ld, i);
    }
    TAP_OK(dwexpr_libdwarf_unit_language(ld, U) == 0 && flang == 0x08 &&
               dwexpr_libdwarf_unit_language(ld, dwexpr_libdwarf_unit_count(ld)) == 0,
           "unit languages: attrs.c none, ftypes.f90 DW_LANG_Fortran90 (got %llu)",
           (unsigned long long)flang);

    /* base types */
    const dwexpr_libdwarf_base_type *bt;
    size_t nbt = dwexpr_libdwarf_base_types(ld, U, &bt);
    CHECK_U64(nbt, 6, "six base types");
    for (size_t i = 0; i < nbt; i++) {
        const dwexpr_type *t = &bt[i].type;
        if (strcmp(bt[i].name, "be_u32") == 0)
            TAP_OK(t->bits == 32 && t->encoding == DW_ATE_unsigned && t->endian == DW_END_big,
                   "be_u32: DW_AT_endianity big");
        else if (strcmp(bt[i].name, "v4f") == 0)
            TAP_OK(t->bits == 32 && t->lanes == 4 && t->encoding == DW_ATE_float,
                   "v4f: DW_AT_LLVM_vector_size 0x3e13 gives 4 lanes");
        else if (strcmp(bt[i].name, "v2i") == 0)
            TAP_OK(t->lanes == 2, "v2i: the seed's code 0x3e0c gives 2 lanes");
        else if (strcmp(bt[i].name, "int") == 0)
            TAP_OK(t->bits == 32 && t->encoding == DW_ATE_signed && t->lanes == 1, "int");
    }

    /* every DW_LLE kind, resolved */
    const dwexpr_libdwarf_var *vl = var("v_list");
    static const uint64_t want[][2] = {{0x1000, 0x1010}, {0x2000, 0x2010}, {0x3010, 0x3020},
                                       {0x4000, 0x4010}, {0x4100, 0x4108}, {0x5000, 0x5010},
                                       {0x6000, 0x6010}};
    static const uint16_t kinds[] = {4, 4, 4, 2, 3, 7, 8, 5};
    TAP_OK(vl && vl->loc.kind == DWEXPR_LIBDWARF_ATTR_LIST && vl->loc.count == 8,
           "v_list: 8 entries (base_address and base_addressx apply, end_of_list ends)");
    if (vl && vl->loc.count == 8) {
        bool ok = true;
        for (int i = 0; i < 7; i++)
            ok &= !vl->loc.entries[i].is_default && vl->loc.entries[i].low == want[i][0] &&
                  vl->loc.entries[i].high == want[i][1];
        ok &= vl->loc.entries[7].is_default;
        for (int i = 0; i < 8; i++)
            ok &= vl->loc.raw[i].kind == kinds[i];
        TAP_OK(ok, "v_list: offset_pair, base_address, base_addressx, startx_endx, "
                   "startx_length, start_end, start_length, default_location");
    }
    const dwexpr_libdwarf_var *vo = var("v_old");
    TAP_OK(vo && vo->loc.kind == DWEXPR_LIBDWARF_ATTR_LIST && vo->loc.count == 2 &&
               vo->loc.entries[0].low == 0x3010 && vo->loc.entries[0].high == 0x3020 &&
               vo->loc.entries[1].low == 0x5000 && vo->loc.entries[1].high == 0x5008,
           "DWARF 4 .debug_loc: unit base, then a base address selection entry");
    const dwexpr_libdwarf_var *vv = var("v_view");
    TAP_OK(vv && vv->loc.count == 1 && vv->loc.entries[0].low == 0x7000,
           "gcc's DW_LLE_GNU_view_pair is skipped");

    /* const values in every form, bytes in target order; a fixed-size
     * data form zero-extended to its type's size (c_data2: 0xfffe for an
     * int is 65534, as GDB reads it and as GCC means it: it writes a
     * negative constant as sdata), sdata and implicit_const sign-extended */
    static const struct {
        const char *name, *hex;
    } consts[] = {{"c_data1", "fe"}, {"c_data2", "feff0000"}, {"c_data4", "78563412"},
                  {"c_data8", "8877665544332211"}, {"c_sdata", "fbffffff"},
                  {"c_udata", "2c010000"}, {"c_block", "010203"},
                  {"c_data16", "000102030405060708090a0b0c0d0e0f"}, {"c_string", "686900"},
                  {"c_implicit", "f9ffffff"}};
    for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++) {
        const dwexpr_libdwarf_var *v = var(consts[i].name);
        char hex[80] = "";
        for (size_t k = 0; v && k < v->loc.len && k < 32; k++)
            snprintf(hex + 2 * k, sizeof hex - 2 * k, "%02x", v->loc.data[k]);
        CHECK_STR(hex, consts[i].hex, "DW_AT_const_value %s", consts[i].name);
    }

    /* ---- evaluation ---- */
    dwexpr_target t;
    dwexpr_libdwarf_binding *b = NULL;
    dwexpr_ctx *ctx = NULL;
    TAP_OK(dwexpr_libdwarf_target(ld, &machine, NULL, &t, &b) == DWEXPR_OK &&
               dwexpr_ctx_new(NULL, &ctx) == DWEXPR_OK,
           "binding and context");
    dwexpr_result r;
    dwexpr_eval_params p = at_pc(0x2008);
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, vl->die, &p, &r, &err) == DWEXPR_OK, "v_list at 0x2008");
    check_one(&r, DWEXPR_LOC_REGISTER, 1, "v_list at 0x2008: register 1");
    p = at_pc(0x4104);
    dwexpr_libdwarf_eval_location(b, ctx, U, vl->die, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_REGISTER, 4, "v_list at 0x4104: register 4 (startx_length)");
    p = at_pc(0x9999);
    dwexpr_libdwarf_eval_location(b, ctx, U, vl->die, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_REGISTER, 7, "v_list at 0x9999: the default entry");
    p = at_pc(0x1090);
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, var("v_over")->die, &p, &r, &err) == DWEXPR_OK &&
               r.loc.count == 2 && r.loc.slds[0].u.regno == 0 && r.loc.slds[1].u.regno == 1,
           "v_over at 0x1090: overlapping entries give two places");
    p = at_pc(0x1300);
    dwexpr_libdwarf_eval_location(b, ctx, U, var("v_over")->die, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_UNDEFINED, 0, "v_over at 0x1300: no match, the undefined location");
    /* a failing list entry: the error names the entry's own operation and
     * offset (not an internal DW_OP_call_ref), one match or several */
    const dwexpr_libdwarf_var *vb = var("v_bad");
    p = at_pc(0x1068);
    dwexpr_libdwarf_eval_location(b, ctx, U, vb->die, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_REGISTER, 0, "v_bad at 0x1068: register 0");
    p = at_pc(0x10a4);
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, vb->die, &p, &r, &err) == DWEXPR_E_DIV_ZERO &&
               err.status == DWEXPR_E_DIV_ZERO && err.offset == 3 && err.opcode == 0x1b &&
               err.op_name && strcmp(err.op_name, "DW_OP_div") == 0 &&
               strcmp(err.message, "division by zero") == 0,
           "v_bad at 0x10a4 (one entry): the error is the entry's DW_OP_div at 3 (got %lld %s: %s)",
           (long long)err.offset, err.op_name ? err.op_name : "-", err.message);
    p = at_pc(0x1078);
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, vb->die, &p, &r, &err) == DWEXPR_E_DIV_ZERO &&
               err.status == DWEXPR_E_DIV_ZERO && err.offset == 2 && err.opcode == 0x1b &&
               err.op_name && strcmp(err.op_name, "DW_OP_div") == 0,
           "v_bad at 0x1078 (two entries, the second fails): its DW_OP_div at 2 (got %lld %s: %s)",
           (long long)err.offset, err.op_name ? err.op_name : "-", err.message);
    memset(&p, 0, sizeof p);
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, vl->die, &p, &r, &err) == DWEXPR_E_NO_CONTEXT &&
               dwexpr_status_class(err.status) == DWEXPR_CLASS_CONTEXT,
           "a location list without a pc: class context");
    p = at_pc(0x3018);
    dwexpr_libdwarf_eval_location(b, ctx, U4, vo->die, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_REGISTER, 0, "v_old (DWARF 4) at 0x3018: register 0");

    p = at_pc(0x1000);
    dwexpr_libdwarf_eval_location(b, ctx, U, var("v_addrx")->die, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_MEMORY, 0x4000, "DW_OP_addrx 1 through DW_AT_addr_base");
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, var("v_constx")->die, &p, &r, &err) == DWEXPR_OK &&
               r.loc.count == 1 && r.loc.slds[0].kind == DWEXPR_LOC_IMPLICIT &&
               r.loc.slds[0].u.imp.data[0] == 0x10 && r.loc.slds[0].u.imp.data[1] == 0x40,
           "DW_OP_constx 2: the value 0x4010");
    dwexpr_libdwarf_eval_location(b, ctx, U, var("v_call")->die, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_MEMORY, 0x7058, "DW_OP_call4 runs the procedure (breg5 8)");
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, var("v_iptr")->die, &p, &r, &err) == DWEXPR_OK &&
               r.loc.count == 1 && r.loc.slds[0].kind == DWEXPR_LOC_IMPLICIT_POINTER &&
               r.loc.slds[0].u.ptr.die == var("c_data4")->die && r.loc.slds[0].u.ptr.disp == 1,
           "DW_OP_implicit_pointer: the DIE of c_data4, displacement 1");
    uint8_t rb[4];
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, var("c_data4")->die, &p, &r, &err) == DWEXPR_OK &&
               dwexpr_loc_read(ctx, &t, b, &r.loc, 32, rb, NULL) == DWEXPR_OK && rb[0] == 0x78 &&
               rb[3] == 0x12,
           "DW_AT_const_value as a location: implicit storage in target order");
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, var("v_conv")->die, &p, &r, &err) == DWEXPR_OK &&
               r.loc.slds[0].kind == DWEXPR_LOC_IMPLICIT && r.loc.slds[0].u.imp.bits == 32 &&
               r.loc.slds[0].u.imp.data[0] == 0xfb && r.loc.slds[0].u.imp.data[1] == 0,
           "DW_OP_convert through the base_type service (uchar 0xfb to int 251)");

    /* DW_AT_frame_base */
    uint64_t f1 = die("f1", 0x2e), f2 = die("f2", 0x2e);
    p = at_pc(0x1010);
    dwexpr_libdwarf_eval_frame_base(b, ctx, U, f1, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_MEMORY, 0x7060, "frame base DW_OP_reg6 becomes DW_OP_bregx 6 0");
    p = at_pc(0x2010);
    dwexpr_libdwarf_eval_frame_base(b, ctx, U, f2, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_MEMORY, 0x7800, "frame base DW_OP_call_frame_cfa");
    TAP_OK(dwexpr_libdwarf_eval_frame_base(b, ctx, U, die("f3", 0x2e), &p, &r, &err) ==
               DWEXPR_E_ILL_FORMED,
           "a frame base with DW_OP_fbreg is ill-formed");

    /* DW_AT_static_link, DW_AT_return_addr */
    p = at_pc(0x1010);
    dwexpr_libdwarf_eval_static_link(b, ctx, U, f1, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_MEMORY, 0x7070, "static link: breg6 16");
    dwexpr_libdwarf_eval_return_addr(b, ctx, U, f1, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_MEMORY, 0x7078, "return address: breg7 8");
    TAP_OK(dwexpr_libdwarf_eval_return_addr(b, ctx, U, f2, &p, &r, &err) == DWEXPR_E_ILL_FORMED,
           "a register return address is ill-formed");

    /* DW_AT_data_member_location on memory, registers and composites */
    dwexpr_sld cont = mem_sld(0x7000);
    dwexpr_loc cl = {1, &cont};
    uint64_t m_const = die("m_const", 0x0d), m_llvm = die("m_llvm", 0x0d);
    uint64_t m_plus = die("m_plus", 0x0d), m_bits = die("m_bits", 0x0d);
    dwexpr_libdwarf_eval_member_location(b, ctx, U, m_const, &cl, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_MEMORY, 0x7004, "member constant 4 on memory 0x7000");
    dwexpr_libdwarf_eval_member_location(b, ctx, U, m_plus, &cl, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_MEMORY, 0x700c, "member DW_OP_plus_uconst 12 on memory");
    dwexpr_sld reg;
    memset(&reg, 0, sizeof reg);
    reg.kind = DWEXPR_LOC_REGISTER;
    reg.u.regno = 3;
    dwexpr_loc rl = {1, &reg};
    TAP_OK(dwexpr_libdwarf_eval_member_location(b, ctx, U, m_const, &rl, &p, &r, &err) == DWEXPR_OK &&
               r.loc.slds[0].kind == DWEXPR_LOC_REGISTER && r.loc.slds[0].u.regno == 3 &&
               r.loc.slds[0].byte_offset == 4,
           "member constant 4 on register 3: byte 4 of the register");
    TAP_OK(dwexpr_libdwarf_eval_member_location(b, ctx, U, m_llvm, &rl, &p, &r, &err) == DWEXPR_OK &&
               r.loc.slds[0].kind == DWEXPR_LOC_REGISTER && r.loc.slds[0].byte_offset == 2,
           "member DW_OP_LLVM_offset_uconst 2 on a register (seed: register storage)");
    /* DWARF 2's constant displacements (DW_OP_plus_uconst N alone,
     * DW_OP_constu N / DW_OP_litN then DW_OP_plus) are the constant case
     * (DW_OP_LLVM_offset N), as GDB reads them: a register holds them;
     * any other expression is evaluated (the seed's plus_uconst takes a
     * value, a register location is none) */
    uint64_t m_cplus = die("m_cplus", 0x0d), m_lplus = die("m_lplus", 0x0d);
    uint64_t m_dup = die("m_dup", 0x0d);
    dwexpr_libdwarf_member mi;
    TAP_OK(dwexpr_libdwarf_eval_member_location(b, ctx, U, m_plus, &rl, &p, &r, &err) ==
               DWEXPR_E_BAD_OFFSET,
           "member DW_OP_plus_uconst 12 on 8-byte register 3: past its end (an offset)");
    TAP_OK(dwexpr_libdwarf_eval_member_location(b, ctx, U, m_cplus, &rl, &p, &r, &err) == DWEXPR_OK &&
               r.loc.slds[0].kind == DWEXPR_LOC_REGISTER && r.loc.slds[0].u.regno == 3 &&
               r.loc.slds[0].byte_offset == 4,
           "member DW_OP_constu 4; DW_OP_plus on register 3: byte 4 of the register");
    TAP_OK(dwexpr_libdwarf_eval_member_location(b, ctx, U, m_lplus, &rl, &p, &r, &err) == DWEXPR_OK &&
               r.loc.slds[0].kind == DWEXPR_LOC_REGISTER && r.loc.slds[0].byte_offset == 6,
           "member DW_OP_lit6; DW_OP_plus on register 3: byte 6 of the register");
    dwexpr_libdwarf_eval_member_location(b, ctx, U, m_lplus, &cl, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_MEMORY, 0x7006, "member DW_OP_lit6; DW_OP_plus on memory 0x7000");
    TAP_OK(dwexpr_libdwarf_eval_member_location(b, ctx, U, m_dup, &rl, &p, &r, &err) ==
               DWEXPR_E_NOT_VALUE && dwexpr_status_class(DWEXPR_E_NOT_VALUE) == DWEXPR_CLASS_ILL_FORMED,
           "member DW_OP_dup; DW_OP_drop; DW_OP_plus_uconst 4 on a register is ill-formed");
    dwexpr_libdwarf_eval_member_location(b, ctx, U, m_dup, &cl, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_MEMORY, 0x7004, "member DW_OP_dup; DW_OP_drop; DW_OP_plus_uconst 4 on memory");
    TAP_OK(dwexpr_libdwarf_member_get(ld, U, m_plus, &mi) == DWEXPR_OK && mi.offset_known &&
               mi.offset == 12,
           "member_get: DW_OP_plus_uconst 12 is offset 12");
    TAP_OK(dwexpr_libdwarf_member_get(ld, U, m_cplus, &mi) == DWEXPR_OK && mi.offset_known &&
               mi.offset == 4,
           "member_get: DW_OP_constu 4; DW_OP_plus is offset 4");
    TAP_OK(dwexpr_libdwarf_member_get(ld, U, m_dup, &mi) == DWEXPR_OK && !mi.offset_known,
           "member_get: DW_OP_dup; DW_OP_drop; DW_OP_plus_uconst 4 has no fixed offset");
    TAP_OK(dwexpr_libdwarf_member_get(ld, U, m_bits, &mi) == DWEXPR_OK && mi.offset_known &&
               mi.offset == 0,
           "member_get: DW_AT_data_bit_offset alone: byte offset 0 (the bits come on top)");
    TAP_OK(dwexpr_libdwarf_eval_member_location(b, ctx, U, m_bits, &cl, &p, &r, &err) == DWEXPR_OK &&
               r.loc.slds[0].byte_offset == 0x700c && r.loc.slds[0].bit == 4,
           "member DW_AT_data_bit_offset 100: byte 12, bit 4");
    /* dwexpr_libdwarf_member_get: what a member listing needs */
    TAP_OK(dwexpr_libdwarf_member_get(ld, U, m_bits, &mi) == DWEXPR_OK && mi.tag == 0x0d &&
               mi.name && strcmp(mi.name, "m_bits") == 0 && mi.bit_field && mi.bit_size == 3 &&
               !mi.has_bit_offset && mi.type && mi.type_name && strcmp(mi.type_name, "int") == 0,
           "member_get: m_bits, int, a 3-bit bit-field");
    TAP_OK(dwexpr_libdwarf_member_get(ld, U, m_const, &mi) == DWEXPR_OK && !mi.bit_field &&
               mi.offset_known && mi.offset == 4 &&
               mi.bit_size == 32 && mi.storage_bytes == 4,
           "member_get: m_const is a whole int (32 bits, its type's size)");
    TAP_OK(dwexpr_libdwarf_member_get(ld, U, 0x7fffffff, &mi) == DWEXPR_E_NOT_FOUND,
           "member_get: no DIE there is E_NOT_FOUND");
    TAP_OK(dwexpr_libdwarf_member_get(ld, U, m_const, NULL) == DWEXPR_E_USAGE &&
               dwexpr_libdwarf_member_get(NULL, U, m_const, &mi) == DWEXPR_E_USAGE,
           "member_get: NULL arguments are E_USAGE");
    /* a composite: 4 bytes of register 1, then 4 bytes of memory 0x7010 */
    dwexpr_sld pr1, pm;
    memset(&pr1, 0, sizeof pr1);
    pr1.kind = DWEXPR_LOC_REGISTER;
    pr1.u.regno = 1;
    pm = mem_sld(0x7010);
    dwexpr_part parts[2] = {{32, {1, &pr1}}, {32, {1, &pm}}};
    dwexpr_composite comp;
    memset(&comp, 0, sizeof comp);
    comp.count = comp.cap = 2;
    comp.complete = true;
    comp.depth = 1;
    comp.bits = 64;
    comp.parts = parts;
    dwexpr_sld cs;
    memset(&cs, 0, sizeof cs);
    cs.kind = DWEXPR_LOC_COMPOSITE;
    cs.u.comp = &comp;
    dwexpr_loc csl = {1, &cs};
    uint8_t mb[4];
    TAP_OK(dwexpr_libdwarf_eval_member_location(b, ctx, U, m_const, &csl, &p, &r, &err) == DWEXPR_OK &&
               dwexpr_loc_read(ctx, &t, b, &r.loc, 32, mb, NULL) == DWEXPR_OK && mb[0] == 0x10 &&
               mb[1] == 0x11,
           "member constant 4 on a composite reads the second piece (memory 0x7010)");

    /* DW_AT_data_location, dynamic bounds */
    uint64_t desc = die("desc_arr", 0x01);
    dwexpr_sld d0 = mem_sld(0x7100);
    dwexpr_loc dl = {1, &d0};
    dwexpr_libdwarf_eval_data_location(b, ctx, U, desc, &dl, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_MEMORY, 0x7200, "data location: the descriptor's data pointer");
    dwexpr_ctx *ctx2 = NULL;
    dwexpr_ctx_new(NULL, &ctx2);
    uint64_t bytes = 0;
    TAP_OK(dwexpr_libdwarf_type_size(b, ctx2, U, desc, &dl, &p, &bytes, &err) == DWEXPR_OK &&
               bytes == 12,
           "upper bound from the descriptor (3), lower bound 1: 12 bytes (got %llu)",
           (unsigned long long)bytes);
    int64_t bound = 0;
    uint64_t sub = child(desc, 0x21, 0);
    TAP_OK(dwexpr_libdwarf_eval_bound(b, ctx2, U, sub, DW_AT_upper_bound, &dl, &p, &bound, &err) ==
                   DWEXPR_OK && bound == 3,
           "DW_AT_upper_bound expression with DW_OP_push_object_address");
    TAP_OK(dwexpr_libdwarf_eval_bound(b, ctx2, U, sub, DW_AT_lower_bound, &dl, &p, &bound, &err) ==
                   DWEXPR_OK && bound == 1,
           "DW_AT_lower_bound constant");

    /* strides (DWARF 5 5.5, 5.13): a dimension with a stride spans |stride|
     * x count, rounded up to bytes (GDB's size of a strided array) */
    dwexpr_libdwarf_type_info ati;
    dwexpr_libdwarf_dim dim;
    uint64_t strided = die("strided", 0x01), packed = die("packed", 0x01);
    TAP_OK(dwexpr_libdwarf_type_get(ld, U, strided, &ati) == DWEXPR_OK && ati.bytes == 32 &&
               strcmp(ati.name, "int [4]") == 0,
           "4 ints with DW_AT_byte_stride 8: int [4], 32 bytes (got %s, %llu)", ati.name,
           (unsigned long long)ati.bytes);
    TAP_OK(dwexpr_libdwarf_array_dim(b, ctx2, U, strided, 0, NULL, &p, &dim, &err) == DWEXPR_OK &&
               dim.lower == 0 && dim.has_count && dim.count == 4 && dim.stride_bits == 64 &&
               dim.innermost && dim.die == child(strided, 0x21, 0),
           "array_dim: lower 0 (C), 4 elements 64 bits apart");
    TAP_OK(dwexpr_libdwarf_type_get(ld, U, packed, &ati) == DWEXPR_OK && ati.bytes == 3,
           "6 uchars with the array type's DW_AT_bit_stride 4: 3 bytes (got %llu)",
           (unsigned long long)ati.bytes);
    TAP_OK(dwexpr_libdwarf_array_dim(b, ctx2, U, packed, 0, NULL, &p, &dim, &err) == DWEXPR_OK &&
               dim.count == 6 && dim.stride_bits == 4,
           "array_dim: the array type's bit stride is the innermost dimension's");
    TAP_OK(dwexpr_libdwarf_array_dim(b, ctx2, U, packed, 1, NULL, &p, &dim, &err) ==
               DWEXPR_E_NOT_FOUND,
           "array_dim: no second dimension is E_NOT_FOUND");
    uint64_t dstr = die("desc_strided", 0x01);
    TAP_OK(dwexpr_libdwarf_type_get(ld, U, dstr, &ati) == DWEXPR_OK && ati.bytes == 0,
           "a stride computed at run time: no static size");
    TAP_OK(dwexpr_libdwarf_array_dim(b, ctx2, U, dstr, 0, &dl, &p, &dim, &err) == DWEXPR_OK &&
               dim.lower == 1 && dim.count == 3 && dim.stride_bits == -128,
           "array_dim from the descriptor: lower 1, 3 elements, stride -16 bytes (got %lld, "
           "%lld, %lld)", (long long)dim.lower, (long long)dim.count, (long long)dim.stride_bits);
    bytes = 0;
    TAP_OK(dwexpr_libdwarf_type_size(b, ctx2, U, dstr, &dl, &p, &bytes, &err) == DWEXPR_OK &&
               bytes == 48,
           "type_size of the section: |-16| x 3 = 48 bytes (got %llu)", (unsigned long long)bytes);
    TAP_OK(dwexpr_libdwarf_array_dim(b, ctx2, U, dstr, 0, NULL, &p, &dim, &err) != DWEXPR_OK,
           "array_dim without the descriptor: an error");

    /* DW_AT_use_location */
    uint64_t ptm = die("ptm", 0x1f);
    dwexpr_value mp;
    memset(&mp, 0, sizeof mp);
    mp.bits = 0x20;
    dwexpr_sld inst = mem_sld(0x7500);
    dwexpr_loc il = {1, &inst};
    dwexpr_libdwarf_eval_use_location(b, ctx, U, ptm, &mp, &il, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_MEMORY, 0x7520, "use location: instance + pointer to member");

    /* DW_AT_vtable_elem_location */
    uint64_t vfn = die("vfn", 0x2e);
    dwexpr_sld obj = mem_sld(0x7300);
    dwexpr_loc ol = {1, &obj};
    dwexpr_libdwarf_eval_vtable_elem_location(b, ctx, U, vfn, &ol, &p, &r, &err);
    check_one(&r, DWEXPR_LOC_MEMORY, 0x7410, "vtable slot: *object + 16");

    /* DW_AT_string_length, DW_AT_count as a reference */
    uint64_t str = die("str", 0x12);
    TAP_OK(dwexpr_libdwarf_eval_bound(b, ctx2, U, str, DW_AT_string_length, NULL, &p, &bound, &err) ==
                   DWEXPR_OK && bound == 42,
           "string length read through its location (4 bytes)");
    uint64_t vla = die("vla", 0x01);
    bytes = 0;
    TAP_OK(dwexpr_libdwarf_type_size(b, ctx2, U, vla, NULL, &p, &bytes, &err) == DWEXPR_OK &&
               bytes == 20,
           "DW_AT_count referring to a variable (5 ints): 20 bytes (got %llu)",
           (unsigned long long)bytes);

    /* call-site attributes, entry values, parameter_ref */
    uint64_t csp = child(child(f1, 0x48, 0), 0x49, 0);
    dwexpr_eval_params cp = at_pc(0x104f);
    cp.frame = 1;
    TAP_OK(dwexpr_libdwarf_eval_call_attr(b, ctx, U, csp, DW_AT_call_value, &cp, &r, &err) ==
                   DWEXPR_OK && r.kind == DWEXPR_RESULT_VALUE && r.value.bits == 7,
           "DW_AT_call_value: a value (7)");
    TAP_OK(dwexpr_libdwarf_eval_call_attr(b, ctx, U, csp, DW_AT_call_data_value, &cp, &r, &err) ==
                   DWEXPR_OK && r.value.bits == 9,
           "DW_AT_call_data_value: a value (9)");
    dwexpr_libdwarf_eval_call_attr(b, ctx, U, csp, DW_AT_call_data_location, &cp, &r, &err);
    check_one(&r, DWEXPR_LOC_MEMORY, 0x7040, "DW_AT_call_data_location: a location (breg4 0)");

    p = at_pc(0x8010);
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, var("p")->die, &p, &r, &err) == DWEXPR_OK &&
               r.loc.slds[0].kind == DWEXPR_LOC_IMPLICIT && r.loc.slds[0].u.imp.data[0] == 7,
           "entry value of reg 5: 'same value' in the caller, so the call site's 7");
    reg5_saved = true;
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, var("p")->die, &p, &r, &err) == DWEXPR_OK &&
               r.loc.slds[0].u.imp.data[0] == 0x99,
           "entry value of reg 5 saved by the caller: read from the caller frame (0x99)");
    dwexpr_libdwarf_binding_set_entry_policy(b, DWEXPR_LIBDWARF_EV_CALL_SITE_FIRST);
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, var("p")->die, &p, &r, &err) == DWEXPR_OK &&
               r.loc.slds[0].u.imp.data[0] == 7,
           "call-site-first policy: 7 even when the register is saved");
    reg5_saved = false;
    dwexpr_libdwarf_binding_set_entry_policy(b, DWEXPR_LIBDWARF_EV_REGISTER_ONLY);
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, var("p")->die, &p, &r, &err) == DWEXPR_OK &&
               r.loc.slds[0].u.imp.data[0] == 0x50 && r.loc.slds[0].u.imp.data[1] == 0x70,
           "register-only policy: the caller's register (same value 0x7050)");
    dwexpr_libdwarf_binding_set_entry_policy(b, DWEXPR_LIBDWARF_EV_REGISTER_FIRST);
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, var("pr")->die, &p, &r, &err) == DWEXPR_OK &&
               r.loc.slds[0].u.imp.data[0] == 7,
           "DW_OP_GNU_parameter_ref: the call site parameter naming p (7)");
    /* a parameter the call site does not pass, or no call site at all: the
     * value is gone (E_UNDEFINED_READ, as an entry value the caller does
     * not keep; GDB: <optimized out>), not a missing context element */
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, var("pr_gone")->die, &p, &r, &err) ==
                   DWEXPR_E_UNDEFINED_READ &&
               dwexpr_status_class(err.status) == DWEXPR_CLASS_EVALUATION && err.offset == 0 &&
               err.op_name && strcmp(err.op_name, "DW_OP_GNU_parameter_ref") == 0 &&
               strstr(dwexpr_libdwarf_binding_message(b), "does not pass it") != NULL,
           "DW_OP_GNU_parameter_ref of q, which f1's call site does not pass: E_UNDEFINED_READ "
           "(got %s: %s; %s)", dwexpr_status_name(err.status), err.message,
           dwexpr_libdwarf_binding_message(b));
    /* GDB's check: the caller's call site must call the frame's function
     * (else a tail call came in between, and what it passed is another
     * function's) */
    caller_pc = 0x1060;
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, var("p")->die, &p, &r, &err) ==
                   DWEXPR_E_UNDEFINED_READ &&
               strstr(dwexpr_libdwarf_binding_message(b), "calls another function") != NULL,
           "entry value through a call site that calls f2, not callee: E_UNDEFINED_READ "
           "(got %s: %s)", dwexpr_status_name(err.status), dwexpr_libdwarf_binding_message(b));
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, var("pr")->die, &p, &r, &err) ==
                   DWEXPR_E_UNDEFINED_READ &&
               strstr(dwexpr_libdwarf_binding_message(b), "calls another function") != NULL,
           "DW_OP_GNU_parameter_ref through that call site: E_UNDEFINED_READ (got %s: %s)",
           dwexpr_status_name(err.status), dwexpr_libdwarf_binding_message(b));
    caller_pc = 0x1050;
    cp = at_pc(0x104f);
    cp.frame = 1;
    TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, var("pr")->die, &cp, &r, &err) ==
                   DWEXPR_E_UNDEFINED_READ &&
               strstr(dwexpr_libdwarf_binding_message(b), "no call site") != NULL,
           "DW_OP_GNU_parameter_ref in frame 1, whose caller is unknown: E_UNDEFINED_READ "
           "(got %s: %s)", dwexpr_status_name(err.status), err.message);

    /* kept entry values (dwexpr_libdwarf_binding_keep_entry_values): the
     * answers of one stop, until dwexpr_libdwarf_binding_forget, failures
     * with their note */
    {
        dwexpr_libdwarf_binding_keep_entry_values(b, true);
        p = at_pc(0x8010);
        const bool first = dwexpr_libdwarf_eval_location(b, ctx, U, var("p")->die, &p, &r,
                                                         &err) == DWEXPR_OK &&
                           r.loc.slds[0].u.imp.data[0] == 7;
        reg5_saved = true; /* the machine's state changes: kept answers do not see it */
        const bool kept = dwexpr_libdwarf_eval_location(b, ctx, U, var("p")->die, &p, &r,
                                                        &err) == DWEXPR_OK &&
                          r.loc.slds[0].u.imp.data[0] == 7;
        dwexpr_libdwarf_binding_forget(b);
        const bool fresh = dwexpr_libdwarf_eval_location(b, ctx, U, var("p")->die, &p, &r,
                                                         &err) == DWEXPR_OK &&
                           r.loc.slds[0].u.imp.data[0] == 0x99;
        TAP_OK(first && kept && fresh,
               "kept entry value: 7, still 7 after the caller saved reg 5, 0x99 after forget "
               "(%d %d %d)", first, kept, fresh);
        reg5_saved = false;
        dwexpr_libdwarf_binding_forget(b);
        caller_pc = 0x1060;
        const bool failed = dwexpr_libdwarf_eval_location(b, ctx, U, var("p")->die, &p, &r,
                                                          &err) == DWEXPR_E_UNDEFINED_READ;
        caller_pc = 0x1050;
        cp = at_pc(0x104f);
        cp.frame = 1;
        const bool other = dwexpr_libdwarf_eval_location(b, ctx, U, var("pr")->die, &cp, &r,
                                                         &err) == DWEXPR_E_UNDEFINED_READ &&
                           strstr(dwexpr_libdwarf_binding_message(b), "no call site") != NULL;
        const bool again =
            dwexpr_libdwarf_eval_location(b, ctx, U, var("p")->die, &p, &r, &err) ==
                DWEXPR_E_UNDEFINED_READ &&
            strstr(dwexpr_libdwarf_binding_message(b), "calls another function") != NULL;
        TAP_OK(failed && other && again,
               "kept failure: the call site calling f2 stays the answer, with its note, after "
               "another failure's note and the caller's pc changed back (%d %d %d: %s)",
               failed, other, again, dwexpr_libdwarf_binding_message(b));
        dwexpr_libdwarf_binding_keep_entry_values(b, false);
        TAP_OK(dwexpr_libdwarf_eval_location(b, ctx, U, var("p")->die, &p, &r, &err) ==
                       DWEXPR_OK && r.loc.slds[0].u.imp.data[0] == 7,
               "not kept any more: the call site's 7 again");
    }

    /* scopes */
    const dwexpr_libdwarf_scope *sc = dwexpr_libdwarf_scope_at(ld, 0x8010);
    TAP_OK(sc && sc->kind == DWEXPR_LIBDWARF_SCOPE_FUNCTION && strcmp(sc->name, "callee") == 0 &&
               dwexpr_libdwarf_var_visible(var("p"), sc) && !dwexpr_libdwarf_var_visible(var("p"), dwexpr_libdwarf_scope_at(ld, 0x1010)),
           "scope at 0x8010 is callee, where p is visible (and not in f1)");

    /* every function, in DIE order, also those without variables */
    {
        const char *names[8];
        size_t nf = 0, ns = dwexpr_libdwarf_scope_count(ld);
        for (size_t i = 0; i < ns && nf < 8; i++) {
            const dwexpr_libdwarf_scope *s = dwexpr_libdwarf_scope_get(ld, i);
            if (s && s->kind == DWEXPR_LIBDWARF_SCOPE_FUNCTION)
                names[nf++] = s->name;
        }
        const dwexpr_libdwarf_scope *fn2 = NULL;
        for (size_t i = 0; i < ns; i++) {
            const dwexpr_libdwarf_scope *s = dwexpr_libdwarf_scope_get(ld, i);
            if (s->kind == DWEXPR_LIBDWARF_SCOPE_FUNCTION && strcmp(s->name, "f2") == 0)
                fn2 = s;
        }
        TAP_OK(nf == 3 && strcmp(names[0], "f1") == 0 && strcmp(names[1], "f2") == 0 &&
                   strcmp(names[2], "callee") == 0 && dwexpr_libdwarf_scope_get(ld, ns) == NULL &&
                   fn2 && fn2->nranges == 1 && fn2->ranges[0].low == 0x2000 &&
                   fn2->ranges[0].high == 0x2100,
               "scope_count/get: functions f1, f2 [0x2000, 0x2100), callee, then NULL");
    }

    fortran_types();

    dwexpr_ctx_free(ctx2);
    dwexpr_ctx_free(ctx);
    dwexpr_libdwarf_binding_free(b);
    dwexpr_libdwarf_close(ld);
    if (argc > 2)
        tail_calls(argv[2]);
    return TAP_DONE();
}
