/* misc.c: the rest of what newlib leaves to the system: fcntl's few portable requests,
 * getentropy (arc4random's seed) over the IRT's random interface; the
 * users of a sandboxed program, which has one (0, with no name), no password file, and
 * owns every file; and what needs other processes (popen, pipe), which fails. */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
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

/* Files belong to the one user: changing the owner to it (or leaving it, -1) succeeds. */
static int owner_ok(uid_t uid, gid_t gid) {
  if ((uid == 0 || uid == (uid_t)-1) && (gid == 0 || gid == (gid_t)-1))
    return 0;
  errno = EPERM;
  return -1;
}

int chown(const char *path, uid_t uid, gid_t gid) {
  struct stat st;
  return stat(path, &st) ? -1 : owner_ok(uid, gid);
}

int lchown(const char *path, uid_t uid, gid_t gid) {
  struct stat st;
  return lstat(path, &st) ? -1 : owner_ok(uid, gid);
}

int fchown(int fd, uid_t uid, gid_t gid) {
  struct stat st;
  return fstat(fd, &st) ? -1 : owner_ok(uid, gid);
}

/* The file-creation mask is kept for umask's callers; the host's applies to new files. */
static mode_t creation_mask = 022;

mode_t umask(mode_t mask) {
  mode_t old = creation_mask;
  creation_mask = mask & 0777;
  return old;
}

pid_t getppid(void) { return 1; }

int pipe(int fds[2]) {
  (void)fds;
  return __pnacl_fail(NACL_ENOSYS);
}
