/* unistd.h: pnacl libc, a minimal subset over the IRT fdio interface. */
#ifndef _PNACL_UNISTD_H
#define _PNACL_UNISTD_H

#include <sys/types.h>

#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4
#define _SC_NPROCESSORS_ONLN 1
#define _SC_PAGESIZE 2
#define _SC_PAGE_SIZE _SC_PAGESIZE

ssize_t read(int fd, void *buf, size_t count);
ssize_t write(int fd, const void *buf, size_t count);
int close(int fd);
off_t lseek(int fd, off_t offset, int whence);
int isatty(int fd);
long sysconf(int name);
int usleep(useconds_t usec);
unsigned sleep(unsigned seconds);
int getpagesize(void);
void _exit(int status) __attribute__((__noreturn__));

#endif
