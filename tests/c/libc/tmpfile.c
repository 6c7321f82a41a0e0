/* tmpfile and tmpnam: a temporary file that can be written, read back and is gone after
 * closing; names that differ. */
#include <stdio.h>
#include <string.h>

int main(void) {
    FILE *f = tmpfile();
    printf("tmpfile: %s\n", f ? "opened" : "failed");
    if (!f)
        return 1;
    for (int i = 0; i < 1000; i++)
        fprintf(f, "line %d\n", i);
    printf("ftell %ld\n", ftell(f));
    rewind(f);
    char line[32];
    int lines = 0;
    long sum = 0;
    while (fgets(line, sizeof line, f)) {
        int k;
        if (sscanf(line, "line %d", &k) == 1)
            sum += k;
        lines++;
    }
    printf("read back %d lines, sum %ld\n", lines, sum);
    fclose(f);
    char a[L_tmpnam], b[L_tmpnam];
    printf("tmpnam: %d %d\n", tmpnam(a) != NULL, tmpnam(b) != NULL);
    printf("distinct: %d\n", strcmp(a, b) != 0);
    FILE *g = fopen(a, "w+");
    printf("usable: %d\n", g != NULL && fputs("x", g) >= 0);
    if (g) {
        fclose(g);
        printf("removed: %d\n", remove(a) == 0);
    }
    return 0;
}
