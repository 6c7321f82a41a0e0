/* stat.c: newlib's struct stat from the IRT's nacl_abi_stat. The mode bits are the same
 * (S_IFMT and the permission bits have their usual octal values in both). */
#include <sys/stat.h>
#include "internal.h"

void __pnacl_stat_from_abi(struct stat *st, const struct pnacl_abi_stat *abi) {
  *st = (struct stat){0};
  st->st_dev = (dev_t)abi->dev;
  st->st_ino = (ino_t)abi->ino;
  st->st_mode = (mode_t)abi->mode;
  st->st_nlink = (nlink_t)abi->nlink;
  st->st_uid = (uid_t)abi->uid;
  st->st_gid = (gid_t)abi->gid;
  st->st_rdev = (dev_t)abi->rdev;
  st->st_size = (off_t)abi->size;
  st->st_blksize = abi->blksize;
  st->st_blocks = abi->blocks;
  st->st_atim.tv_sec = abi->atime;
  st->st_atim.tv_nsec = (long)abi->atimensec;
  st->st_mtim.tv_sec = abi->mtime;
  st->st_mtim.tv_nsec = (long)abi->mtimensec;
  st->st_ctim.tv_sec = abi->ctime;
  st->st_ctim.tv_nsec = (long)abi->ctimensec;
}
