/* examples/dwexpr/picture.c: the composite picture (picture.h). The
 * layout (bars of boxes with their columns) is computed once and then
 * written as text or as SVG, so both show the same thing.
 *
 * Seed "Composite Location Description Operations": a composite's parts
 * are laid end to end, part i covering the bits after parts 0..i-1; a
 * location with a bit offset into a composite starts the object there, so
 * the picture shows only the parts (or the pieces of parts) from that
 * offset on, numbered in object bits. */
#include "picture.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "repl_fmt.h"

/* Longest label drawn inside a box; the legend has the whole text. */
#define LABEL_MAX 22

/* Kinds of box (colour in SVG). */
enum { BOX_MEMORY, BOX_REGISTER, BOX_IMPLICIT, BOX_POINTER, BOX_UNDEF, BOX_COMPOSITE,
       BOX_PLACES };

typedef struct box {
    uint64_t start, end;     /* object bits [start, end) */
    int kind;
    char label[LABEL_MAX + 1];
    char *full;              /* legend text (malloc'ed) */
    int row, col, w;         /* layout: row of the bar, column, width */
} box;

typedef struct bar {
    int depth;
    char *title;
    box *boxes;
    size_t n, cap;
    int rows;
} bar;

typedef struct layout {
    bar *bars;
    size_t n, cap;
    const dwexpr_arch *arch;
    int fail;
} layout;

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    size_t nc = *cap ? *cap * 2 : 8;
    void *q = realloc(p, nc * size);
    if (!q) {
        fputs("dwexpr: out of memory\n", stderr);
        exit(2);
    }
    memset((char *)q + *cap * size, 0, (nc - *cap) * size);
    *cap = nc;
    return q;
}

static char *xstrdup(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (!d) {
        fputs("dwexpr: out of memory\n", stderr);
        exit(2);
    }
    return strcpy(d, s);
}

/* S moved DELTA bits further into its storage (a clipped part). */
static dwexpr_sld advance(const dwexpr_sld *s, uint64_t delta)
{
    dwexpr_sld t = *s;
    if (t.kind == DWEXPR_LOC_UNDEFINED)
        return t;
    uint64_t bo = t.byte_offset * 8 + t.bit + delta;
    t.byte_offset = bo / 8;
    t.bit = (uint8_t)(bo % 8);
    return t;
}

static int box_kind(const dwexpr_sld *s)
{
    switch (s->kind) {
    case DWEXPR_LOC_MEMORY: return BOX_MEMORY;
    case DWEXPR_LOC_REGISTER: return BOX_REGISTER;
    case DWEXPR_LOC_IMPLICIT: return BOX_IMPLICIT;
    case DWEXPR_LOC_IMPLICIT_POINTER: return BOX_POINTER;
    case DWEXPR_LOC_COMPOSITE: return BOX_COMPOSITE;
    default: return BOX_UNDEF;
    }
}

static void add_bar(layout *L, const dwexpr_sld *s, uint64_t obj_start, uint64_t len, int depth,
                    const char *title);

/* Add a box for object bits [START, START+LEN) held by LOC moved DELTA
 * bits into its storage; composites get a bar of their own below. */
static void add_box(layout *L, size_t bi, const dwexpr_loc *loc, uint64_t delta, uint64_t start,
                    uint64_t len, int depth)
{
    box bx;
    sbuf t = {0};
    memset(&bx, 0, sizeof bx);
    bx.start = start;
    bx.end = start + len;
    if (loc->count != 1) {
        bx.kind = loc->count ? BOX_PLACES : BOX_UNDEF;
        snprintf(bx.label, sizeof bx.label, "%u places", loc->count);
        for (uint32_t i = 0; i < loc->count; i++) {
            dwexpr_sld s = advance(&loc->slds[i], delta);
            if (i)
                sb_printf(&t, " | ");
            fmt_sld(&t, L->arch, &s);
        }
    } else {
        dwexpr_sld s = advance(&loc->slds[0], delta);
        bx.kind = box_kind(&s);
        if (s.kind == DWEXPR_LOC_COMPOSITE) {
            snprintf(bx.label, sizeof bx.label, "composite");
            sb_printf(&t, "composite, drawn below");
        } else {
            fmt_sld(&t, L->arch, &s);
            if (strlen(sb_str(&t)) > LABEL_MAX)
                snprintf(bx.label, sizeof bx.label, "%.*s~", LABEL_MAX - 1, sb_str(&t));
            else
                snprintf(bx.label, sizeof bx.label, "%s", sb_str(&t));
        }
    }
    bx.full = xstrdup(sb_str(&t));
    sb_free(&t);
    bar *b = &L->bars[bi];
    b->boxes = grow(b->boxes, &b->cap, b->n, sizeof *b->boxes);
    b->boxes[b->n++] = bx;
    if (loc->count == 1 && loc->slds[0].kind == DWEXPR_LOC_COMPOSITE) {
        char title[96];
        snprintf(title, sizeof title, "bits %" PRIu64 "..%" PRIu64 ": composite", start,
                 start + len);
        dwexpr_sld s = advance(&loc->slds[0], delta);
        add_bar(L, &s, start, len, depth + 1, title);
    }
}

/* A bar for object bits [OBJ_START, OBJ_START+LEN) held by S. */
static void add_bar(layout *L, const dwexpr_sld *s, uint64_t obj_start, uint64_t len, int depth,
                    const char *title)
{
    L->bars = grow(L->bars, &L->cap, L->n, sizeof *L->bars);
    size_t bi = L->n++;
    L->bars[bi].depth = depth;
    L->bars[bi].title = xstrdup(title);
    if (s->kind != DWEXPR_LOC_COMPOSITE || !s->u.comp) {
        dwexpr_loc one = {1, s};
        add_box(L, bi, &one, 0, obj_start, len, depth);
        return;
    }
    const dwexpr_composite *c = s->u.comp;
    uint64_t skip = s->byte_offset * 8 + s->bit, at = 0, end = skip + len;
    for (uint32_t i = 0; i < c->count && at < end; i++) {
        uint64_t ps = at, pe = at + c->parts[i].bit_size;
        at = pe;
        uint64_t lo = ps > skip ? ps : skip, hi = pe < end ? pe : end;
        if (lo >= hi)
            continue;
        add_box(L, bi, &c->parts[i].loc, lo - ps, obj_start + (lo - skip), hi - lo, depth);
    }
    /* bits past the last part: the composite does not cover them */
    if (at < end) {
        bar *b = &L->bars[bi];
        box bx;
        memset(&bx, 0, sizeof bx);
        bx.start = obj_start + (at > skip ? at - skip : 0);
        bx.end = obj_start + len;
        bx.kind = BOX_UNDEF;
        snprintf(bx.label, sizeof bx.label, "(no part)");
        bx.full = xstrdup(c->complete ? "past the composite's end" : "no part yet (incomplete)");
        b->boxes = grow(b->boxes, &b->cap, b->n, sizeof *b->boxes);
        b->boxes[b->n++] = bx;
    }
}

static int digits(uint64_t v)
{
    int n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

/* Columns of every box of B: rows of at most AVAIL columns, each box wide
 * enough for its label and start bit, the room left shared out in
 * proportion to the bits. */
static void place(bar *b, int avail)
{
    size_t i = 0;
    int row = 0;
    for (size_t k = 0; k < b->n; k++) {
        int lw = (int)strlen(b->boxes[k].label) + 3, dw = digits(b->boxes[k].start) + 1;
        b->boxes[k].w = lw > dw ? lw : dw;
    }
    while (i < b->n) {
        size_t j = i;
        int used = 0;
        while (j < b->n && (j == i || used + b->boxes[j].w <= avail))
            used += b->boxes[j++].w;
        uint64_t bits = 0;
        for (size_t k = i; k < j; k++)
            bits += b->boxes[k].end - b->boxes[k].start;
        int left = avail - used, col = 0;
        for (size_t k = i; k < j && left > 0 && bits; k++)
            b->boxes[k].w += (int)((uint64_t)left * (b->boxes[k].end - b->boxes[k].start) / bits);
        for (size_t k = i; k < j; k++) {
            b->boxes[k].row = row;
            b->boxes[k].col = col;
            col += b->boxes[k].w;
        }
        row++;
        i = j;
    }
    b->rows = row;
}

/* The boxes of row R of B: [*first, *last). */
static void row_range(const bar *b, int r, size_t *first, size_t *last)
{
    size_t i = 0;
    while (i < b->n && b->boxes[i].row < r)
        i++;
    *first = i;
    while (i < b->n && b->boxes[i].row == r)
        i++;
    *last = i;
}

static void draw_text(FILE *f, const layout *L)
{
    for (size_t bi = 0; bi < L->n; bi++) {
        const bar *b = &L->bars[bi];
        int ind = 2 * (b->depth < 10 ? b->depth : 10);
        fprintf(f, "%*s%s\n", ind, "", b->title);
        for (int r = 0; r < b->rows; r++) {
            size_t i0, i1;
            row_range(b, r, &i0, &i1);
            /* ruler */
            fprintf(f, "%*s", ind, "");
            for (size_t k = i0; k < i1; k++)
                fprintf(f, "%-*" PRIu64, b->boxes[k].w, b->boxes[k].start);
            fprintf(f, "%" PRIu64 "\n", b->boxes[i1 - 1].end);
            for (int line = 0; line < 3; line++) {
                fprintf(f, "%*s", ind, "");
                for (size_t k = i0; k < i1; k++) {
                    const box *x = &b->boxes[k];
                    if (line == 1)
                        fprintf(f, "| %-*s", x->w - 2, x->label);
                    else
                        fprintf(f, "+%.*s", x->w - 1,
                                "--------------------------------------------------------------"
                                "------------------");
                }
                fputs(line == 1 ? "|\n" : "+\n", f);
            }
        }
        int sw = 0, ew = 0;
        for (size_t k = 0; k < b->n; k++) {
            int a = digits(b->boxes[k].start), e = digits(b->boxes[k].end);
            sw = a > sw ? a : sw;
            ew = e > ew ? e : ew;
        }
        for (size_t k = 0; k < b->n; k++) {
            const box *x = &b->boxes[k];
            sbuf sz = {0};
            fmt_size(&sz, x->end - x->start);
            fprintf(f, "%*s  bits %*" PRIu64 "..%-*" PRIu64 " %5s  %s\n", ind, "", sw, x->start, ew,
                    x->end, sb_str(&sz), x->full);
            sb_free(&sz);
        }
    }
}

/* Text with the XML special characters escaped. */
static void svg_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
    }
}

static void draw_svg(FILE *f, const layout *L)
{
    static const char *const fill[] = {"#b7e1a1", "#a8c8f0", "#f5e08c", "#d7b8f0", "#dddddd",
                                       "#f5b88c", "#f0a8c8"};
    const int cw = 8, rowh = 56, lineh = 16;
    int height = 10;
    for (size_t bi = 0; bi < L->n; bi++)
        height += lineh + L->bars[bi].rows * rowh + (int)L->bars[bi].n * lineh + 8;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "font-family=\"monospace\" font-size=\"12\">\n", PICTURE_COLUMNS * cw + 20, height);
    int y = 10;
    for (size_t bi = 0; bi < L->n; bi++) {
        const bar *b = &L->bars[bi];
        int x0 = 10 + 2 * (b->depth < 10 ? b->depth : 10) * cw;
        y += lineh;
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">", x0, y - 4);
        svg_text(f, b->title);
        fputs("</text>\n", f);
        for (int r = 0; r < b->rows; r++) {
            size_t i0, i1;
            row_range(b, r, &i0, &i1);
            for (size_t k = i0; k < i1; k++) {
                const box *x = &b->boxes[k];
                int bx = x0 + x->col * cw;
                fprintf(f, "<text x=\"%d\" y=\"%d\">%" PRIu64 "</text>\n", bx, y + 12, x->start);
                fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"24\" fill=\"%s\" "
                           "stroke=\"black\"><title>", bx, y + 18, x->w * cw, fill[x->kind]);
                svg_text(f, x->full);
                fprintf(f, "</title></rect>\n<text x=\"%d\" y=\"%d\">", bx + cw, y + 34);
                svg_text(f, x->label);
                fputs("</text>\n", f);
            }
            const box *last = &b->boxes[i1 - 1];
            fprintf(f, "<text x=\"%d\" y=\"%d\">%" PRIu64 "</text>\n",
                    x0 + (last->col + last->w) * cw, y + 12, last->end);
            y += rowh;
        }
        for (size_t k = 0; k < b->n; k++) {
            const box *x = &b->boxes[k];
            y += lineh;
            fprintf(f, "<text x=\"%d\" y=\"%d\">bits %" PRIu64 "..%" PRIu64 ": ", x0 + 2 * cw, y - 4,
                    x->start, x->end);
            svg_text(f, x->full);
            fputs("</text>\n", f);
        }
        y += 8;
    }
    fputs("</svg>\n", f);
}

static void layout_free(layout *L)
{
    for (size_t bi = 0; bi < L->n; bi++) {
        for (size_t k = 0; k < L->bars[bi].n; k++)
            free(L->bars[bi].boxes[k].full);
        free(L->bars[bi].boxes);
        free(L->bars[bi].title);
    }
    free(L->bars);
}

int picture_draw(FILE *f, bool svg, const dwexpr_arch *arch, const dwexpr_loc *loc,
                 uint64_t nbits, unsigned addr_bits, char *err, size_t errcap)
{
    if (!loc || loc->count == 0) {
        snprintf(err, errcap, "the location has no place to draw");
        return -1;
    }
    layout L;
    memset(&L, 0, sizeof L);
    L.arch = arch;
    for (uint32_t p = 0; p < loc->count; p++) {
        const dwexpr_sld *s = &loc->slds[p];
        uint64_t n = nbits;
        if (!n && s->kind == DWEXPR_LOC_COMPOSITE && s->u.comp) {
            uint64_t off = s->byte_offset * 8 + s->bit;
            n = s->u.comp->bits > off ? s->u.comp->bits - off : 0;
        } else if (!n) {
            n = addr_bits;
        }
        if (n == 0) {
            layout_free(&L);
            snprintf(err, errcap, "the object has no bits to draw (its offset is at or past the "
                                  "composite's end); give a size: picture BITS");
            return -1;
        }
        char title[128];
        sbuf sz = {0};
        fmt_size(&sz, n);
        if (loc->count > 1)
            snprintf(title, sizeof title, "place %u of %u: an object of %s", p + 1, loc->count,
                     sb_str(&sz));
        else
            snprintf(title, sizeof title, "an object of %s (bits 0..%" PRIu64 ")", sb_str(&sz), n);
        sb_free(&sz);
        add_bar(&L, s, 0, n, 0, title);
    }
    for (size_t bi = 0; bi < L.n; bi++) {
        int ind = 2 * (L.bars[bi].depth < 10 ? L.bars[bi].depth : 10);
        uint64_t end = L.bars[bi].n ? L.bars[bi].boxes[L.bars[bi].n - 1].end : 0;
        int avail = PICTURE_COLUMNS - 1 - ind - digits(end);
        place(&L.bars[bi], avail < 20 ? 20 : avail);
    }
    if (svg)
        draw_svg(f, &L);
    else
        draw_text(f, &L);
    layout_free(&L);
    return 0;
}
