/* A recursive struct shared through a header, and a recursive struct of the same tag
   with another body in tree.c. */
#include <stdio.h>
#include "list.h"

int tree_depth_sum(void);

int main(void) {
    struct node cells[5];
    struct node *head = 0;
    for (int i = 0; i < 5; i++) head = push(head, &cells[i], i * i + 1);
    printf("%d %d %d\n", sum(head), head->walk(head)->value, tree_depth_sum());
    return 0;
}
