/* lib/arch/generic.c: placeholder until its owner fills it. */
typedef int dwx_placeholder_generic;
