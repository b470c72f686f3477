/* dwexpr.h: the umbrella header of libdwexpr, a DWARF expression engine
 * for DWARF 5 and the LLVM/AMDGPU heterogeneous debugging extensions. */
#ifndef DWEXPR_H
#define DWEXPR_H

#include "dwexpr/status.h"
#include "dwexpr/ops.h"
#include "dwexpr/value.h"
#include "dwexpr/target.h"
#include "dwexpr/eval.h"
#include "dwexpr/text.h"
#include "dwexpr/amdgpu.h"
#include "dwexpr/attrs.h"
#include "dwexpr/cfi.h"
#include "dwexpr/elf.h"
#include "dwexpr/diexpr.h"
#include "dwexpr/spirv.h"

#define DWEXPR_VERSION_MAJOR 0
#define DWEXPR_VERSION_MINOR 1
#define DWEXPR_VERSION_PATCH 0
#define DWEXPR_VERSION_NUMBER (DWEXPR_VERSION_MAJOR * 10000 + DWEXPR_VERSION_MINOR * 100 + DWEXPR_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif
/* Run-time library version, DWEXPR_VERSION_NUMBER of the built library. */
DWEXPR_API unsigned dwexpr_version_number(void);
#ifdef __cplusplus
}
#endif
#endif
