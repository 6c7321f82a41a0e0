#include <stdio.h>

struct S { char c; double d; int e; };
union U { double d; int i[3]; };
static struct { char k[3]; int z; } anon_b = { { 1, 2, 3 }, 77 };
static struct { double tag; struct { char lo; long long hi; } range; } nested_b[2] = { { 0.5, { 'q', 1234567890123LL } } };
struct Shared { int id; double weight; };
static struct S table[3] = { { 1, 2.5, 3 }, { 4, 5.5, 6 }, { 7, 8.5, 9 } };

__attribute__((noinline)) static int stride(struct S *p) { return (int)((char *)&p[1] - (char *)&p[0]); }

__attribute__((noinline)) static int b_s(struct S *s, union U *u, int k) {
    struct S copy = s[k];
    return (int)(copy.c + copy.d * 2 + copy.e + u->i[2]) + stride(s);
}

int b_total(int k) {
    union U u;
    u.i[0] = 1; u.i[1] = 2; u.i[2] = 3000;
    nested_b[k].range.hi += anon_b.z;
    return b_s(table, &u, k + 1) + anon_b.z + anon_b.k[2] + (int)(nested_b[k].range.hi % 1000) + nested_b[k].range.lo;
}

double b_weigh(struct Shared *s) { return s->id * s->weight + nested_b[0].tag + (int)sizeof nested_b; }
