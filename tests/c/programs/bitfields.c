/* Bitfields of odd widths (integer promotion of i3, i17, i33...) and packed structs. */
#include <stdint.h>
#include <stdio.h>

struct flags {
    unsigned a : 3;
    signed b : 5;
    unsigned c : 17;
    unsigned long long d : 33;
    signed long long e : 40;
    unsigned f : 1;
};

struct __attribute__((packed)) packed {
    char c;
    int32_t i;
    int64_t l;
    int16_t s;
};

struct __attribute__((packed)) packed_bits {
    uint8_t tag;
    unsigned x : 12;
    unsigned y : 20;
};

static struct packed table[3] = { { 'a', 1, 1LL << 40, -3 }, { 'b', -2, -5, 7 }, { 'c', 3, 42, 9 } };

int main(void) {
    struct flags f = { 0 };
    for (int i = 0; i < 20; i++) {
        f.a += i;
        f.b -= i * 3;
        f.c = f.c * 7 + i;
        f.d = f.d * 13 + (unsigned long long)i * 1000003;
        f.e = f.e * -3 + i;
        f.f ^= 1;
    }
    printf("%u %d %u %llu %lld %u\n", f.a, f.b, f.c, (unsigned long long)f.d, (long long)f.e, f.f);
    printf("sizeof packed %u\n", (unsigned)sizeof(struct packed));
    long long sum = 0;
    for (int i = 0; i < 3; i++) {
        table[i].i *= 3;
        table[i].l += table[i].i;
        sum += table[i].c + table[i].i + table[i].l + table[i].s;
    }
    printf("%lld\n", sum);
    struct packed_bits pb = { 9, 4095, 1 };
    pb.x += 2;
    pb.y = pb.y * 1000 + pb.x;
    printf("%u %u %u\n", pb.tag, pb.x, pb.y);
    return 0;
}
