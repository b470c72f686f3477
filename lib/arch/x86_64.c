/* lib/arch/x86_64.c: placeholder until its owner fills it. */
typedef int dwx_placeholder_x86_64;
