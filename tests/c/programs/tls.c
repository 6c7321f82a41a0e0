/* Thread-local variables: initialized, zero, arrays, their addresses. */
#include <stdio.h>

static _Thread_local int counter = 5;
static _Thread_local long long big_zero;
static _Thread_local char name[8] = "tls";
_Thread_local double ratio = 0.5;

static int *counter_address(void) { return &counter; }

int main(void) {
    for (int i = 0; i < 10; i++) {
        counter += i;
        big_zero += (long long)counter << 20;
        ratio *= 1.5;
    }
    *counter_address() += 1;
    name[3] = '!';
    printf("%d %lld %.4f %s\n", counter, big_zero, ratio, name);
    return 0;
}
