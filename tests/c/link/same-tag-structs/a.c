/* struct S, the anonymous structs and the union have other bodies in b.c: each file
   must keep its own layout, whatever the order the files are linked in. */
#include <stdio.h>

struct S { int a; int b; };
union U { short s[3]; char c; };
static struct { short x; double y; } anon_a = { 3, 4.5 };
static struct { char tag; struct { int lo, hi; } range; } nested_a[2] = { { 'a', { -7, 70 } }, { 'z', { 1, 2 } } };
struct Shared { int id; double weight; };

int b_total(int k);
double b_weigh(struct Shared *s);

/* The stride of an array of S, measured through a pointer the compiler cannot see through. */
__attribute__((noinline)) static int stride(struct S *p) { return (int)((char *)&p[1] - (char *)&p[0]); }

__attribute__((noinline)) static int a_total(struct S *s, union U *u, int k) {
    struct S copy = s[k];
    return copy.a * 100 + copy.b * 10 + u->s[2] + stride(s);
}

int main(void) {
    struct S s[2] = { { 4, 5 }, { 6, 7 } };
    union U u = { { 1, 2, 3 } };
    struct Shared sh = { 9, 2.25 };
    int k = (int)anon_a.y - 3;
    anon_a.x += 1;
    nested_a[k].range.hi += anon_a.x;
    printf("a: %d %d %g %c %d %d %d\n", a_total(s, &u, k), anon_a.x, anon_a.y, nested_a[k].tag, nested_a[k].range.lo,
           nested_a[k].range.hi, (int)sizeof nested_a);
    printf("b: %d %g\n", b_total(k), b_weigh(&sh));
    return 0;
}
