/* Two struct Rec with as many fields but other field types: linking by name used to
   give both files one layout, silently (no pass could notice). */
#include <stdio.h>

struct Rec { int key; int value; };

int b_main(int n);

__attribute__((noinline)) static int stride(struct Rec *p) { return (int)((char *)&p[1] - (char *)&p[0]); }

__attribute__((noinline)) static int fill(struct Rec *r, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) {
        r[i].key = i;
        r[i].value = i * 10;
    }
    for (int i = 0; i < n; i++) s = s * 7 + r[i].key + r[i].value;
    return s;
}

int main(void) {
    struct Rec recs[4];
    int a = fill(recs, 4);
    int b = b_main(4);
    printf("%d %d %d\n", a, stride(recs), b);
    return 0;
}
