/* A struct passed by value to, and returned from, functions defined in another file
   (cJSON's 40-byte cJSON struct was copied with 8 bytes). The callee changes its copy; the
   caller's must not change. main.c has types of its own before struct Item, so that its
   type numbers differ from item.c's. */
#include <stdio.h>

struct Pair { char c; short s; };
union Mix { double d; struct Pair p[3]; };

__attribute__((noinline)) static int pair_sum(struct Pair p, union Mix m) { return p.c + p.s + m.p[2].s; }

#include "item.h"

int main(void) {
    struct Pair pr = { 1, 2 };
    union Mix mx;
    mx.p[2].s = 30;
    struct Item it = { 0, 0, 0, 7, 123456, 3.5, "name", 9 };
    struct Item copy;
    long total = pair_sum(pr, mx);
    for (int i = 0; i < 3; i++) {
        total += item_sum(it);
        it.valueint += i;
    }
    copy = item_bump(it, 5);
    printf("%ld %d %d %g %s %d\n", total, it.valueint, copy.valueint, copy.valuedouble, copy.string, copy.type);
    printf("%ld\n", apply(item_sum, it) + apply(item_sum_ptr_free, it));
    return 0;
}
