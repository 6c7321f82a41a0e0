/* 64-bit and floating-point arithmetic, conversions, overflow checks. */
#include <stdint.h>
#include <stdio.h>

int main(void) {
    uint64_t u = 0x123456789abcdef0ULL;
    int64_t s = -0x1122334455667788LL;
    uint64_t acc = 0;
    for (int i = 0; i < 64; i++) {
        acc ^= (u >> i) | (u << (63 - i));
        acc += (uint64_t)(s >> (i % 63));
        acc *= 6364136223846793005ULL;
        if (i % 7 == 0) acc /= (uint64_t)(i + 3);
        if (i % 5 == 0) acc %= 0xfffffffffffULL;
    }
    printf("%llu %lld %lld\n", (unsigned long long)acc, (long long)(s / 12345), (long long)(s % 12345));
    int32_t a = 2000000000, b = 2000000000, r;
    int over = __builtin_add_overflow(a, b, &r);
    int64_t m;
    int over2 = __builtin_mul_overflow((int64_t)3037000500LL, (int64_t)3037000500LL, &m);
    printf("%d %d %d %lld\n", over, r, over2, (long long)m);
    double d = 1.0;
    float f = 1.0f;
    for (int i = 1; i < 30; i++) {
        d = d * 1.1 + 1.0 / i;
        f = f * 0.9f + (float)i;
    }
    printf("%.10f %.5f %d %u %lld\n", d, f, (int)d, (unsigned)f, (long long)(d * 1e6));
    printf("%g %g %e\n", 1.0 / 3.0, -2.5e-10, 6.02214076e23);
    double neg = -7.75;
    printf("%d %d %lld %f\n", (int)neg, (int)-neg, (long long)(neg * 1e10), (double)(int64_t)-123456789012LL);
    return 0;
}
