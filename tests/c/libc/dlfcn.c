/* <dlfcn.h>: loading a library that does not exist fails, and dlerror reports it once.
 * (pnacl's dlopen always fails: a pexe loads no other code.) */
#include <dlfcn.h>
#include <stdio.h>

int main(void) {
    void *h = dlopen("/nonexistent/libmissing.so", RTLD_NOW);
    printf("dlopen: %s\n", h ? "a handle" : "NULL");
    printf("dlerror: %s\n", dlerror() ? "a message" : "NULL");
    printf("dlerror again: %s\n", dlerror() ? "a message" : "NULL");
    return 0;
}
