/* misc.c: the rest of what newlib leaves to the system: fcntl's few portable requests,
 * getentropy (arc4random's seed) over the IRT's random interface, posix_memalign, and
 * the user database of a sandboxed program, which has one user (0, with no name) and no
 * password file; and popen, which fails. */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "internal.h"

#define NACL_ENOSYS 38
#define PNACL_IRT_RANDOM "nacl-irt-random-0.1"

int _fcntl(int fd, int cmd, ...) {
  switch (cmd) {
  case F_DUPFD:
    return dup(fd);
  case F_GETFD:
  case F_SETFD:
    /* Descriptors are never inherited: there is no exec. */
    return 0;
  default:
    return __pnacl_fail(NACL_ENOSYS);
  }
}

int getentropy(void *buf, size_t len) {
  static struct {
    int (*get_random_bytes)(void *buf, size_t count, size_t *nread);
  } random;
  static volatile int queried;
  if (len > 256) {
    errno = EIO;
    return -1;
  }
  if (!PNACL_LOAD(&queried)) {
    if (!__pnacl_irt_query_table(PNACL_IRT_RANDOM, &random, sizeof random))
      return __pnacl_fail(NACL_ENOSYS);
    PNACL_STORE(&queried, 1);
  }
  char *p = buf;
  while (len > 0) {
    size_t n;
    int err = random.get_random_bytes(p, len, &n);
    if (err)
      return __pnacl_fail(err);
    p += n;
    len -= n;
  }
  return 0;
}

int posix_memalign(void **out, size_t align, size_t size) {
  if (align < sizeof(void *) || (align & (align - 1)))
    return EINVAL;
  void *p = memalign(align, size);
  if (!p)
    return ENOMEM;
  *out = p;
  return 0;
}

uid_t getuid(void) { return 0; }
uid_t geteuid(void) { return 0; }
gid_t getgid(void) { return 0; }
gid_t getegid(void) { return 0; }
int issetugid(void) { return 0; }

char *getlogin(void) {
  errno = ENXIO;
  return 0;
}

struct passwd *getpwnam(const char *name) {
  (void)name;
  return 0;
}

struct passwd *getpwuid(uid_t uid) {
  (void)uid;
  return 0;
}

/* A NaCl program cannot start processes: popen fails as fork would (newlib's popen is
 * left out, -D_NO_POPEN). */
FILE *popen(const char *command, const char *mode) {
  (void)command, (void)mode;
  __pnacl_fail(NACL_ENOSYS);
  return 0;
}

int pclose(FILE *stream) {
  (void)stream;
  errno = ECHILD;
  return -1;
}
