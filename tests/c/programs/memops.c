/* memcpy, memset and memmove of every size up to 80, overlapping moves, struct copies. */
#include <stdio.h>
#include <string.h>

static unsigned checksum(const unsigned char *p, int n) {
    unsigned h = 2166136261u;
    for (int i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

int main(void) {
    unsigned char src[256], dst[256];
    for (int i = 0; i < 256; i++) src[i] = (unsigned char)(i * 7 + 3);
    unsigned h = 0;
    for (int n = 0; n <= 80; n++) {
        memset(dst, 0xAA, sizeof dst);
        memcpy(dst + (n % 5), src + (n % 3), n);
        h = h * 31 + checksum(dst, 256);
        memset(dst + (n % 7), n, n);
        h = h * 31 + checksum(dst, 256);
        memmove(dst + 1, dst, n);
        memmove(dst, dst + 2, n);
        h = h * 31 + checksum(dst, 256);
    }
    printf("%u\n", h);
    struct s { int a[13]; char c; } x, y;
    memset(&x, 0, sizeof x);
    for (int i = 0; i < 13; i++) x.a[i] = i * i;
    x.c = 'm';
    y = x;
    printf("%d %c %d\n", y.a[12], y.c, memcmp(&x, &y, sizeof x));
    return 0;
}
