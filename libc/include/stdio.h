/* stdio.h: pnacl libc. */
#ifndef _PNACL_STDIO_H
#define _PNACL_STDIO_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct __pnacl_file FILE;
typedef off_t fpos_t;

extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
#define stdin stdin
#define stdout stdout
#define stderr stderr

#define EOF (-1)
#define BUFSIZ 4096
#define FILENAME_MAX 4096
#define FOPEN_MAX 64
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2
#ifndef SEEK_SET
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#endif

#define __pnacl_printf(f, a) __attribute__((__format__(__printf__, f, a)))

int printf(const char *__restrict fmt, ...) __pnacl_printf(1, 2);
int fprintf(FILE *__restrict f, const char *__restrict fmt, ...) __pnacl_printf(2, 3);
int sprintf(char *__restrict s, const char *__restrict fmt, ...) __pnacl_printf(2, 3);
int snprintf(char *__restrict s, size_t n, const char *__restrict fmt, ...)
    __pnacl_printf(3, 4);
int dprintf(int fd, const char *__restrict fmt, ...) __pnacl_printf(2, 3);
int vprintf(const char *__restrict fmt, va_list ap) __pnacl_printf(1, 0);
int vfprintf(FILE *__restrict f, const char *__restrict fmt, va_list ap) __pnacl_printf(2, 0);
int vsprintf(char *__restrict s, const char *__restrict fmt, va_list ap) __pnacl_printf(2, 0);
int vsnprintf(char *__restrict s, size_t n, const char *__restrict fmt, va_list ap)
    __pnacl_printf(3, 0);
int vdprintf(int fd, const char *__restrict fmt, va_list ap) __pnacl_printf(2, 0);
int asprintf(char **out, const char *__restrict fmt, ...) __pnacl_printf(2, 3);
int vasprintf(char **out, const char *__restrict fmt, va_list ap) __pnacl_printf(2, 0);

int putchar(int c);
int puts(const char *s);
int fputs(const char *__restrict s, FILE *__restrict f);
int fputc(int c, FILE *f);
int putc(int c, FILE *f);
int getchar(void);
int getc(FILE *f);
int fgetc(FILE *f);
char *fgets(char *__restrict s, int n, FILE *__restrict f);
int ungetc(int c, FILE *f);
size_t fread(void *__restrict p, size_t size, size_t n, FILE *__restrict f);
size_t fwrite(const void *__restrict p, size_t size, size_t n, FILE *__restrict f);
int putchar_unlocked(int c);
int putc_unlocked(int c, FILE *f);
int fputc_unlocked(int c, FILE *f);
int getc_unlocked(FILE *f);
int getchar_unlocked(void);
size_t fwrite_unlocked(const void *__restrict p, size_t size, size_t n, FILE *__restrict f);
size_t fread_unlocked(void *__restrict p, size_t size, size_t n, FILE *__restrict f);
int fputs_unlocked(const char *__restrict s, FILE *__restrict f);

FILE *fopen(const char *__restrict path, const char *__restrict mode);
FILE *fdopen(int fd, const char *mode);
FILE *freopen(const char *__restrict path, const char *__restrict mode, FILE *__restrict f);
int fclose(FILE *f);
int fflush(FILE *f);
int feof(FILE *f);
int ferror(FILE *f);
void clearerr(FILE *f);
int fileno(FILE *f);
int fseek(FILE *f, long off, int whence);
int fseeko(FILE *f, off_t off, int whence);
long ftell(FILE *f);
off_t ftello(FILE *f);
void rewind(FILE *f);
int fgetpos(FILE *__restrict f, fpos_t *__restrict pos);
int fsetpos(FILE *f, const fpos_t *pos);
int setvbuf(FILE *__restrict f, char *__restrict buf, int mode, size_t size);
void setbuf(FILE *__restrict f, char *__restrict buf);
void perror(const char *s);
int remove(const char *path);
int rename(const char *old_path, const char *new_path);

#endif
