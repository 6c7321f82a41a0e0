/* switch on 64-bit, 8-bit and sparse values. */
#include <stdint.h>
#include <stdio.h>

static const char *name(int64_t v) {
    switch (v) {
    case 0: return "zero";
    case 1: return "one";
    case -1: return "minus one";
    case 0x100000000LL: return "2^32";
    case INT64_MIN: return "min";
    case INT64_MAX: return "max";
    case 123456789012345LL: return "big";
    default: return "other";
    }
}

static int classify(signed char c) {
    switch (c) {
    case 'a': case 'e': case 'i': case 'o': case 'u': return 1;
    case -128: return 2;
    case 127: return 3;
    default: return 0;
    }
}

int main(void) {
    int64_t vals[] = { 0, 1, -1, 0x100000000LL, INT64_MIN, INT64_MAX, 123456789012345LL, 7 };
    for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++) printf("%s\n", name(vals[i]));
    int score = 0;
    for (int c = -128; c < 128; c++) score = score * 3 + classify((signed char)c) + (score >> 20);
    printf("%d\n", score);
    return 0;
}
