#include "list.h"

static struct node *next_of(struct node *n) { return n->next; }

struct node *push(struct node *head, struct node *n, int value) {
    n->next = head;
    n->value = value;
    n->walk = next_of;
    return n;
}

int sum(const struct node *head) {
    int s = 0;
    for (; head; head = head->next) s = s * 3 + head->value;
    return s;
}
