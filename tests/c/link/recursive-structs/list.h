struct node { struct node *next; int value; struct node *(*walk)(struct node *); };
struct node *push(struct node *head, struct node *n, int value);
int sum(const struct node *head);
