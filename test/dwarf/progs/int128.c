/* test/dwarf/progs/int128.c: __int128 locals an optimizer does not keep:
 * their locations compute them from other registers, converting to and
 * from 16-byte base types (gcc: DW_OP_convert to __int128 and a 16-byte
 * DW_OP_const_type; clang: DW_OP_convert to DW_ATE_unsigned_128 and back
 * to 64 bits). GDB 13 cannot read these ("not available on integers of
 * more than 8 bytes"); check_vars.py compares dwexpr's values with the
 * ones worked out from the arguments. */
__attribute__((noinline)) void probe(void)
{
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) unsigned long wide(unsigned long a, unsigned long b)
{
    unsigned __int128 p = (unsigned __int128)a * b;
    __int128 s = (__int128)(long)a - 5;
    unsigned long hi = (unsigned long)(p >> 64);
    unsigned long lo = (unsigned long)p;
    probe();
    return hi ^ lo ^ (unsigned long)(s >> 3);
}

int main(int argc, char **argv)
{
    (void)argv;
    return (int)wide((unsigned long)argc * 0x123456789ul, 0xfedcba987654321ul) & 1;
}
