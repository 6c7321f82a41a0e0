/* qsort.c: a stable merge sort, so that elements comparing equal keep their order. glibc's
 * qsort is a stable merge sort too (when it can get the memory), so a program prints the
 * same order under pnacl as natively. Without memory for the merge buffer it falls back
 * to a stable insertion sort. */
#include <stdlib.h>
#include <string.h>

typedef int (*compare_fn)(const void *, const void *);

static void insertion_sort(char *b, size_t n, size_t size, compare_fn cmp, char *tmp) {
  for (size_t i = 1; i < n; i++) {
    size_t j = i;
    while (j > 0 && cmp(b + (j - 1) * size, b + i * size) > 0)
      j--;
    if (j != i) {
      memcpy(tmp, b + i * size, size);
      memmove(b + (j + 1) * size, b + j * size, (i - j) * size);
      memcpy(b + j * size, tmp, size);
    }
  }
}

static void merge_sort(char *b, size_t n, size_t size, compare_fn cmp, char *tmp) {
  if (n <= 1)
    return;
  size_t n1 = n / 2, n2 = n - n1;
  char *b2 = b + n1 * size;
  merge_sort(b, n1, size, cmp, tmp);
  merge_sort(b2, n2, size, cmp, tmp);
  if (cmp(b2 - size, b2) <= 0)
    return; /* already in order */
  char *out = tmp, *p = b, *q = b2;
  while (n1 > 0 && n2 > 0) {
    if (cmp(p, q) <= 0) {
      memcpy(out, p, size);
      p += size;
      n1--;
    } else {
      memcpy(out, q, size);
      q += size;
      n2--;
    }
    out += size;
  }
  if (n1 > 0)
    memcpy(out, p, n1 * size);
  memcpy(b, tmp, (size_t)(out - tmp) + n1 * size);
}

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  if (n <= 1 || size == 0)
    return;
  char small[256];
  char *tmp = n * size <= sizeof small ? small : malloc(n * size);
  if (tmp) {
    merge_sort(base, n, size, cmp, tmp);
    if (tmp != small)
      free(tmp);
  } else if (size <= sizeof small) {
    insertion_sort(base, n, size, cmp, small);
  } else if ((tmp = malloc(size))) {
    insertion_sort(base, n, size, cmp, tmp);
    free(tmp);
  }
}
