/* main.c sees struct Counter only as an incomplete type; counter.c defines it; other.c
   has a struct Counter of its own with another body. */
#include <stdio.h>

struct Counter;
struct Counter *counter_new(int start);
void counter_add(struct Counter *c, int n);
long counter_value(const struct Counter *c);
long other_counter(void);

int main(void) {
    struct Counter *c = counter_new(40);
    struct Counter *d = counter_new(1000);
    counter_add(c, 2);
    counter_add(d, 7);
    counter_add(c, 3);
    printf("%ld %ld %ld\n", counter_value(c), counter_value(d), other_counter());
    return 0;
}
