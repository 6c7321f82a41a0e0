/* setjmp and longjmp, nested, from deep calls, with values. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf outer, inner;
static int depth_reached;

static void dive(int depth, int target) {
    depth_reached = depth;
    if (depth == target) longjmp(inner, depth * 10);
    dive(depth + 1, target);
}

int main(void) {
    volatile int rounds = 0;
    int r = setjmp(outer);
    printf("outer returned %d\n", r);
    if (r < 3) {
        int v = setjmp(inner);
        if (v == 0) dive(0, 4 + rounds);
        printf("inner returned %d at depth %d\n", v, depth_reached);
        rounds++;
        longjmp(outer, r + 1);
    }
    printf("done after %d rounds\n", rounds);
    return 0;
}
