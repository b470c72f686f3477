/* examples/dwexpr/cmd_cfi.c: `dwexpr cfi BINARY [--pc ADDR] [--json]`:
 * the CIEs and FDEs of .eh_frame and .debug_frame in the style of
 * `llvm-dwarfdump --debug-frame`, and the rule row of a pc with each
 * rule spelled as the location description it gives. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <dwexpr.h>
#include "cmds.h"
#include "output.h"

static const char usage_cfi[] = "usage: dwexpr cfi BINARY [--pc ADDR] [--json]\n";

/* A usage error: MSG (and, with JSON, the failure object on stdout), then
 * the usage text on stderr; exit status 2. */
static int cfi_usage(bool json, const char *msg, const char *arg)
{
    out_usage(json, "dwexpr cfi", "%s%s%s", msg, arg ? " " : "", arg ? arg : "");
    fputs(usage_cfi, stderr);
    return 2;
}

/* "rbp" or "reg123". */
static const char *rname(const dwexpr_arch *arch, uint64_t r, char *buf, size_t cap)
{
    const char *n = r <= UINT32_MAX ? dwexpr_arch_reg_name(arch, (uint32_t)r) : NULL;
    if (n)
        return n;
    snprintf(buf, cap, "reg%" PRIu64, r);
    return buf;
}

/* An expression as text: "DW_OP_breg7 8; DW_OP_deref". */
static void expr_text(const uint8_t *e, size_t n, const dwexpr_arch *arch, char *out, size_t cap)
{
    dwexpr_unit u;
    memset(&u, 0, sizeof u);
    u.addr_size = 8;
    dwexpr_program *p;
    dwexpr_error err;
    out[0] = 0;
    if (dwexpr_program_decode(e, n, &u, &p, &err)) {
        snprintf(out, cap, "<%s>", err.message);
        return;
    }
    size_t used = 0;
    for (size_t i = 0; i < dwexpr_program_count(p) && used < cap; i++) {
        char one[128];
        dwexpr_op view;
        dwexpr_op_format(dwexpr_program_op(p, i, &view), arch, one, sizeof one);
        int w = snprintf(out + used, cap - used, "%s%s", i ? "; " : "", one);
        used += w > 0 ? (size_t)w : 0;
    }
    dwexpr_program_free(p);
}

/* One instruction as llvm-dwarfdump prints it (factors applied). */
static void insn_text(const dwexpr_cfi_insn *in, const dwexpr_cfi_cie *cie,
                      const dwexpr_arch *arch, char *out, size_t cap)
{
    char a[32], b[32], ex[512];
    int64_t daf = cie->data_align;
    uint64_t caf = cie->code_align;
    const uint64_t *o = in->operand;
    switch (in->op) {
    case DW_CFA_advance_loc: case DW_CFA_advance_loc1: case DW_CFA_advance_loc2:
    case DW_CFA_advance_loc4: case DW_CFA_MIPS_advance_loc8:
        snprintf(out, cap, "%s: %" PRIu64, in->name, o[0] * caf);
        break;
    case DW_CFA_set_loc: snprintf(out, cap, "%s: 0x%" PRIx64, in->name, o[0]); break;
    case DW_CFA_offset: case DW_CFA_offset_extended: case DW_CFA_val_offset:
        snprintf(out, cap, "%s: %s %" PRId64, in->name, rname(arch, o[0], a, sizeof a),
                 (int64_t)o[1] * daf);
        break;
    case DW_CFA_offset_extended_sf: case DW_CFA_val_offset_sf:
        snprintf(out, cap, "%s: %s %" PRId64, in->name, rname(arch, o[0], a, sizeof a),
                 (int64_t)o[1] * daf);
        break;
    case DW_CFA_GNU_negative_offset_extended:
        snprintf(out, cap, "%s: %s %" PRId64, in->name, rname(arch, o[0], a, sizeof a),
                 -((int64_t)o[1] * daf));
        break;
    case DW_CFA_restore: case DW_CFA_restore_extended: case DW_CFA_undefined:
    case DW_CFA_same_value: case DW_CFA_def_cfa_register:
        snprintf(out, cap, "%s: %s", in->name, rname(arch, o[0], a, sizeof a));
        break;
    case DW_CFA_register:
        snprintf(out, cap, "%s: %s %s", in->name, rname(arch, o[0], a, sizeof a),
                 rname(arch, o[1], b, sizeof b));
        break;
    case DW_CFA_def_cfa:
        snprintf(out, cap, "%s: %s %+" PRId64, in->name, rname(arch, o[0], a, sizeof a),
                 (int64_t)o[1]);
        break;
    case DW_CFA_def_cfa_sf:
        snprintf(out, cap, "%s: %s %+" PRId64, in->name, rname(arch, o[0], a, sizeof a),
                 (int64_t)o[1] * daf);
        break;
    case DW_CFA_LLVM_def_aspace_cfa:
        snprintf(out, cap, "%s: %s %+" PRId64 " as%" PRIu64, in->name,
                 rname(arch, o[0], a, sizeof a), (int64_t)o[1], o[2]);
        break;
    case DW_CFA_LLVM_def_aspace_cfa_sf:
        snprintf(out, cap, "%s: %s %+" PRId64 " as%" PRIu64, in->name,
                 rname(arch, o[0], a, sizeof a), (int64_t)o[1] * daf, o[2]);
        break;
    case DW_CFA_def_cfa_offset: snprintf(out, cap, "%s: %+" PRId64, in->name, (int64_t)o[0]); break;
    case DW_CFA_def_cfa_offset_sf:
        snprintf(out, cap, "%s: %+" PRId64, in->name, (int64_t)o[0] * daf);
        break;
    case DW_CFA_GNU_args_size: snprintf(out, cap, "%s: %" PRIu64, in->name, o[0]); break;
    case DW_CFA_def_cfa_expression:
        expr_text(in->expr, in->expr_len, arch, ex, sizeof ex);
        snprintf(out, cap, "%s: %s", in->name, ex);
        break;
    case DW_CFA_expression: case DW_CFA_val_expression:
        expr_text(in->expr, in->expr_len, arch, ex, sizeof ex);
        snprintf(out, cap, "%s: %s %s", in->name, rname(arch, o[0], a, sizeof a), ex);
        break;
    default: snprintf(out, cap, "%s", in->name); break;
    }
}

/* Dump LEN instruction bytes; appends to JA (may be NULL). */
static void dump_insns(const dwexpr_cfi *cfi, const dwexpr_cfi_cie *cie, const uint8_t *p,
                       size_t len, uint64_t base, const dwexpr_arch *arch, json_t *ja, bool text)
{
    for (size_t pos = 0; pos < len;) {
        dwexpr_cfi_insn in;
        dwexpr_error e;
        char line[700];
        if (dwexpr_cfi_insn_decode(cfi, cie, p, len, pos, base, &in, &e)) {
            snprintf(line, sizeof line, "<error: %s>", e.message);
            pos = len;
        } else {
            insn_text(&in, cie, arch, line, sizeof line);
            pos += in.size;
        }
        if (text)
            printf("  %s\n", line);
        if (ja)
            json_array_append_new(ja, json_string(line));
    }
}

/* The whole section: every entry. */
static json_t *dump_section(const dwexpr_cfi *cfi, const char *name, const dwexpr_arch *arch,
                            bool text)
{
    json_t *arr = json_array();
    if (text)
        printf("%s contents:\n\n", name);
    uint64_t off = 0, next;
    const dwexpr_cfi_section *sec = dwexpr_cfi_get_section(cfi);
    while (off < sec->size) {
        dwexpr_cfi_entry en;
        dwexpr_error e;
        dwexpr_status st = dwexpr_cfi_entry_at(cfi, off, &en, &next, &e);
        if (st == DWEXPR_E_NOT_FOUND)
            break;
        json_t *o = json_object(), *ins = json_array();
        char hx[32];
        snprintf(hx, sizeof hx, "0x%08" PRIx64, off);
        json_object_set_new(o, "offset", json_string(hx));
        if (st) {
            if (text)
                printf("%08" PRIx64 " <error: %s>\n", off, e.message);
            json_object_set_new(o, "error", json_string(e.message));
            json_array_append_new(arr, o);
            json_decref(ins);
            break;
        }
        if (en.is_cie) {
            const dwexpr_cfi_cie *c = &en.cie;
            if (text)
                printf("%08" PRIx64 " %08" PRIx64 " %s CIE\n  Format:                %s\n"
                       "  Version:               %u\n  Augmentation:          \"%s\"\n"
                       "  Code alignment factor: %" PRIu64 "\n"
                       "  Data alignment factor: %" PRId64 "\n"
                       "  Return address column: %" PRIu64 "\n\n",
                       off, c->length,
                       sec->format == DWEXPR_CFI_EH_FRAME ? "00000000"
                       : c->is64                           ? "ffffffffffffffff"
                                                           : "ffffffff",
                       c->is64 ? "DWARF64" : "DWARF32", c->version, c->augmentation,
                       c->code_align, c->data_align, c->ra_column);
            json_object_set_new(o, "kind", json_string("CIE"));
            json_object_set_new(o, "version", json_integer(c->version));
            json_object_set_new(o, "augmentation", json_string(c->augmentation));
            json_object_set_new(o, "code_alignment_factor", json_integer((json_int_t)c->code_align));
            json_object_set_new(o, "data_alignment_factor", json_integer(c->data_align));
            json_object_set_new(o, "return_address_register", json_integer((json_int_t)c->ra_column));
            dump_insns(cfi, c, c->insns, c->insns_len, c->insns_offset, arch, ins, text);
        } else {
            const dwexpr_cfi_fde *f = &en.fde;
            if (text)
                printf("%08" PRIx64 " %08" PRIx64 " %08" PRIx64 " FDE cie=%08" PRIx64
                       " pc=%08" PRIx64 "...%08" PRIx64 "\n  Format:       %s\n",
                       off, f->length, f->cie_offset, f->cie_offset, f->pc_begin, f->pc_end,
                       f->is64 ? "DWARF64" : "DWARF32");
            json_object_set_new(o, "kind", json_string("FDE"));
            snprintf(hx, sizeof hx, "0x%08" PRIx64, f->cie_offset);
            json_object_set_new(o, "cie", json_string(hx));
            snprintf(hx, sizeof hx, "0x%" PRIx64, f->pc_begin);
            json_object_set_new(o, "pc_begin", json_string(hx));
            snprintf(hx, sizeof hx, "0x%" PRIx64, f->pc_end);
            json_object_set_new(o, "pc_end", json_string(hx));
            dump_insns(cfi, &en.cie, f->insns, f->insns_len, f->insns_offset, arch, ins, text);
            if (text)
                printf("\n");
        }
        json_object_set_new(o, "instructions", ins);
        json_array_append_new(arr, o);
        if (next <= off)
            break;
        off = next;
    }
    return arr;
}

/* A rule as the location description it gives (seed "Structure of Call
 * Frame Information"). */
static void rule_text(const dwexpr_cfi_rule *r, const dwexpr_arch *arch, uint32_t reg,
                      char *out, size_t cap)
{
    char a[32], ex[512];
    switch (r->kind) {
    case DWEXPR_CFI_UNDEFINED: snprintf(out, cap, "undefined location"); break;
    case DWEXPR_CFI_SAME_VALUE:
        snprintf(out, cap, "same value: register %s of the callee frame",
                 rname(arch, reg, a, sizeof a));
        break;
    case DWEXPR_CFI_OFFSET: snprintf(out, cap, "memory [CFA%+" PRId64 "]", r->offset); break;
    case DWEXPR_CFI_VAL_OFFSET:
        snprintf(out, cap, "value CFA%+" PRId64 " (implicit)", r->offset);
        break;
    case DWEXPR_CFI_REGISTER:
        snprintf(out, cap, "register %s of the callee frame", rname(arch, r->regno, a, sizeof a));
        break;
    case DWEXPR_CFI_EXPRESSION:
        expr_text(r->expr, r->expr_len, arch, ex, sizeof ex);
        snprintf(out, cap, "location of {CFA; %s}", ex);
        break;
    case DWEXPR_CFI_VAL_EXPRESSION:
        expr_text(r->expr, r->expr_len, arch, ex, sizeof ex);
        snprintf(out, cap, "value of {CFA; %s} (implicit)", ex);
        break;
    case DWEXPR_CFI_CFA_REG_OFFSET:
        snprintf(out, cap, "memory %s%+" PRId64 " in address space %u",
                 rname(arch, r->regno, a, sizeof a), r->offset, (unsigned)r->aspace);
        break;
    case DWEXPR_CFI_CFA_EXPRESSION:
        expr_text(r->expr, r->expr_len, arch, ex, sizeof ex);
        snprintf(out, cap, "memory location of {%s}", ex);
        break;
    default: snprintf(out, cap, "no rule"); break;
    }
}

/* The row of PC from CFI, with every register of interest. */
static json_t *dump_row(const dwexpr_cfi *cfi, uint64_t pc, const dwexpr_arch *arch, bool text)
{
    dwexpr_cfi_row *row = malloc(sizeof *row);
    dwexpr_error e;
    json_t *o = json_object();
    char hx[32], line[700];
    if (!row)
        return o;
    dwexpr_status st = dwexpr_cfi_row_for_pc(cfi, pc, row, &e);
    if (st) {
        json_object_set_new(o, "error", json_string(st == DWEXPR_E_NOT_FOUND
                                                        ? "no FDE holds this pc"
                                                        : e.message));
        free(row);
        return o;
    }
    snprintf(hx, sizeof hx, "0x%" PRIx64, pc);
    json_object_set_new(o, "pc", json_string(hx));
    snprintf(hx, sizeof hx, "0x%" PRIx64, row->pc_begin);
    json_object_set_new(o, "begin", json_string(hx));
    snprintf(hx, sizeof hx, "0x%" PRIx64, row->pc_end);
    json_object_set_new(o, "end", json_string(hx));
    rule_text(&row->cfa, arch, 0, line, sizeof line);
    json_object_set_new(o, "cfa", json_string(line));
    if (text)
        printf("row for pc 0x%" PRIx64 ": [0x%" PRIx64 ", 0x%" PRIx64 ")\n  CFA: %s\n", pc,
               row->pc_begin, row->pc_end, line);
    json_t *regs = json_object();
    /* the registers with explicit rules, then every other one whose
     * default is not undefined, then the return address column */
    for (uint32_t r = 0; r < 128; r++) {
        bool expl = false;
        for (uint32_t k = 0; k < row->count; k++)
            expl = expl || row->regs[k].regno == r;
        dwexpr_cfi_rule ru = dwexpr_cfi_row_rule(row, arch, r);
        if (!expl && ru.kind == DWEXPR_CFI_UNDEFINED && r != row->ra_column)
            continue;
        char key[16], a[32];
        snprintf(key, sizeof key, "%u", (unsigned)r);
        rule_text(&ru, arch, r, line, sizeof line);
        json_object_set_new(regs, key, json_pack("{s:s,s:s,s:b}", "rule",
                                                 dwexpr_cfi_rule_name(ru.kind), "location", line,
                                                 "explicit", expl));
        if (text)
            printf("  %-6s %-14s %s%s\n", rname(arch, r, a, sizeof a),
                   dwexpr_cfi_rule_name(ru.kind), line, expl ? "" : "  (default)");
    }
    json_object_set_new(o, "registers", regs);
    free(row);
    return o;
}

int cmd_cfi(int argc, char **argv)
{
    static const char *const valued[] = {"--pc", NULL};
    /* with --json anywhere, a usage error is the JSON failure object too */
    bool json = out_argv_json(argc, argv, valued), has_pc = false;
    const char *path = NULL;
    uint64_t pc = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(usage_cfi, stdout);
            return 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--pc") == 0) {
            if (i + 1 >= argc || cli_parse_u64(argv[i + 1], &pc))
                return cfi_usage(json, "expected an address after", argv[i]);
            has_pc = true;
            i++;
        } else if (argv[i][0] == '-') {
            return cfi_usage(json, "unknown option", argv[i]);
        } else if (path) {
            return cfi_usage(json, "more than one binary:", argv[i]);
        } else {
            path = argv[i];
        }
    }
    if (!path)
        return cfi_usage(json, "no binary given", NULL);
    dwexpr_elf *elf;
    dwexpr_error e;
    if (dwexpr_elf_open_file(path, &elf, &e))
        return out_usage(json, "dwexpr", "%s: %s", path, e.message);
    const dwexpr_arch *arch = dwexpr_arch_find(dwexpr_elf_machine(elf) == 62 ? "x86_64"
                                               : dwexpr_elf_is64(elf) ? "generic64"
                                                                      : "generic32");
    json_t *top = json_object(), *secs = json_array();
    int rc = 0;
    bool row_done = false;
    static const dwexpr_cfi_format fmts[2] = {DWEXPR_CFI_EH_FRAME, DWEXPR_CFI_DEBUG_FRAME};
    static const char *const names[2] = {".eh_frame", ".debug_frame"};
    for (int k = 0; k < 2; k++) {
        dwexpr_cfi_section s;
        if (dwexpr_elf_cfi_section(elf, fmts[k], 0, arch, &s))
            continue;
        dwexpr_cfi *cfi;
        json_t *js = json_object();
        json_object_set_new(js, "name", json_string(names[k]));
        if (dwexpr_cfi_open(&s, &cfi, &e)) {
            char m[300];
            snprintf(m, sizeof m, "%s (at offset 0x%llx)", e.message, (unsigned long long)e.offset);
            json_object_set_new(js, "error", json_string(m));
            if (!json)
                fprintf(stderr, "dwexpr: %s: %s\n", names[k], m);
            json_array_append_new(secs, js);
            rc = 1;
            continue;
        }
        if (!has_pc || !json)
            json_object_set_new(js, "entries", dump_section(cfi, names[k], arch, !json && !has_pc));
        if (has_pc && !row_done) {
            json_t *r = dump_row(cfi, pc, arch, !json);
            if (!json_object_get(r, "error")) {
                row_done = true;
                json_object_set_new(r, "section", json_string(names[k]));
                json_object_set_new(top, "row", r);
            } else {
                json_decref(r);
            }
        }
        json_array_append_new(secs, js);
        dwexpr_cfi_free(cfi);
    }
    json_object_set_new(top, "sections", secs);
    if (has_pc && !row_done) {
        if (!json)
            fprintf(stderr, "dwexpr: no FDE holds pc 0x%" PRIx64 "\n", pc);
        rc = 1;
    }
    if (json)
        out_print_json(top);
    else
        json_decref(top);
    dwexpr_elf_free(elf);
    return rc;
}
