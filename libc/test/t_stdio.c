/* t_stdio.c: FILE streams over the IRT file interfaces, against the expected bytes: a
 * file written through a random mix of fputc, fputs, fwrite and fprintf is read back by
 * glibc; then read by the library through a random mix of fgetc, fgets, fread, ungetc,
 * fseek and ftell; append and update modes; errors; remove and rename. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pnl.h"

#define SIZE 200000

static long checks, bad;

#define EXPECT(cond, ...)                                                                  \
  do {                                                                                     \
    checks++;                                                                              \
    if (!(cond))                                                                           \
      bad += report_failure("stdio", __VA_ARGS__);                                         \
  } while (0)

static char expected[SIZE + 4096];
static size_t expected_len;

static void write_random_file(const char *path) {
  PNL_FILE *f = pnl_fopen(path, "w");
  EXPECT(f != NULL, "fopen(%s, w)", path);
  if (!f)
    return;
  expected_len = 0;
  while (expected_len < SIZE) {
    char piece[600];
    size_t len = rng_below(rng_below(4) ? 40 : 5000);
    if (len > 500)
      len = 500;
    for (size_t i = 0; i < len; i++)
      piece[i] = rng_below(10) == 0 ? '\n' : (char)(32 + rng_below(95));
    piece[len] = 0;
    switch (rng_below(4)) {
    case 0:
      for (size_t i = 0; i < len; i++)
        pnl_fputc(piece[i], f);
      break;
    case 1:
      pnl_fputs(piece, f);
      break;
    case 2:
      EXPECT(pnl_fwrite(piece, 1, len, f) == len, "fwrite");
      break;
    default:
      len = (size_t)pnl_fprintf(f, "%s|%d|%.3f\n", piece, (int)len, len / 7.0);
      snprintf(piece + strlen(piece), sizeof piece - strlen(piece), "|%d|%.3f\n", (int)strlen(piece),
               strlen(piece) / 7.0);
    }
    memcpy(expected + expected_len, piece, len);
    expected_len += len;
  }
  EXPECT(pnl_fclose(f) == 0, "fclose");
  FILE *g = fopen(path, "rb");
  static char back[SIZE + 8192];
  size_t n = fread(back, 1, sizeof back, g);
  fclose(g);
  EXPECT(n == expected_len && !memcmp(back, expected, n), "file written: %zu bytes, expected %zu",
         n, expected_len);
}

static void read_random(const char *path) {
  PNL_FILE *f = pnl_fopen(path, "r");
  EXPECT(f != NULL, "fopen(%s, r)", path);
  if (!f)
    return;
  size_t pos = 0;
  while (pos < expected_len) {
    char buf[6000];
    switch (rng_below(6)) {
    case 0: {
      int c = pnl_fgetc(f);
      EXPECT(c == (unsigned char)expected[pos], "fgetc at %zu", pos);
      pos++;
      break;
    }
    case 1: {
      int n = 1 + (int)rng_below(200);
      char *r = pnl_fgets(buf, n, f);
      size_t want = 0;
      while (want < (size_t)n - 1 && pos + want < expected_len) {
        want++;
        if (expected[pos + want - 1] == '\n')
          break;
      }
      EXPECT(r == buf && strlen(buf) == want && !memcmp(buf, expected + pos, want),
             "fgets(%d) at %zu", n, pos);
      pos += want;
      break;
    }
    case 2: {
      size_t n = rng_below(sizeof buf);
      size_t got = pnl_fread(buf, 1, n, f);
      size_t want = n < expected_len - pos ? n : expected_len - pos;
      EXPECT(got == want && !memcmp(buf, expected + pos, got), "fread(%zu) at %zu", n, pos);
      pos += got;
      break;
    }
    case 3: {
      int c = pnl_fgetc(f);
      EXPECT(pnl_ungetc(c, f) == c, "ungetc");
      EXPECT(pnl_fgetc(f) == c, "fgetc after ungetc at %zu", pos);
      pos++;
      break;
    }
    case 4: {
      long t = pnl_ftell(f);
      EXPECT(t == (long)pos, "ftell %ld, expected %zu", t, pos);
      break;
    }
    default: {
      size_t to = rng_below(expected_len);
      int whence = (int)rng_below(3);
      long off = whence == SEEK_SET   ? (long)to
                 : whence == SEEK_CUR ? (long)to - (long)pos
                                      : (long)to - (long)expected_len;
      EXPECT(pnl_fseek(f, off, whence) == 0, "fseek(%ld, %d)", off, whence);
      pos = to;
    }
    }
  }
  EXPECT(pnl_fgetc(f) == -1 && pnl_feof(f) && !pnl_ferror(f), "EOF at the end");
  pnl_fclose(f);
}

int test_stdio(const char *dir) {
  char path[512], other[512];
  snprintf(path, sizeof path, "%s/pnacl-libc-stdio-%d", dir, (int)getpid());
  snprintf(other, sizeof other, "%s.renamed", path);
  write_random_file(path);
  for (int i = 0; i < 3; i++)
    read_random(path);
  /* Append, then update in place. */
  PNL_FILE *f = pnl_fopen(path, "a");
  pnl_fputs("tail\n", f);
  pnl_fclose(f);
  f = pnl_fopen(path, "r+");
  EXPECT(pnl_fseek(f, 0, SEEK_SET) == 0, "fseek in r+");
  pnl_fputs("HEAD", f);
  EXPECT(pnl_fseek(f, -5, SEEK_END) == 0, "fseek from the end");
  char buf[16] = {0};
  EXPECT(pnl_fgets(buf, sizeof buf, f) && !strcmp(buf, "tail\n"), "read after append: %s", buf);
  pnl_rewind(f);
  EXPECT(pnl_fread(buf, 1, 4, f) == 4 && !memcmp(buf, "HEAD", 4), "update in place");
  pnl_fclose(f);
  /* Errors. */
  pnl_errno = 0;
  EXPECT(pnl_fopen("/nonexistent/dir/file", "r") == NULL && pnl_errno == ENOENT,
         "fopen of a missing file: errno %d", pnl_errno);
  EXPECT(pnl_fopen(path, "z") == NULL && pnl_errno == EINVAL, "fopen with a bad mode");
  EXPECT(pnl_rename(path, other) == 0 && access(other, F_OK) == 0, "rename");
  EXPECT(pnl_remove(other) == 0 && access(other, F_OK) != 0, "remove");
  EXPECT(pnl_remove(other) != 0 && pnl_errno == ENOENT, "remove of a missing file");
  printf("stdio: %ld checks, %ld failures\n", checks, bad);
  return bad != 0;
}
