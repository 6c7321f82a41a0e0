/* harness.c: the native test program's entry. glibc's main builds a NaCl startup block
 * (runtime-facts §2: cleanup, envc, argc, argv, envp, auxv with AT_SYSINFO) and calls the
 * library's _start, which queries the host IRT, then calls the library's "main" (renamed
 * pnl_main), defined here: it runs the test family named by argv[1].
 *
 *   harness FAMILY [COUNT] [SEED]    runs one family; exit status 0 when all cases pass.
 *
 * HOST_IRT_HIDE=name,name hides interfaces from the query; HOST_IRT_CAPTURE=1 records
 * writes to fds 1 and 2 and prints the record at exit. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host_irt.h"
#include "pnl.h"

/* The TLS template the ExpandTls pass would define: 8 initialised bytes, then 16 zeroed,
 * aligned to 16. */
char tls_template[32] __attribute__((aligned(16))) = "ABCDEFGH";
const uint32_t tls_alignment = 16;
__asm__(".globl pnl___tls_template_start\n"
        ".set pnl___tls_template_start, tls_template\n"
        ".globl pnl___tls_template_tdata_end\n"
        ".set pnl___tls_template_tdata_end, tls_template+8\n"
        ".globl pnl___tls_template_end\n"
        ".set pnl___tls_template_end, tls_template+24\n"
        ".globl pnl___tls_template_alignment\n"
        ".set pnl___tls_template_alignment, tls_alignment\n");

static uint64_t rng_state;

void rng_seed(uint64_t seed) { rng_state = seed * 0x9e3779b97f4a7c15ull + 1; }

uint64_t rng_next(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t rng_below(uint64_t n) { return n ? rng_next() % n : 0; }

long failures;

int report_failure(const char *family, const char *fmt, ...) {
  if (++failures <= 20) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stdout, "FAIL %s: ", family);
    vfprintf(stdout, fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
  }
  return 1;
}

int pnl_main(int argc, char **argv, char **envp) {
  (void)envp;
  if (argc < 2) {
    fprintf(stdout, "usage: harness FAMILY [COUNT] [SEED]\n");
    return 2;
  }
  const char *family = argv[1];
  long n = argc > 2 ? atol(argv[2]) : 1000;
  rng_seed(argc > 3 ? strtoull(argv[3], 0, 0) : 1);
  int bad;
  if (!strcmp(family, "printf"))
    bad = test_printf(n);
  else if (!strcmp(family, "strtod"))
    bad = test_strtod(n);
  else if (!strcmp(family, "strtol"))
    bad = test_strtol(n);
  else if (!strcmp(family, "math"))
    bad = test_math(n);
  else if (!strcmp(family, "malloc"))
    bad = test_malloc(n);
  else if (!strcmp(family, "qsort"))
    bad = test_qsort(n);
  else if (!strcmp(family, "string"))
    bad = test_string(n);
  else if (!strcmp(family, "stdio"))
    bad = test_stdio(argc > 2 ? argv[2] : "/tmp");
  else if (!strcmp(family, "misc"))
    bad = test_misc(n);
  else if (!strcmp(family, "ctype"))
    bad = test_string(0);
  else
    bad = test_startup(argc, argv);
  fflush(stdout);
  return bad || failures ? 1 : 0;
}

int main(int argc, char **argv, char **envp) {
  static const char *hide[16];
  char *hide_env = getenv("HOST_IRT_HIDE");
  if (hide_env) {
    int k = 0;
    for (char *tok = strtok(strdup(hide_env), ","); tok && k < 15; tok = strtok(0, ","))
      hide[k++] = tok;
    host_irt_hidden = hide;
  }
  host_irt_capture = getenv("HOST_IRT_CAPTURE") != 0;
  int envc = 0;
  while (envp[envc])
    envc++;
  size_t words = 3 + (size_t)argc + 1 + (size_t)envc + 1 + 6;
  uintptr_t *info = calloc(words, sizeof *info);
  size_t w = 0;
  info[w++] = 0; /* cleanup */
  info[w++] = (uintptr_t)envc;
  info[w++] = (uintptr_t)argc;
  for (int i = 0; i < argc; i++)
    info[w++] = (uintptr_t)argv[i];
  info[w++] = 0;
  for (int i = 0; i < envc; i++)
    info[w++] = (uintptr_t)envp[i];
  info[w++] = 0;
  info[w++] = 1; /* AT_IGNORE, as a real IRT may leave */
  info[w++] = 0;
  info[w++] = 32; /* AT_SYSINFO */
  info[w++] = (uintptr_t)host_irt_query;
  info[w++] = 0; /* AT_NULL */
  info[w++] = 0;
  pnl__start(info);
  fprintf(stderr, "_start returned\n");
  return 99;
}
