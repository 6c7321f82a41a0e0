/* Declarations that differ from the definitions in type, as C allows them across files:
   an unprototyped function, an array of unknown size, a function's address stored. */
#include <stdio.h>

int twice();
void set_flag();
extern int table[];
extern char greeting[];
extern int flag;
int (*stored)() = twice;

int main(void) {
    int s = 0;
    set_flag(5);
    for (int i = 0; i < 4; i++) s += table[i];
    printf("%d %d %d %s %d\n", twice(21), stored(4), s, greeting, flag);
    return 0;
}
