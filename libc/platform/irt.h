/* irt.h: the NaCl IRT interfaces the platform layer uses (runtime-facts §3-4). Each
 * table is a struct of function pointers in slot order; its size is what the IRT query
 * returns on success (4 bytes a slot on le32). Values crossing the IRT are NaCl's: errno
 * values, open flags, struct stat (struct pnacl_abi_stat), signal numbers. */
#ifndef _PNACL_PLATFORM_IRT_H
#define _PNACL_PLATFORM_IRT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct timespec;
struct timeval;

/* nacl_abi_stat (runtime-facts §4.5): 104 bytes. */
struct pnacl_abi_stat {
  int64_t dev;
  uint64_t ino;
  uint32_t mode;
  uint32_t nlink;
  uint32_t uid;
  uint32_t gid;
  int64_t rdev;
  int64_t size;
  int32_t blksize;
  int32_t blocks;
  int64_t atime;
  int64_t atimensec;
  int64_t mtime;
  int64_t mtimensec;
  int64_t ctime;
  int64_t ctimensec;
};

typedef size_t (*pnacl_irt_query_fn)(const char *name, void *table, size_t size);

#define PNACL_IRT_BASIC "nacl-irt-basic-0.1"
struct pnacl_irt_basic {
  void (*exit)(int status);
  int (*gettod)(struct timeval *tv);
  int (*clock)(uint32_t *ticks);
  int (*nanosleep)(const struct timespec *req, struct timespec *rem);
  int (*sched_yield)(void);
  int (*sysconf)(int name, int *value);
};

#define PNACL_IRT_FDIO "nacl-irt-fdio-0.1"
#define PNACL_IRT_DEV_FDIO "nacl-irt-dev-fdio-0.1"
struct pnacl_irt_fdio {
  int (*close)(int fd);
  int (*dup)(int fd, int *newfd);
  int (*dup2)(int fd, int newfd);
  int (*read)(int fd, void *buf, size_t count, size_t *nread);
  int (*write)(int fd, const void *buf, size_t count, size_t *nwrote);
  int (*seek)(int fd, off_t offset, int whence, off_t *new_offset);
  int (*fstat)(int fd, struct pnacl_abi_stat *st);
  int (*getdents)(int fd, void *dirent, size_t count, size_t *nread);
};


/* isatty is slot 13 of dev-fdio-0.3 (the slots before it are fdio-0.1's and 0.2's). */
#define PNACL_IRT_DEV_FDIO_3 "nacl-irt-dev-fdio-0.3"
struct pnacl_irt_dev_fdio_3 {
  struct pnacl_irt_fdio base;
  int (*fchdir)(int fd);
  int (*fchmod)(int fd, mode_t mode);
  int (*fsync)(int fd);
  int (*fdatasync)(int fd);
  int (*ftruncate)(int fd, off_t length);
  int (*isatty)(int fd, int *result);
};

/* dev-filename-0.3 is 16 slots; 0.2 is its first 7, filename-0.1 its first 2. */
#define PNACL_IRT_DEV_FILENAME_3 "nacl-irt-dev-filename-0.3"
#define PNACL_IRT_DEV_FILENAME_2 "nacl-irt-dev-filename-0.2"
#define PNACL_IRT_FILENAME_1 "nacl-irt-filename-0.1"
struct pnacl_irt_filename {
  int (*open)(const char *path, int flags, mode_t mode, int *newfd);
  int (*stat)(const char *path, struct pnacl_abi_stat *st);
  int (*mkdir)(const char *path, mode_t mode);
  int (*rmdir)(const char *path);
  int (*chdir)(const char *path);
  int (*getcwd)(char *buf, size_t len);
  int (*unlink)(const char *path);
  int (*truncate)(const char *path, off_t length);
  int (*lstat)(const char *path, struct pnacl_abi_stat *st);
  int (*link)(const char *old_path, const char *new_path);
  int (*rename)(const char *old_path, const char *new_path);
  int (*symlink)(const char *old_path, const char *new_path);
  int (*chmod)(const char *path, mode_t mode);
  int (*access)(const char *path, int mode);
  int (*readlink)(const char *path, char *buf, size_t count, size_t *nread);
  int (*utimes)(const char *path, const struct timeval *times);
};
#define PNACL_FILENAME_SLOTS_2 7
#define PNACL_FILENAME_SLOTS_1 2

typedef int (*pnacl_irt_mmap_fn)(void **addr, size_t len, int prot, int flags, int fd,
                                 off_t off);
typedef int (*pnacl_irt_munmap_fn)(void *addr, size_t len);
#define PNACL_IRT_MEMORY_3 "nacl-irt-memory-0.3"
struct pnacl_irt_memory_3 {
  pnacl_irt_mmap_fn mmap;
  pnacl_irt_munmap_fn munmap;
  int (*mprotect)(void *addr, size_t len, int prot);
};
#define PNACL_IRT_MEMORY_2 "nacl-irt-memory-0.2"
struct pnacl_irt_memory_2 {
  int (*sysbrk)(void **newbrk);
  pnacl_irt_mmap_fn mmap;
  pnacl_irt_munmap_fn munmap;
  int (*mprotect)(void *addr, size_t len, int prot);
};
#define PNACL_IRT_MEMORY_1 "nacl-irt-memory-0.1"
struct pnacl_irt_memory_1 {
  int (*sysbrk)(void **newbrk);
  pnacl_irt_mmap_fn mmap;
  pnacl_irt_munmap_fn munmap;
};

#define PNACL_IRT_TLS "nacl-irt-tls-0.1"
struct pnacl_irt_tls {
  int (*tls_init)(void *thread_ptr);
  void *(*tls_get)(void);
};

#define PNACL_IRT_CLOCK "nacl-irt-clock_get-0.1"
struct pnacl_irt_clock {
  int (*clock_getres)(int id, struct timespec *res);
  int (*clock_gettime)(int id, struct timespec *tp);
};

#define PNACL_IRT_THREAD "nacl-irt-thread-0.1"
struct pnacl_irt_thread {
  int (*thread_create)(void (*start)(void), void *stack, void *thread_ptr);
  void (*thread_exit)(int32_t *stack_flag);
  int (*thread_nice)(const int nice);
};

#define PNACL_IRT_FUTEX "nacl-irt-futex-0.1"
struct pnacl_irt_futex {
  int (*futex_wait_abs)(volatile int *addr, int value, const struct timespec *abstime);
  int (*futex_wake)(volatile int *addr, int nwake, int *count);
};

#define PNACL_IRT_GETPID "nacl-irt-dev-getpid-0.1"
struct pnacl_irt_getpid {
  int (*getpid)(int *pid);
};

/* pnacl's own interface (not NaCl's; `pnacl run` offers it): ends the process as the
 * signal `sig` (Linux's numbering) would, when its default action is to end it; returns
 * EINVAL otherwise. */
#define PNACL_IRT_SIGNAL "pnacl-irt-signal-0.1"
struct pnacl_irt_signal {
  int (*kill_self)(int sig);
};

/* mmap constants of the NaCl ABI. */
#define PNACL_PROT_READ 1
#define PNACL_PROT_WRITE 2
#define PNACL_MAP_PRIVATE 0x02
#define PNACL_MAP_SHARED 0x01
#define PNACL_MAP_FIXED 0x10
#define PNACL_MAP_ANONYMOUS 0x20
#define PNACL_PROT_EXEC 4

/* On le32 the tables and the structures crossing the IRT are the NaCl ABI's
 * (runtime-facts §4.3, §4.5). */
#ifdef __le32__
_Static_assert(sizeof(struct pnacl_irt_basic) == 24, "nacl-irt-basic-0.1 is 24 bytes");
_Static_assert(sizeof(struct pnacl_irt_fdio) == 32, "nacl-irt-fdio-0.1 is 32 bytes");
_Static_assert(sizeof(struct pnacl_irt_dev_fdio_3) == 56, "nacl-irt-dev-fdio-0.3 is 56 bytes");
_Static_assert(sizeof(struct pnacl_irt_filename) == 64, "nacl-irt-dev-filename-0.3 is 64 bytes");
_Static_assert(sizeof(struct pnacl_irt_memory_3) == 12, "nacl-irt-memory-0.3 is 12 bytes");
_Static_assert(sizeof(struct pnacl_irt_memory_2) == 16, "nacl-irt-memory-0.2 is 16 bytes");
_Static_assert(sizeof(struct pnacl_irt_memory_1) == 12, "nacl-irt-memory-0.1 is 12 bytes");
_Static_assert(sizeof(struct pnacl_irt_tls) == 8, "nacl-irt-tls-0.1 is 8 bytes");
_Static_assert(sizeof(struct pnacl_irt_clock) == 8, "nacl-irt-clock_get-0.1 is 8 bytes");
_Static_assert(sizeof(struct pnacl_irt_thread) == 12, "nacl-irt-thread-0.1 is 12 bytes");
_Static_assert(sizeof(struct pnacl_irt_futex) == 8, "nacl-irt-futex-0.1 is 8 bytes");
_Static_assert(sizeof(struct pnacl_abi_stat) == 104, "nacl_abi_stat is 104 bytes");
_Static_assert(__builtin_offsetof(struct pnacl_abi_stat, blksize) == 48, "nacl_abi_stat.blksize at 48");
_Static_assert(sizeof(off_t) == 8, "off_t is 64-bit");
#endif

/* auxv keys. */
#define PNACL_AT_NULL 0
#define PNACL_AT_SYSINFO 32

#endif
