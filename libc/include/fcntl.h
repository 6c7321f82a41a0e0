/* fcntl.h: pnacl libc. NaCl ABI open flags (octal, equal to Linux x86's). */
#ifndef _PNACL_FCNTL_H
#define _PNACL_FCNTL_H

#include <sys/types.h>

#define O_RDONLY 0
#define O_WRONLY 01
#define O_RDWR 02
#define O_ACCMODE 03
#define O_CREAT 0100
#define O_EXCL 0200
#define O_TRUNC 01000
#define O_APPEND 02000
#define O_NONBLOCK 04000
#define O_SYNC 010000
#define O_DIRECTORY 0200000
#define O_CLOEXEC 02000000

int open(const char *path, int flags, ...);

#endif
