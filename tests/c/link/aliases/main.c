/* An alias defined in one file, used as an ordinary function and variable in the other. */
#include <stdio.h>

int alias_fn(int x);
extern int alias_var;
int real_fn(int x);

int main(void) {
    alias_var += 3;
    printf("%d %d %d\n", alias_fn(41), real_fn(1), alias_var);
    return 0;
}
