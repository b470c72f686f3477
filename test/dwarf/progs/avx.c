/* test/dwarf/progs/avx.c: for -O3 -march=x86-64-v3: 32-byte vectors as
 * parameters and locals (ymm registers, DWARF 17-32 as GDB reads them with
 * AVX), vectorized loops, FMA, the probe itself holding vectors in
 * registers (check_vars.py). */
typedef float v8sf __attribute__((vector_size(32)));
typedef double v4df __attribute__((vector_size(32)));
typedef int v8si __attribute__((vector_size(32)));
typedef float v4sf __attribute__((vector_size(16)));

volatile int sink;
volatile float fsink;
float data[64];
double ddata[32];

__attribute__((noinline)) float probe_v(v8sf a, v8sf b, v4df c, v4sf q)
{
    v8sf s = a * b + a;
    v4df t = c * c;
    __asm__ volatile("" ::: "memory");
    sink = 1;
    return s[0] + s[7] + (float)t[3] + q[2];
}

__attribute__((noinline)) static float dot(const float *x, const float *y, int n)
{
    float acc = 0;
    for (int i = 0; i < n; i++)
        acc += x[i] * y[i];
    v8sf va = {x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]};
    v8sf vb = {y[0], 2, 3, 4, 5, 6, 7, acc};
    v4df vc = {1.5, 2.5, acc, 4.5};
    v4sf vq = {9, 8, 7, 6};
    float r = probe_v(va, vb, vc, vq);
    return acc + r;
}

__attribute__((noinline)) static double scale(double *d, int n, double k)
{
    double sum = 0;
    for (int i = 0; i < n; i++) {
        d[i] = d[i] * k + 1.0;
        sum += d[i];
    }
    v8si counts = {n, n + 1, n + 2, n + 3, n + 4, n + 5, n + 6, n + 7};
    float f = dot(data, data + 8, n);
    sink = counts[3] + counts[7];
    return sum + f;
}

int main(int argc, char **argv)
{
    (void)argv;
    for (int i = 0; i < 64; i++)
        data[i] = (float)i * 0.5f;
    for (int i = 0; i < 32; i++)
        ddata[i] = i;
    double r = scale(ddata, 16 + argc, 1.5);
    fsink = (float)r;
    return 0;
}
