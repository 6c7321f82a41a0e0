/* Labels as values (GCC's computed goto): a threaded interpreter dispatching through a
 * static table of label addresses, Lua's style (the table built once, every handler
 * jumping to the next instruction's label), a loop in that bytecode, a table indexed by a
 * character class, a label address kept in a local variable, label addresses compared,
 * and a recursive function whose computed gotos jump inside each activation. */
#include <stdint.h>
#include <stdio.h>

enum { PUSH, ADD, SUB, MUL, DUP, SWAP, JNZ, PRINT, HALT };

static long run(const int *code, int limit) {
    static const void *const dispatch[] = { &&op_push, &&op_add, &&op_sub, &&op_mul, &&op_dup,
                                            &&op_swap, &&op_jnz, &&op_print, &&op_halt };
    long stack[64];
    int sp = 0, pc = 0, steps = 0;
#define NEXT                                                                                 \
    do {                                                                                     \
        if (++steps > limit) return -1;                                                      \
        goto *dispatch[code[pc++]];                                                          \
    } while (0)
    NEXT;
op_push:
    stack[sp++] = code[pc++];
    NEXT;
op_add:
    sp--;
    stack[sp - 1] += stack[sp];
    NEXT;
op_sub:
    sp--;
    stack[sp - 1] -= stack[sp];
    NEXT;
op_mul:
    sp--;
    stack[sp - 1] *= stack[sp];
    NEXT;
op_dup:
    stack[sp] = stack[sp - 1];
    sp++;
    NEXT;
op_swap: {
    long t = stack[sp - 1];
    stack[sp - 1] = stack[sp - 2];
    stack[sp - 2] = t;
}
    NEXT;
op_jnz: {
    int target = code[pc++];
    if (stack[--sp] != 0) pc = target;
}
    NEXT;
op_print:
    printf("  %ld\n", stack[--sp]);
    NEXT;
op_halt:
    return sp > 0 ? stack[sp - 1] : 0;
#undef NEXT
}

static const int arithmetic[] = { PUSH, 7, PUSH, 6, MUL, PUSH, 2, SUB, DUP, PRINT, HALT };

static const int countdown[] = {
    PUSH, 5,
    /* 2 */ DUP, PRINT, PUSH, 1, SUB, DUP, JNZ, 2,
    HALT,
};

/* A function's own table of labels, indexed by a character class. */
static int classify(const char *s) {
    static void *const table[4] = { &&other, &&digit, &&upper, &&space };
    int score = 0;
    for (; *s; s++) {
        int k = *s >= '0' && *s <= '9' ? 1 : *s >= 'A' && *s <= 'Z' ? 2 : *s == ' ' ? 3 : 0;
        goto *table[k];
    digit:
        score += 10;
        continue;
    upper:
        score += 100;
        continue;
    space:
        score += 1000;
        continue;
    other:
        score += 1;
    }
    return score;
}

/* A label address in a local variable, chosen at run time, and label addresses compared. */
static int pick(int x) {
    void *where = x > 0 ? &&positive : &&not_positive;
    int same = (where == &&positive);
    goto *where;
positive:
    return 1 + 10 * same;
not_positive:
    return -1 + 10 * same;
}

/* Recursion: each activation jumps through its own label addresses. */
static int depth(int n) {
    static const void *const next[] = { &&stop, &&go };
    goto *next[n > 0];
go:
    return 1 + depth(n - 1);
stop:
    return 0;
}

int main(void) {
    printf("arithmetic: %ld\n", run(arithmetic, 100));
    printf("countdown: %ld\n", run(countdown, 1000));
    printf("limit: %ld\n", run(countdown, 7));
    printf("classify: %d\n", classify("Hello World 2024 ok"));
    printf("pick: %d %d %d\n", pick(5), pick(0), pick(-3));
    printf("depth: %d\n", depth(25));
    uintptr_t a = (uintptr_t)&&end, b = (uintptr_t)&&end;
    printf("same label, same address: %d\n", a == b);
    goto *(void *)a;
end:
    return 0;
}
