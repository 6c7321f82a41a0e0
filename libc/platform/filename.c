/* filename.c: the path calls, over the IRT's filename interfaces (dev-filename-0.3, 0.2
 * or filename-0.1, whichever the IRT has; a call whose slot is missing gives ENOSYS).
 * newlib's reentrant layer calls _open, _stat, _unlink, _link, _rename and _mkdir; the
 * others are the POSIX calls newlib leaves to the system. Open flags are translated to
 * the NaCl ABI's (runtime-facts §4.5), whose values differ from newlib's. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <utime.h>
#include "internal.h"

#define NACL_ENOSYS 38

/* The filename slot `field`, or null when the IRT lacks it. */
#define FILENAME(field)                                                                  \
  ({                                                                                     \
    size_t slots_;                                                                       \
    const struct pnacl_irt_filename *t_ = __pnacl_irt_filename(&slots_);                 \
    t_ && __builtin_offsetof(struct pnacl_irt_filename, field) / sizeof(void *) < slots_ \
        ? t_->field                                                                      \
        : 0;                                                                             \
  })

#define CALL(field, ...)                        \
  do {                                          \
    __typeof__(FILENAME(field)) fn_ = FILENAME(field); \
    if (!fn_)                                   \
      return __pnacl_fail(NACL_ENOSYS);         \
    int err_ = fn_(__VA_ARGS__);                \
    return err_ ? __pnacl_fail(err_) : 0;       \
  } while (0)

/* newlib's open flags to NaCl's (Linux's values). */
static int abi_flags(int flags) {
  static const struct {
    int newlib, nacl;
  } map[] = {
      {O_CREAT, 0100},    {O_EXCL, 0200},      {O_NOCTTY, 0400},    {O_TRUNC, 01000},
      {O_APPEND, 02000},  {O_NONBLOCK, 04000}, {O_SYNC, 010000},    {O_DIRECTORY, 0200000},
      {O_NOFOLLOW, 0400000}, {O_CLOEXEC, 02000000},
  };
  int out = flags & O_ACCMODE;
  for (unsigned i = 0; i < sizeof map / sizeof map[0]; i++)
    if (flags & map[i].newlib)
      out |= map[i].nacl;
  return out;
}

int _open(const char *path, int flags, ...) {
  int (*fn)(const char *, int, mode_t, int *) = FILENAME(open);
  int fd;
  mode_t mode = 0;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  if (!fn)
    return __pnacl_fail(NACL_ENOSYS);
  int err = fn(path, abi_flags(flags), mode, &fd);
  return err ? __pnacl_fail(err) : fd;
}

static int stat_with(int (*fn)(const char *, struct pnacl_abi_stat *), const char *path,
                     struct stat *st) {
  struct pnacl_abi_stat abi;
  if (!fn)
    return __pnacl_fail(NACL_ENOSYS);
  int err = fn(path, &abi);
  if (err)
    return __pnacl_fail(err);
  __pnacl_stat_from_abi(st, &abi);
  return 0;
}

int _stat(const char *path, struct stat *st) { return stat_with(FILENAME(stat), path, st); }
int lstat(const char *path, struct stat *st) { return stat_with(FILENAME(lstat), path, st); }
int _unlink(const char *path) { CALL(unlink, path); }
int _link(const char *old, const char *new) { CALL(link, old, new); }
int _rename(const char *old, const char *new) { CALL(rename, old, new); }
int _mkdir(const char *path, mode_t mode) { CALL(mkdir, path, mode); }
int mkdir(const char *path, mode_t mode) { return _mkdir(path, mode); }
int rmdir(const char *path) { CALL(rmdir, path); }
int chdir(const char *path) { CALL(chdir, path); }
int truncate(const char *path, off_t length) { CALL(truncate, path, length); }
int symlink(const char *target, const char *path) { CALL(symlink, target, path); }
int chmod(const char *path, mode_t mode) { CALL(chmod, path, mode); }
int access(const char *path, int mode) { CALL(access, path, mode); }
int utimes(const char *path, const struct timeval times[2]) { CALL(utimes, path, times); }

int utime(const char *path, const struct utimbuf *times) {
  if (!times)
    return utimes(path, 0);
  struct timeval tv[2] = {{times->actime, 0}, {times->modtime, 0}};
  return utimes(path, tv);
}

char *getcwd(char *buf, size_t size) {
  int (*fn)(char *, size_t) = FILENAME(getcwd);
  if (!fn) {
    __pnacl_fail(NACL_ENOSYS);
    return 0;
  }
  if (!buf) {
    /* The glibc extension: a buffer of the size asked for, or as large as needed. */
    size_t n = size ? size : 4096;
    char *own = malloc(n);
    if (!own)
      return 0;
    if (!getcwd(own, n)) {
      free(own);
      return 0;
    }
    return own;
  }
  int err = fn(buf, size);
  if (err) {
    __pnacl_fail(err);
    return 0;
  }
  return buf;
}

ssize_t readlink(const char *path, char *buf, size_t size) {
  int (*fn)(const char *, char *, size_t, size_t *) = FILENAME(readlink);
  size_t n;
  if (!fn)
    return __pnacl_fail(NACL_ENOSYS);
  int err = fn(path, buf, size, &n);
  return err ? __pnacl_fail(err) : (ssize_t)n;
}
