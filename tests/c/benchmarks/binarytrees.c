/* binarytrees: the Computer Language Benchmarks Game's allocation benchmark (the
 * item-checking version whose output the corpus pexe prints). Written for pnacl's tests. */
#include <stdio.h>
#include <stdlib.h>

typedef struct Node {
    struct Node *left, *right;
    long item;
} Node;

static Node *make(Node *left, Node *right, long item) {
    Node *n = malloc(sizeof *n);
    n->left = left;
    n->right = right;
    n->item = item;
    return n;
}

static Node *bottom_up(long item, unsigned depth) {
    if (depth > 0)
        return make(bottom_up(2 * item - 1, depth - 1), bottom_up(2 * item, depth - 1), item);
    return make(NULL, NULL, item);
}

static long check(const Node *n) {
    if (n->left == NULL)
        return n->item;
    return n->item + check(n->left) - check(n->right);
}

static void release(Node *n) {
    if (n->left) {
        release(n->left);
        release(n->right);
    }
    free(n);
}

int main(int argc, char **argv) {
    unsigned n = argc > 1 ? (unsigned)atol(argv[1]) : 10;
    unsigned min_depth = 4;
    unsigned max_depth = min_depth + 2 > n ? min_depth + 2 : n;
    unsigned stretch = max_depth + 1;
    Node *t = bottom_up(0, stretch);
    printf("stretch tree of depth %u\t check: %li\n", stretch, check(t));
    release(t);
    Node *long_lived = bottom_up(0, max_depth);
    for (unsigned depth = min_depth; depth <= max_depth; depth += 2) {
        long iterations = 1L << (max_depth - depth + min_depth);
        long sum = 0;
        for (long i = 1; i <= iterations; i++) {
            t = bottom_up(i, depth);
            sum += check(t);
            release(t);
            t = bottom_up(-i, depth);
            sum += check(t);
            release(t);
        }
        printf("%li\t trees of depth %u\t check: %li\n", iterations * 2, depth, sum);
    }
    printf("long lived tree of depth %u\t check: %li\n", max_depth, check(long_lived));
    return 0;
}
