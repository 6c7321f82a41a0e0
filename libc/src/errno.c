/* errno.c: a plain global; the library is single-threaded. */
#include <errno.h>

int errno;
