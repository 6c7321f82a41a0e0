struct Item {
    struct Item *next, *prev, *child;
    int type;
    int valueint;
    double valuedouble;
    char *string;
    int flags;
};
long item_sum(struct Item it);
long item_sum_ptr_free(struct Item it);
struct Item item_bump(struct Item it, int by);
long apply(long (*f)(struct Item), struct Item it);
