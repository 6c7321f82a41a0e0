/* Tentative definitions (-fcommon) of the same variables with different sizes and
   alignments: the largest size and the largest alignment win, in any order. */
#include <stdio.h>

int buf[4];
int aligned_common __attribute__((aligned(64)));
long long counter;

void big_fill(void);
int big_read(int i);

int main(void) {
    buf[0] = 11;
    big_fill();
    counter += 3;
    printf("%d %d %d %d %lld\n", buf[0], buf[3], big_read(15), (int)((unsigned long)&aligned_common % 64), counter);
    return 0;
}
