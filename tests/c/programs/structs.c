/* Structs passed and returned by value (byval / sret), nested and with arrays. */
#include <stdio.h>
#include <string.h>

struct point { int x, y; };
struct big { char tag; double d; int arr[5]; struct point p; };
struct tiny { char c; };
struct mixed { short s; long long ll; float f; };

static struct point add(struct point a, struct point b) {
    struct point r = { a.x + b.x, a.y + b.y };
    return r;
}

static struct big make_big(int seed) {
    struct big b;
    memset(&b, 0, sizeof b);
    b.tag = (char)('a' + seed % 26);
    b.d = seed * 1.5;
    for (int i = 0; i < 5; i++) b.arr[i] = seed * i;
    b.p.x = -seed;
    b.p.y = seed * seed;
    return b;
}

static long long sum_big(struct big b) {
    long long s = b.tag + (long long)b.d + b.p.x + b.p.y;
    for (int i = 0; i < 5; i++) s += b.arr[i];
    b.arr[0] = 1000; /* the caller's copy must not change */
    return s;
}

static struct tiny next(struct tiny t) { t.c++; return t; }
static struct mixed scale(struct mixed m, int k) { m.s *= k; m.ll *= k; m.f *= k; return m; }

int main(void) {
    struct point p = add((struct point){1, 2}, (struct point){30, 40});
    printf("point %d %d\n", p.x, p.y);
    struct big b = make_big(7);
    printf("big %c %.1f %d %d %d\n", b.tag, b.d, b.arr[4], b.p.x, b.p.y);
    printf("sum %lld, after %d\n", sum_big(b), b.arr[0]);
    struct big copy = b;
    copy.arr[2] = 99;
    printf("copy %d original %d\n", copy.arr[2], b.arr[2]);
    struct tiny t = { 'x' };
    t = next(next(t));
    printf("tiny %c\n", t.c);
    struct mixed m = scale((struct mixed){ 3, 1234567890123LL, 1.25f }, 3);
    printf("mixed %d %lld %.2f\n", m.s, m.ll, m.f);
    struct big arr[3];
    for (int i = 0; i < 3; i++) arr[i] = make_big(i + 1);
    long long total = 0;
    for (int i = 0; i < 3; i++) total += sum_big(arr[i]);
    printf("total %lld\n", total);
    return 0;
}
