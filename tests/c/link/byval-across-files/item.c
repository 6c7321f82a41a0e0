#include "item.h"

long item_sum(struct Item it) {
    long s = it.type + it.valueint + (long)(it.valuedouble * 10) + it.string[0] + it.flags;
    it.valueint = -1; /* the callee's own copy */
    it.string = 0;
    return s;
}

long item_sum_ptr_free(struct Item it) { return (it.next == 0) + (it.prev == 0) + (it.child == 0); }

struct Item item_bump(struct Item it, int by) {
    it.valueint += by;
    it.valuedouble *= by;
    it.type = by;
    return it;
}

long apply(long (*f)(struct Item), struct Item it) { return f(it) * 2; }
