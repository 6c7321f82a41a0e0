/* str.c: the str* family (the "C" locale only: strcoll is strcmp). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

size_t strlen(const char *s) {
  const char *p = s;
  while (*p)
    p++;
  return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && s[i])
    i++;
  return i;
}

int strcmp(const char *a, const char *b) {
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  while (*p && *p == *q)
    p++, q++;
  return *p - *q;
}

int strncmp(const char *a, const char *b, size_t n) {
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  if (n == 0)
    return 0;
  while (--n && *p && *p == *q)
    p++, q++;
  return *p - *q;
}

int strcoll(const char *a, const char *b) { return strcmp(a, b); }

size_t strxfrm(char *__restrict d, const char *__restrict s, size_t n) {
  size_t len = strlen(s);
  if (len < n)
    memcpy(d, s, len + 1);
  return len;
}

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

int strcasecmp(const char *a, const char *b) {
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  while (*p && lower(*p) == lower(*q))
    p++, q++;
  return lower(*p) - lower(*q);
}

int strncasecmp(const char *a, const char *b, size_t n) {
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  if (n == 0)
    return 0;
  while (--n && *p && lower(*p) == lower(*q))
    p++, q++;
  return lower(*p) - lower(*q);
}

char *stpcpy(char *__restrict d, const char *__restrict s) {
  while ((*d = *s))
    d++, s++;
  return d;
}

char *strcpy(char *__restrict d, const char *__restrict s) {
  stpcpy(d, s);
  return d;
}

char *strncpy(char *__restrict d, const char *__restrict s, size_t n) {
  size_t i = 0;
  for (; i < n && s[i]; i++)
    d[i] = s[i];
  for (; i < n; i++)
    d[i] = 0;
  return d;
}

char *strcat(char *__restrict d, const char *__restrict s) {
  stpcpy(d + strlen(d), s);
  return d;
}

char *strncat(char *__restrict d, const char *__restrict s, size_t n) {
  char *e = d + strlen(d);
  while (n-- && *s)
    *e++ = *s++;
  *e = 0;
  return d;
}

char *strchr(const char *s, int c) {
  for (;; s++) {
    if (*s == (char)c)
      return (char *)s;
    if (!*s)
      return 0;
  }
}

char *strrchr(const char *s, int c) {
  const char *last = 0;
  for (;; s++) {
    if (*s == (char)c)
      last = s;
    if (!*s)
      return (char *)last;
  }
}

char *strstr(const char *h, const char *n) {
  size_t nl = strlen(n);
  if (nl == 0)
    return (char *)h;
  for (; (h = strchr(h, *n)); h++)
    if (strncmp(h, n, nl) == 0)
      return (char *)h;
  return 0;
}

char *strdup(const char *s) {
  size_t len = strlen(s) + 1;
  char *d = malloc(len);
  return d ? memcpy(d, s, len) : 0;
}

char *strndup(const char *s, size_t n) {
  size_t len = strnlen(s, n);
  char *d = malloc(len + 1);
  if (!d)
    return 0;
  memcpy(d, s, len);
  d[len] = 0;
  return d;
}

/* A 256-bit set of the bytes in `chars`. */
static void byte_set(unsigned set[8], const char *chars) {
  for (int i = 0; i < 8; i++)
    set[i] = 0;
  for (const unsigned char *p = (const unsigned char *)chars; *p; p++)
    set[*p >> 5] |= 1u << (*p & 31);
}

static int in_set(const unsigned set[8], unsigned char c) { return (set[c >> 5] >> (c & 31)) & 1; }

size_t strspn(const char *s, const char *accept) {
  unsigned set[8];
  byte_set(set, accept);
  size_t i = 0;
  while (s[i] && in_set(set, (unsigned char)s[i]))
    i++;
  return i;
}

size_t strcspn(const char *s, const char *reject) {
  unsigned set[8];
  byte_set(set, reject);
  size_t i = 0;
  while (s[i] && !in_set(set, (unsigned char)s[i]))
    i++;
  return i;
}

char *strpbrk(const char *s, const char *accept) {
  s += strcspn(s, accept);
  return *s ? (char *)s : 0;
}

char *strtok_r(char *__restrict s, const char *__restrict delim, char **__restrict save) {
  if (!s)
    s = *save;
  if (!s)
    return 0;
  s += strspn(s, delim);
  if (!*s) {
    *save = 0;
    return 0;
  }
  char *end = s + strcspn(s, delim);
  if (*end) {
    *end = 0;
    *save = end + 1;
  } else {
    *save = 0;
  }
  return s;
}

char *strtok(char *__restrict s, const char *__restrict delim) {
  static char *save;
  return strtok_r(s, delim, &save);
}
