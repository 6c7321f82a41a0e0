/* unistd.c: the POSIX file-descriptor calls over the IRT fdio interface. An absent fdio
 * interface gives ENOSYS, as newlib's stubs do. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"

static ssize_t fail(int err) {
  errno = err;
  return -1;
}

ssize_t read(int fd, void *buf, size_t count) {
  size_t n;
  if (!__pnacl_irt_fdio.read)
    return fail(ENOSYS);
  int err = __pnacl_irt_fdio.read(fd, buf, count, &n);
  return err ? fail(err) : (ssize_t)n;
}

ssize_t write(int fd, const void *buf, size_t count) {
  size_t n;
  if (!__pnacl_irt_fdio.write)
    return fail(ENOSYS);
  int err = __pnacl_irt_fdio.write(fd, buf, count, &n);
  return err ? fail(err) : (ssize_t)n;
}

int __pnacl_write_all(int fd, const void *buf, size_t len) {
  const char *p = buf;
  if (!__pnacl_irt_fdio.write)
    return ENOSYS;
  while (len > 0) {
    size_t n;
    int err = __pnacl_irt_fdio.write(fd, p, len, &n);
    if (err)
      return err;
    if (n == 0 || n > len)
      return EIO;
    p += n;
    len -= n;
  }
  return 0;
}

int close(int fd) {
  if (!__pnacl_irt_fdio.close)
    return fail(ENOSYS);
  int err = __pnacl_irt_fdio.close(fd);
  return err ? fail(err) : 0;
}

off_t lseek(int fd, off_t offset, int whence) {
  off_t pos;
  if (!__pnacl_irt_fdio.seek)
    return fail(ENOSYS);
  int err = __pnacl_irt_fdio.seek(fd, offset, whence, &pos);
  return err ? fail(err) : pos;
}

int isatty(int fd) {
  struct pnacl_irt_dev_fdio_3 t;
  int result = 0;
  if (!__pnacl_irt_query_table(PNACL_IRT_DEV_FDIO_3, &t, sizeof t))
    return (int)fail(ENOTTY);
  int err = t.isatty(fd, &result);
  if (err)
    return (int)fail(err);
  return result;
}

int open(const char *path, int flags, ...) {
  size_t slots;
  const struct pnacl_irt_filename *fn = __pnacl_irt_filename(&slots);
  mode_t mode = 0;
  int fd;
  if (flags & O_CREAT) {
    va_list ap;
    va_start(ap, flags);
    mode = va_arg(ap, mode_t);
    va_end(ap);
  }
  if (!fn)
    return (int)fail(ENOSYS);
  int err = fn->open(path, flags, mode, &fd);
  return err ? (int)fail(err) : fd;
}

long sysconf(int name) {
  int value;
  int err = __pnacl_irt_basic.sysconf(name, &value);
  return err ? fail(err) : value;
}

int getpagesize(void) { return (int)sysconf(_SC_PAGESIZE); }

int nanosleep(const struct timespec *req, struct timespec *rem) {
  int err = __pnacl_irt_basic.nanosleep(req, rem);
  return err ? (int)fail(err) : 0;
}

int usleep(useconds_t usec) {
  struct timespec ts = {usec / 1000000, (long)(usec % 1000000) * 1000};
  return nanosleep(&ts, 0);
}

unsigned sleep(unsigned seconds) {
  struct timespec ts = {seconds, 0};
  return nanosleep(&ts, 0) ? seconds : 0;
}

void _exit(int status) { _Exit(status); }
