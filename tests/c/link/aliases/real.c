int real_fn(int x) { return x + 1; }
int alias_fn(int x) __attribute__((alias("real_fn")));
int real_var = 7;
extern int alias_var __attribute__((alias("real_var")));
