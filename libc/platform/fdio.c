/* fdio.c: the descriptor calls newlib's reentrant layer makes (_read, _write, _close,
 * _lseek, _fstat, _isatty) and the other POSIX descriptor calls, over the IRT's fdio
 * and dev-fdio interfaces. A missing interface or slot gives ENOSYS. */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

#define NACL_ENOSYS 38
#define NACL_ENOTTY 25

/* The dev-fdio slot at byte offset `off` of struct pnacl_irt_dev_fdio_3, or null. */
#define DEV_FDIO(field)                                                                    \
  ({                                                                                       \
    size_t slots_;                                                                         \
    const struct pnacl_irt_dev_fdio_3 *t_ = __pnacl_irt_dev_fdio(&slots_);                 \
    t_ && __builtin_offsetof(struct pnacl_irt_dev_fdio_3, field) / sizeof(void *) < slots_ \
        ? t_->field                                                                        \
        : 0;                                                                               \
  })

int _read(int fd, void *buf, size_t count) {
  size_t n;
  if (!__pnacl_irt_fdio.read)
    return __pnacl_fail(NACL_ENOSYS);
  int err = __pnacl_irt_fdio.read(fd, buf, count, &n);
  return err ? __pnacl_fail(err) : (int)n;
}

int _write(int fd, const void *buf, size_t count) {
  size_t n;
  if (!__pnacl_irt_fdio.write)
    return __pnacl_fail(NACL_ENOSYS);
  int err = __pnacl_irt_fdio.write(fd, buf, count, &n);
  return err ? __pnacl_fail(err) : (int)n;
}

int _close(int fd) {
  if (!__pnacl_irt_fdio.close)
    return __pnacl_fail(NACL_ENOSYS);
  int err = __pnacl_irt_fdio.close(fd);
  return err ? __pnacl_fail(err) : 0;
}

_off_t _lseek(int fd, _off_t offset, int whence) {
  _off_t pos;
  if (!__pnacl_irt_fdio.seek)
    return __pnacl_fail(NACL_ENOSYS);
  int err = __pnacl_irt_fdio.seek(fd, offset, whence, &pos);
  return err ? __pnacl_fail(err) : pos;
}

int _fstat(int fd, struct stat *st) {
  struct pnacl_abi_stat abi;
  if (!__pnacl_irt_fdio.fstat)
    return __pnacl_fail(NACL_ENOSYS);
  int err = __pnacl_irt_fdio.fstat(fd, &abi);
  if (err)
    return __pnacl_fail(err);
  __pnacl_stat_from_abi(st, &abi);
  return 0;
}

/* dev-fdio-0.3's isatty; without it, a character device is taken for a terminal. */
int _isatty(int fd) {
  int (*isatty_fn)(int, int *) = DEV_FDIO(isatty);
  if (isatty_fn) {
    int result = 0;
    int err = isatty_fn(fd, &result);
    if (err) {
      __pnacl_fail(err);
      return 0;
    }
    if (!result)
      errno = ENOTTY;
    return result;
  }
  struct stat st;
  if (_fstat(fd, &st) != 0)
    return 0;
  if (S_ISCHR(st.st_mode))
    return 1;
  errno = ENOTTY;
  return 0;
}

int dup(int fd) {
  int newfd;
  if (!__pnacl_irt_fdio.dup)
    return __pnacl_fail(NACL_ENOSYS);
  int err = __pnacl_irt_fdio.dup(fd, &newfd);
  return err ? __pnacl_fail(err) : newfd;
}

int dup2(int fd, int newfd) {
  if (!__pnacl_irt_fdio.dup2)
    return __pnacl_fail(NACL_ENOSYS);
  int err = __pnacl_irt_fdio.dup2(fd, newfd);
  return err ? __pnacl_fail(err) : newfd;
}

int getdents(int fd, void *buf, int count) {
  size_t n;
  if (!__pnacl_irt_fdio.getdents)
    return __pnacl_fail(NACL_ENOSYS);
  int err = __pnacl_irt_fdio.getdents(fd, buf, (size_t)count, &n);
  return err ? __pnacl_fail(err) : (int)n;
}

static int dev_call1(int (*fn)(int), int fd) {
  if (!fn)
    return __pnacl_fail(NACL_ENOSYS);
  int err = fn(fd);
  return err ? __pnacl_fail(err) : 0;
}

int fsync(int fd) { return dev_call1(DEV_FDIO(fsync), fd); }
int fdatasync(int fd) { return dev_call1(DEV_FDIO(fdatasync), fd); }
int fchdir(int fd) { return dev_call1(DEV_FDIO(fchdir), fd); }

int fchmod(int fd, mode_t mode) {
  int (*fn)(int, mode_t) = DEV_FDIO(fchmod);
  if (!fn)
    return __pnacl_fail(NACL_ENOSYS);
  int err = fn(fd, mode);
  return err ? __pnacl_fail(err) : 0;
}

int ftruncate(int fd, off_t length) {
  int (*fn)(int, off_t) = DEV_FDIO(ftruncate);
  if (!fn)
    return __pnacl_fail(NACL_ENOSYS);
  int err = fn(fd, length);
  return err ? __pnacl_fail(err) : 0;
}
