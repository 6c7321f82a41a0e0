/* host_irt.c: an implementation of the NaCl IRT interfaces the library uses, over Linux
 * (through glibc's wrappers), for the native test build. Function pointers in the tables
 * are host pointers, so the table sizes are 8 bytes a slot here instead of 4: the
 * library computes its query sizes from sizeof, so both agree. NaCl errno values, open
 * flags and struct layouts equal Linux x86-64's where the library uses them. */
#define _GNU_SOURCE
#include "host_irt.h"
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

const char *const *host_irt_hidden;
char host_irt_query_log[4096];
int host_irt_capture;

/* The capture of writes to fds 1 and 2. */
static char capture[1 << 20];
static size_t capture_len;

static void capture_write(int fd, const void *buf, size_t n) {
  int k = snprintf(capture + capture_len, sizeof capture - capture_len, "[%d:", fd);
  capture_len += (size_t)k;
  if (capture_len + n + 2 < sizeof capture) {
    memcpy(capture + capture_len, buf, n);
    capture_len += n;
  }
  capture[capture_len++] = ']';
}

void host_irt_dump_capture(void) {
  fwrite(capture, 1, capture_len, stdout);
  fflush(stdout);
}

static int err(void) { return errno; }

static void irt_exit(int status) {
  if (host_irt_capture)
    host_irt_dump_capture();
  fflush(stdout);
  fflush(stderr);
  _exit(status);
}

static int irt_gettod(struct timeval *tv) { return gettimeofday(tv, 0) ? err() : 0; }

static int irt_clock(long *ticks) {
  *ticks = (long)clock();
  return 0;
}

static int irt_nanosleep(const struct timespec *req, struct timespec *rem) {
  return nanosleep(req, rem) ? err() : 0;
}

static int irt_sched_yield(void) { return 0; }

static int irt_sysconf(int name, int *value) {
  if (name == 2) {
    *value = 65536;
    return 0;
  }
  if (name == 1) {
    *value = 1;
    return 0;
  }
  return EINVAL;
}

static int irt_close(int fd) { return close(fd) ? err() : 0; }
static int irt_dup(int fd, int *newfd) {
  int r = dup(fd);
  if (r < 0)
    return err();
  *newfd = r;
  return 0;
}
static int irt_dup2(int fd, int newfd) { return dup2(fd, newfd) < 0 ? err() : 0; }

static int irt_read(int fd, void *buf, size_t count, size_t *nread) {
  ssize_t r = read(fd, buf, count);
  if (r < 0)
    return err();
  *nread = (size_t)r;
  return 0;
}

static int irt_write(int fd, const void *buf, size_t count, size_t *nwrote) {
  if (host_irt_capture && (fd == 1 || fd == 2)) {
    capture_write(fd, buf, count);
    *nwrote = count;
    return 0;
  }
  ssize_t r = write(fd, buf, count);
  if (r < 0)
    return err();
  *nwrote = (size_t)r;
  return 0;
}

static int irt_seek(int fd, off_t offset, int whence, off_t *new_offset) {
  off_t r = lseek(fd, offset, whence);
  if (r < 0)
    return err();
  *new_offset = r;
  return 0;
}

static int irt_fstat(int fd, void *st) {
  (void)fd;
  (void)st;
  return ENOSYS;
}

static int irt_getdents(int fd, void *d, size_t count, size_t *nread) {
  (void)fd, (void)d, (void)count, (void)nread;
  return ENOSYS;
}

static int irt_enosys_fd(int fd) {
  (void)fd;
  return ENOSYS;
}
static int irt_fchmod(int fd, mode_t mode) {
  (void)fd, (void)mode;
  return ENOSYS;
}
static int irt_ftruncate(int fd, off_t len) { return ftruncate(fd, len) ? err() : 0; }
static int irt_isatty(int fd, int *result) {
  *result = isatty(fd);
  return 0;
}

static int irt_open(const char *path, int flags, mode_t mode, int *newfd) {
  int fd = open(path, flags, mode);
  if (fd < 0)
    return err();
  *newfd = fd;
  return 0;
}
static int irt_stat(const char *path, void *st) {
  (void)path, (void)st;
  return ENOSYS;
}
static int irt_mkdir(const char *path, mode_t mode) { return mkdir(path, mode) ? err() : 0; }
static int irt_rmdir(const char *path) { return rmdir(path) ? err() : 0; }
static int irt_chdir(const char *path) { return chdir(path) ? err() : 0; }
static int irt_getcwd(char *buf, size_t len) { return getcwd(buf, len) ? 0 : err(); }
static int irt_unlink(const char *path) { return unlink(path) ? err() : 0; }
static int irt_truncate(const char *path, off_t len) { return truncate(path, len) ? err() : 0; }
static int irt_link(const char *a, const char *b) { return link(a, b) ? err() : 0; }
static int irt_rename(const char *a, const char *b) { return rename(a, b) ? err() : 0; }
static int irt_chmod(const char *path, mode_t mode) { return chmod(path, mode) ? err() : 0; }
static int irt_access(const char *path, int mode) { return access(path, mode) ? err() : 0; }
static int irt_readlink(const char *path, char *buf, size_t count, size_t *nread) {
  ssize_t r = readlink(path, buf, count);
  if (r < 0)
    return err();
  *nread = (size_t)r;
  return 0;
}
static int irt_utimes(const char *path, const struct timeval *t) {
  return utimes(path, t) ? err() : 0;
}

static int irt_mmap(void **addr, size_t len, int prot, int flags, int fd, off_t off) {
  if (flags != (MAP_PRIVATE | MAP_ANONYMOUS) || fd != -1 || off != 0)
    return EINVAL;
  void *p = mmap(*addr, len, prot, flags, fd, off);
  if (p == MAP_FAILED)
    return err();
  *addr = p;
  return 0;
}
static int irt_munmap(void *addr, size_t len) { return munmap(addr, len) ? err() : 0; }
static int irt_mprotect(void *addr, size_t len, int prot) {
  return mprotect(addr, len, prot) ? err() : 0;
}
static int irt_sysbrk(void **newbrk) {
  (void)newbrk;
  return ENOSYS;
}

void *host_irt_tp;

static int irt_tls_init(void *tp) {
  host_irt_tp = tp;
  /* The library's own test of its TLS block: the first word must point to itself. */
  return *(void **)tp == tp ? 0 : EINVAL;
}
static void *irt_tls_get(void) { return 0; }

static int irt_clock_getres(int id, struct timespec *res) {
  return clock_getres(id, res) ? err() : 0;
}
static int irt_clock_gettime(int id, struct timespec *tp) {
  return clock_gettime(id, tp) ? err() : 0;
}

typedef void (*fn)(void);
static const fn basic[] = {(fn)irt_exit,      (fn)irt_gettod,      (fn)irt_clock,
                           (fn)irt_nanosleep, (fn)irt_sched_yield, (fn)irt_sysconf};
static const fn fdio[] = {(fn)irt_close, (fn)irt_dup,  (fn)irt_dup2,  (fn)irt_read,
                          (fn)irt_write, (fn)irt_seek, (fn)irt_fstat, (fn)irt_getdents,
                          (fn)irt_enosys_fd, (fn)irt_fchmod, (fn)irt_enosys_fd,
                          (fn)irt_enosys_fd, (fn)irt_ftruncate, (fn)irt_isatty};
static const fn filename[] = {(fn)irt_open,   (fn)irt_stat,     (fn)irt_mkdir,
                              (fn)irt_rmdir,  (fn)irt_chdir,    (fn)irt_getcwd,
                              (fn)irt_unlink, (fn)irt_truncate, (fn)irt_stat,
                              (fn)irt_link,   (fn)irt_rename,   (fn)irt_link,
                              (fn)irt_chmod,  (fn)irt_access,   (fn)irt_readlink,
                              (fn)irt_utimes};
static const fn memory3[] = {(fn)irt_mmap, (fn)irt_munmap, (fn)irt_mprotect};
static const fn memory2[] = {(fn)irt_sysbrk, (fn)irt_mmap, (fn)irt_munmap, (fn)irt_mprotect};
static const fn tls[] = {(fn)irt_tls_init, (fn)irt_tls_get};
static const fn clock_get[] = {(fn)irt_clock_getres, (fn)irt_clock_gettime};

#define SLOTS(n) ((n) * sizeof(fn))
static const struct {
  const char *name;
  const fn *table;
  size_t size;
} interfaces[] = {
    {"nacl-irt-basic-0.1", basic, SLOTS(6)},
    {"nacl-irt-fdio-0.1", fdio, SLOTS(8)},
    {"nacl-irt-dev-fdio-0.1", fdio, SLOTS(8)},
    {"nacl-irt-dev-fdio-0.2", fdio, SLOTS(13)},
    {"nacl-irt-dev-fdio-0.3", fdio, SLOTS(14)},
    {"nacl-irt-filename-0.1", filename, SLOTS(2)},
    {"nacl-irt-dev-filename-0.2", filename, SLOTS(7)},
    {"nacl-irt-dev-filename-0.3", filename, SLOTS(16)},
    {"nacl-irt-memory-0.1", memory2, SLOTS(3)},
    {"nacl-irt-memory-0.2", memory2, SLOTS(4)},
    {"nacl-irt-memory-0.3", memory3, SLOTS(3)},
    {"nacl-irt-tls-0.1", tls, SLOTS(2)},
    {"nacl-irt-clock_get-0.1", clock_get, SLOTS(2)},
};

static int hidden(const char *name) {
  for (const char *const *h = host_irt_hidden; h && *h; h++)
    if (strcmp(*h, name) == 0)
      return 1;
  return 0;
}

/* As the real IRT: the whole name must match, the caller's table must be big enough; then
 * the table is copied and its size returned. Otherwise 0. */
size_t host_irt_query(const char *name, void *table, size_t size) {
  size_t result = 0;
  for (size_t i = 0; i < sizeof interfaces / sizeof interfaces[0]; i++)
    if (strcmp(interfaces[i].name, name) == 0 && !hidden(name) && interfaces[i].size <= size) {
      memcpy(table, interfaces[i].table, interfaces[i].size);
      result = interfaces[i].size;
    }
  size_t used = strlen(host_irt_query_log);
  snprintf(host_irt_query_log + used, sizeof host_irt_query_log - used, "%s %zu -> %zu\n", name,
           size / sizeof(fn), result / sizeof(fn));
  return result;
}
