/* Constant expressions in global initializers: addresses of globals and their elements,
 * string tables, function pointer tables, pointer arithmetic. */
#include <stdio.h>

static int numbers[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static int *middle = &numbers[4];
static int *past = numbers + 8;
static const char *words[] = { "alpha", "beta", "gamma", 0 };
static const char *second_letter = &"xyz"[1];
struct entry { const char *name; int (*fn)(int); int *data; };
static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }
static struct entry entries[] = { { "twice", twice, &numbers[1] }, { "square", square, numbers + 6 } };
static long addr_diff = (long)sizeof(numbers) / sizeof(numbers[0]);
static char buffer[16] = "init";
static char *cursor = buffer + 2;

int main(void) {
    printf("%d %d %ld\n", *middle, (int)(past - numbers), addr_diff);
    for (const char **w = words; *w; w++) printf("%s ", *w);
    printf("%s\n", second_letter);
    for (unsigned i = 0; i < sizeof entries / sizeof entries[0]; i++)
        printf("%s(%d) = %d\n", entries[i].name, *entries[i].data, entries[i].fn(*entries[i].data));
    *cursor = 'X';
    printf("%s\n", buffer);
    return 0;
}
