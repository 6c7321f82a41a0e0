/* strstr.c: newlib's strstr is the two-way search, linear in the worst case but slow in
 * the common one, a short needle that mostly fails at its first bytes (tests/c/kernels/
 * string.c spent 3.9 s in it, the library before newlib 1.4 s). Here each place where
 * the needle's first byte occurs is found with newlib's word-at-a-time strchr and the
 * rest is compared there. Once the bytes compared exceed twice the bytes passed (plus a
 * constant), the rest of the search is newlib's (compiled as __newlib_strstr: see
 * libc/newlib/generate.py), so the worst case stays linear. */
#include <stddef.h>
#include <string.h>

char *__newlib_strstr(const char *haystack, const char *needle);

char *strstr(const char *haystack, const char *needle) {
  if (needle[0] == '\0')
    return (char *)haystack;
  size_t compared = 0;
  for (const char *h = haystack;; h++) {
    h = strchr(h, needle[0]);
    if (h == NULL)
      return NULL;
    size_t i = 1;
    while (needle[i] != '\0' && h[i] == needle[i])
      i++;
    if (needle[i] == '\0')
      return (char *)h;
    /* The haystack ended inside the needle: no later place is long enough either. */
    if (h[i] == '\0')
      return NULL;
    compared += i;
    if (compared > 2 * (size_t)(h - haystack) + 256)
      return __newlib_strstr(h + 1, needle);
  }
}
