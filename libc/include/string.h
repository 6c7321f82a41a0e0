/* string.h: pnacl libc. */
#ifndef _PNACL_STRING_H
#define _PNACL_STRING_H

#include <stddef.h>

void *memcpy(void *__restrict d, const void *__restrict s, size_t n);
void *memmove(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
void *memrchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t n);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
int strcoll(const char *a, const char *b);
char *strcpy(char *__restrict d, const char *__restrict s);
char *strncpy(char *__restrict d, const char *__restrict s, size_t n);
char *stpcpy(char *__restrict d, const char *__restrict s);
char *strcat(char *__restrict d, const char *__restrict s);
char *strncat(char *__restrict d, const char *__restrict s, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *h, const char *n);
char *strdup(const char *s);
char *strndup(const char *s, size_t n);
char *strtok(char *__restrict s, const char *__restrict delim);
char *strtok_r(char *__restrict s, const char *__restrict delim, char **__restrict save);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);
char *strpbrk(const char *s, const char *accept);
char *strerror(int err);
size_t strxfrm(char *__restrict d, const char *__restrict s, size_t n);

#endif
