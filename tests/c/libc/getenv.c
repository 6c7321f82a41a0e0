/* getenv, setenv, unsetenv, putenv over the environment the program was started with
 * (the test sets PNACL_GREETING and PNACL_EMPTY). */
#include <stdio.h>
#include <stdlib.h>

static const char *show(const char *v) { return v ? v : "(unset)"; }

int main(void) {
    printf("PNACL_GREETING=%s\n", show(getenv("PNACL_GREETING")));
    printf("PNACL_EMPTY=[%s]\n", show(getenv("PNACL_EMPTY")));
    printf("PNACL_MISSING=%s\n", show(getenv("PNACL_MISSING")));
    int r = setenv("PNACL_NEW", "one", 0);
    printf("setenv: %d -> %s\n", r, show(getenv("PNACL_NEW")));
    r = setenv("PNACL_NEW", "two", 0);
    printf("setenv keep: %d -> %s\n", r, show(getenv("PNACL_NEW")));
    r = setenv("PNACL_NEW", "three", 1);
    printf("setenv replace: %d -> %s\n", r, show(getenv("PNACL_NEW")));
    static char put[] = "PNACL_PUT=four";
    r = putenv(put);
    printf("putenv: %d -> %s\n", r, show(getenv("PNACL_PUT")));
    r = unsetenv("PNACL_GREETING");
    printf("unsetenv: %d -> %s\n", r, show(getenv("PNACL_GREETING")));
    return 0;
}
