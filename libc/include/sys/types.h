/* sys/types.h: pnacl libc. off_t and time_t are 64-bit, as in the NaCl ABI. */
#ifndef _PNACL_SYS_TYPES_H
#define _PNACL_SYS_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef __PTRDIFF_TYPE__ ssize_t;
typedef int64_t off_t;
typedef int64_t time_t;
typedef long suseconds_t;
typedef uint32_t mode_t;
typedef int pid_t;
typedef uint32_t uid_t;
typedef uint32_t gid_t;
typedef int64_t dev_t;
typedef uint64_t ino_t;
typedef uint32_t nlink_t;
typedef int32_t blksize_t;
typedef int32_t blkcnt_t;
typedef long clock_t;
typedef int clockid_t;
typedef unsigned int useconds_t;

#endif
