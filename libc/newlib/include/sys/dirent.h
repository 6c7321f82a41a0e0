/* pnacl: directories, read with the IRT's getdents (newlib's generic sys/dirent.h only
 * says "<dirent.h> not supported"). struct dirent is NaCl's nacl_abi_dirent, the records
 * getdents writes (runtime-facts §4.5); DIR is what newlib's libc/posix readdir needs. */
#ifndef _SYS_DIRENT_H
#define _SYS_DIRENT_H

#include <sys/types.h>
#include <sys/lock.h>

#define HAVE_DD_LOCK

typedef struct {
  int dd_fd;     /* the directory's descriptor */
  int dd_loc;    /* read position in dd_buf */
  int dd_size;   /* bytes in dd_buf */
  char *dd_buf;  /* getdents' records */
  int dd_len;    /* dd_buf's size */
  long dd_seek;  /* telldir's position of the buffer */
  _LOCK_RECURSIVE_T dd_lock;
} DIR;

#define __dirfd(dir) ((dir)->dd_fd)

struct dirent {
  __uint64_t d_ino;
  __int64_t d_off;
  unsigned short d_reclen;
  char d_name[256];
};

#define MAXNAMLEN 255

int getdents(int __fd, void *__buf, int __count);

#endif
