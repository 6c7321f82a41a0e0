/* dlfcn.c: dynamic loading fails, as <dlfcn.h> says. dlerror reports the last failure
 * once, then NULL, as POSIX requires (the state is per process: a program that loads
 * nothing has nothing to race on). */
#include <dlfcn.h>
#include <stddef.h>

static const char *last_error;

void *dlopen(const char *file, int mode) {
  (void)mode;
  last_error = file ? "dynamic loading is not supported in a pexe" : "no handle for the program itself in a pexe";
  return NULL;
}

void *dlsym(void *handle, const char *name) {
  (void)handle;
  (void)name;
  last_error = "dynamic loading is not supported in a pexe";
  return NULL;
}

int dlclose(void *handle) {
  (void)handle;
  last_error = "invalid handle";
  return -1;
}

char *dlerror(void) {
  const char *e = last_error;
  last_error = NULL;
  return (char *)e;
}
