/* pnl.h: the library under test, as the native test build sees it. Every symbol of the
 * library was renamed with the prefix pnl_ (objcopy --redefine-syms), so that it links
 * next to glibc, which serves as the oracle. Declared with glibc's types, which match the
 * library's on x86-64 (size_t, long, wchar_t, ...). */
#ifndef PNACL_TEST_PNL_H
#define PNACL_TEST_PNL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

typedef struct pnl_file PNL_FILE;
extern PNL_FILE *pnl_stdin, *pnl_stdout, *pnl_stderr;
extern int pnl_errno;
extern char **pnl_environ;

void pnl__start(uintptr_t *info);

int pnl_printf(const char *fmt, ...);
int pnl_fprintf(PNL_FILE *f, const char *fmt, ...);
int pnl_sprintf(char *s, const char *fmt, ...);
int pnl_snprintf(char *s, size_t n, const char *fmt, ...);
int pnl_vsnprintf(char *s, size_t n, const char *fmt, va_list ap);
int pnl_asprintf(char **out, const char *fmt, ...);
int pnl_dprintf(int fd, const char *fmt, ...);
int pnl_putchar(int c);
int pnl_puts(const char *s);
int pnl_fputs(const char *s, PNL_FILE *f);
int pnl_fputc(int c, PNL_FILE *f);
int pnl_fgetc(PNL_FILE *f);
int pnl_ungetc(int c, PNL_FILE *f);
char *pnl_fgets(char *s, int n, PNL_FILE *f);
size_t pnl_fread(void *p, size_t size, size_t n, PNL_FILE *f);
size_t pnl_fwrite(const void *p, size_t size, size_t n, PNL_FILE *f);
PNL_FILE *pnl_fopen(const char *path, const char *mode);
int pnl_fclose(PNL_FILE *f);
int pnl_fflush(PNL_FILE *f);
int pnl_feof(PNL_FILE *f);
int pnl_ferror(PNL_FILE *f);
int pnl_fseek(PNL_FILE *f, long off, int whence);
long pnl_ftell(PNL_FILE *f);
void pnl_rewind(PNL_FILE *f);
int pnl_setvbuf(PNL_FILE *f, char *buf, int mode, size_t size);
void pnl_perror(const char *s);
int pnl_remove(const char *path);
int pnl_rename(const char *a, const char *b);

void *pnl_malloc(size_t n);
void *pnl_calloc(size_t n, size_t size);
void *pnl_realloc(void *p, size_t n);
void pnl_free(void *p);
void *pnl_memalign(size_t align, size_t n);
int pnl_posix_memalign(void **out, size_t align, size_t n);

int pnl_atoi(const char *s);
long pnl_atol(const char *s);
long long pnl_atoll(const char *s);
long pnl_strtol(const char *s, char **end, int base);
unsigned long pnl_strtoul(const char *s, char **end, int base);
long long pnl_strtoll(const char *s, char **end, int base);
unsigned long long pnl_strtoull(const char *s, char **end, int base);
double pnl_strtod(const char *s, char **end);
float pnl_strtof(const char *s, char **end);
double pnl_atof(const char *s);
void pnl_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void *pnl_bsearch(const void *key, const void *base, size_t n, size_t size,
                  int (*cmp)(const void *, const void *));
int pnl_abs(int x);
long pnl_labs(long x);
long long pnl_llabs(long long x);
int pnl_rand(void);
void pnl_srand(unsigned seed);
void pnl_exit(int status);
int pnl_atexit(void (*fn)(void));
char *pnl_getenv(const char *name);

void *pnl_memcpy(void *d, const void *s, size_t n);
void *pnl_memmove(void *d, const void *s, size_t n);
void *pnl_memset(void *d, int c, size_t n);
int pnl_memcmp(const void *a, const void *b, size_t n);
void *pnl_memchr(const void *s, int c, size_t n);
size_t pnl_strlen(const char *s);
int pnl_strcmp(const char *a, const char *b);
int pnl_strncmp(const char *a, const char *b, size_t n);
char *pnl_strcpy(char *d, const char *s);
char *pnl_strncpy(char *d, const char *s, size_t n);
char *pnl_strcat(char *d, const char *s);
char *pnl_strncat(char *d, const char *s, size_t n);
char *pnl_strchr(const char *s, int c);
char *pnl_strrchr(const char *s, int c);
char *pnl_strstr(const char *h, const char *n);
char *pnl_strdup(const char *s);
char *pnl_strtok(char *s, const char *delim);
size_t pnl_strspn(const char *s, const char *accept);
size_t pnl_strcspn(const char *s, const char *reject);
char *pnl_strpbrk(const char *s, const char *accept);
char *pnl_strerror(int err);
int pnl_strcasecmp(const char *a, const char *b);
int pnl_strncasecmp(const char *a, const char *b, size_t n);

int pnl_isalnum(int);
int pnl_isalpha(int);
int pnl_isblank(int);
int pnl_iscntrl(int);
int pnl_isdigit(int);
int pnl_isgraph(int);
int pnl_islower(int);
int pnl_isprint(int);
int pnl_ispunct(int);
int pnl_isspace(int);
int pnl_isupper(int);
int pnl_isxdigit(int);
int pnl_tolower(int);
int pnl_toupper(int);

double pnl_sqrt(double);
double pnl_fabs(double);
double pnl_pow(double, double);
double pnl_exp(double);
double pnl_exp2(double);
double pnl_log(double);
double pnl_log10(double);
double pnl_log2(double);
double pnl_sin(double);
double pnl_cos(double);
double pnl_tan(double);
double pnl_asin(double);
double pnl_acos(double);
double pnl_atan(double);
double pnl_atan2(double, double);
double pnl_floor(double);
double pnl_ceil(double);
double pnl_trunc(double);
double pnl_round(double);
double pnl_rint(double);
double pnl_fmod(double, double);
double pnl_ldexp(double, int);
double pnl_frexp(double, int *);
double pnl_modf(double, double *);
double pnl_copysign(double, double);
double pnl_fmin(double, double);
double pnl_fmax(double, double);
double pnl_hypot(double, double);
float pnl_sinf(float);
float pnl_cosf(float);
float pnl_tanf(float);
float pnl_expf(float);
float pnl_logf(float);
float pnl_powf(float, float);
float pnl_atan2f(float, float);
float pnl_sqrtf(float);
float pnl_floorf(float);
float pnl_fmodf(float, float);

time_t pnl_time(time_t *t);
int pnl_clock_gettime(int id, struct timespec *tp);
struct tm *pnl_gmtime_r(const time_t *t, struct tm *out);
time_t pnl_mktime(struct tm *tm);

/* The harness (harness.c). */
uint64_t rng_next(void);
void rng_seed(uint64_t seed);
/* A uniform integer in [0, n). */
uint64_t rng_below(uint64_t n);
/* Counts a failure and prints the first few. */
int report_failure(const char *family, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
extern long failures;

int test_printf(long n);
int test_strtod(long n);
int test_strtol(long n);
int test_math(long n);
int test_malloc(long n);
int test_qsort(long n);
int test_string(long n);
int test_stdio(const char *dir);
int test_startup(int argc, char **argv);
int test_misc(long n);

#endif
