/* stdlib.h: pnacl libc. */
#ifndef _PNACL_STDLIB_H
#define _PNACL_STDLIB_H

#include <stddef.h>

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 0x7fffffff
#define MB_CUR_MAX 1

typedef struct {
  int quot;
  int rem;
} div_t;
typedef struct {
  long quot;
  long rem;
} ldiv_t;
typedef struct {
  long long quot;
  long long rem;
} lldiv_t;

void *malloc(size_t size);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t size);
void free(void *p);
void *aligned_alloc(size_t align, size_t size);
int posix_memalign(void **out, size_t align, size_t size);
void *memalign(size_t align, size_t size);

int atoi(const char *s);
long atol(const char *s);
long long atoll(const char *s);
double atof(const char *s);
long strtol(const char *__restrict s, char **__restrict end, int base);
unsigned long strtoul(const char *__restrict s, char **__restrict end, int base);
long long strtoll(const char *__restrict s, char **__restrict end, int base);
unsigned long long strtoull(const char *__restrict s, char **__restrict end, int base);
double strtod(const char *__restrict s, char **__restrict end);
float strtof(const char *__restrict s, char **__restrict end);
long double strtold(const char *__restrict s, char **__restrict end);

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void *bsearch(const void *key, const void *base, size_t n, size_t size,
              int (*cmp)(const void *, const void *));

int abs(int x);
long labs(long x);
long long llabs(long long x);
div_t div(int num, int den);
ldiv_t ldiv(long num, long den);
lldiv_t lldiv(long long num, long long den);

int rand(void);
void srand(unsigned seed);

void exit(int status) __attribute__((__noreturn__));
void _Exit(int status) __attribute__((__noreturn__));
void abort(void) __attribute__((__noreturn__));
int atexit(void (*fn)(void));
char *getenv(const char *name);
int system(const char *cmd);

#endif
