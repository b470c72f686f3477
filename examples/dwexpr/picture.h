/* examples/dwexpr/picture.h: a picture of where each bit of an object
 * comes from, given its location description: a bit ruler from bit 0 to
 * the object's size, one box per composite part naming its storage
 * (register, address and space, implicit, undefined), nested composites
 * drawn below with their own parts, and a legend with the full notation.
 * The text form fits an 80-column terminal; the SVG form is the same
 * layout for a report or a bug. */
#ifndef DWEXPR_CLI_PICTURE_H
#define DWEXPR_CLI_PICTURE_H

#include <stdio.h>
#include <dwexpr.h>

/* Most columns the text picture uses. */
#define PICTURE_COLUMNS 80

/* Draw LOC for an object of NBITS bits (0: the size of its composite, or
 * for any other location the generic type's size ADDR_BITS) to F as text
 * (SVG when SVG is true). ARCH (may be NULL) names registers. Returns 0, or
 * -1 with ERR set (ERRCAP bytes) when there is nothing to draw. */
int picture_draw(FILE *f, bool svg, const dwexpr_arch *arch, const dwexpr_loc *loc,
                 uint64_t nbits, unsigned addr_bits, char *err, size_t errcap);

#endif
