/* A static function and a static variable in one file have the names of external ones
   defined and used in the others: each reference reaches its own. */
#include <stdio.h>

static int helper(void) { return 1; }
static int shared_count = 100;
int call_helper(void);
int read_count(void);

int main(void) {
    int first, second;
    shared_count++;
    first = call_helper();
    second = read_count();
    printf("%d %d %d %d %d\n", helper(), first, shared_count, second, call_helper());
    return 0;
}
