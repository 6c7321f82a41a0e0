/* env.c: the environment _start received. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

char **environ;

char *getenv(const char *name) {
  size_t len = strlen(name);
  if (!environ || len == 0 || strchr(name, '='))
    return 0;
  for (char **e = environ; *e; e++)
    if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
      return *e + len + 1;
  return 0;
}
