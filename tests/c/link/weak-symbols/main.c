/* Weak definitions give way to a strong one in any file; of two weak definitions, the
   first linked wins (as ld takes it). */
#include <stdio.h>

__attribute__((weak)) int pick(void) { return 1; }
__attribute__((weak)) int level = 1;
__attribute__((weak)) int first_weak(void) { return 10; }
int strong_b(void);
int weak_only(void);

int main(void) {
    printf("%d %d %d %d %d\n", pick(), level, first_weak(), strong_b(), weak_only());
    return 0;
}
