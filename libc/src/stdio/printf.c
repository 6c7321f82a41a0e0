/* printf.c: the printf family. __pnacl_vformat parses the format and converts integers,
 * characters, strings and pointers itself; doubles go to fmt_float.c. The output follows
 * glibc's (the oracle of the tests): "(null)" for a null %s, "(nil)" for a null %p, and
 * so on. Positional arguments (%1$d) are not supported. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../internal.h"
#include "stdio_impl.h"

void __pnacl_out_write(struct pnacl_out *o, const char *s, size_t n) {
  o->total += n;
  while (n > 0) {
    if (o->pos == o->cap)
      o->drain(o);
    size_t k = o->cap - o->pos < n ? o->cap - o->pos : n;
    memcpy(o->buf + o->pos, s, k);
    o->pos += k;
    s += k;
    n -= k;
  }
}

void __pnacl_out_fill(struct pnacl_out *o, char c, size_t n) {
  o->total += n;
  while (n > 0) {
    if (o->pos == o->cap)
      o->drain(o);
    size_t k = o->cap - o->pos < n ? o->cap - o->pos : n;
    memset(o->buf + o->pos, c, k);
    o->pos += k;
    n -= k;
  }
}

void __pnacl_pad_begin(struct pnacl_out *o, const struct pnacl_spec *sp, const char *prefix,
                       size_t prefix_len, size_t body_len, int zero_ok) {
  size_t len = prefix_len + body_len;
  size_t pad = (size_t)sp->width > len ? (size_t)sp->width - len : 0;
  if (sp->minus) {
    __pnacl_out_write(o, prefix, prefix_len);
  } else if (sp->zero && zero_ok) {
    __pnacl_out_write(o, prefix, prefix_len);
    __pnacl_out_fill(o, '0', pad);
  } else {
    __pnacl_out_fill(o, ' ', pad);
    __pnacl_out_write(o, prefix, prefix_len);
  }
}

void __pnacl_pad_end(struct pnacl_out *o, const struct pnacl_spec *sp, size_t field_len) {
  if (sp->minus && (size_t)sp->width > field_len)
    __pnacl_out_fill(o, ' ', (size_t)sp->width - field_len);
}

static void write_padded(struct pnacl_out *o, const struct pnacl_spec *sp, const char *prefix,
                         size_t prefix_len, const char *body, size_t body_len, int zero_ok) {
  __pnacl_pad_begin(o, sp, prefix, prefix_len, body_len, zero_ok);
  __pnacl_out_write(o, body, body_len);
  __pnacl_pad_end(o, sp, prefix_len + body_len);
}

enum length { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_J, LEN_Z, LEN_T, LEN_BIG_L };

/* Digits of v in base 8, 10 or 16, written backwards ending at `end`; returns the start. */
static char *integer_digits(char *end, unsigned long long v, unsigned base, int upper) {
  const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  char *p = end;
  /* 32-bit division is much cheaper than 64-bit division on le32. */
  while (v > 0xffffffffu) {
    *--p = digits[v % base];
    v /= base;
  }
  for (unsigned w = (unsigned)v; w; w /= base)
    *--p = digits[w % base];
  return p;
}

static void format_integer(struct pnacl_out *o, const struct pnacl_spec *sp,
                           unsigned long long magnitude, int negative) {
  char buf[80];
  char *end = buf + sizeof buf;
  unsigned base = sp->conv == 'o' ? 8 : sp->conv == 'x' || sp->conv == 'X' ? 16 : 10;
  char *digits = integer_digits(end, magnitude, base, sp->conv == 'X');
  size_t ndigits = (size_t)(end - digits);
  size_t precision = sp->precision < 0 ? 1 : (size_t)sp->precision;
  /* '#' with 'o' makes the first digit a zero. */
  if (sp->conv == 'o' && sp->hash && precision <= ndigits && (ndigits == 0 || *digits != '0'))
    precision = ndigits + 1;
  size_t zeros = precision > ndigits ? precision - ndigits : 0;
  char prefix[3];
  size_t prefix_len = 0;
  if (sp->conv == 'd' || sp->conv == 'i') {
    if (negative)
      prefix[prefix_len++] = '-';
    else if (sp->plus)
      prefix[prefix_len++] = '+';
    else if (sp->space)
      prefix[prefix_len++] = ' ';
  } else if ((sp->conv == 'x' || sp->conv == 'X') && sp->hash && magnitude != 0) {
    prefix[prefix_len++] = '0';
    prefix[prefix_len++] = sp->conv;
  }
  size_t body_len = zeros + ndigits;
  __pnacl_pad_begin(o, sp, prefix, prefix_len, body_len, sp->precision < 0);
  __pnacl_out_fill(o, '0', zeros);
  __pnacl_out_write(o, digits, ndigits);
  __pnacl_pad_end(o, sp, prefix_len + body_len);
}

static long long signed_arg(va_list *ap, enum length len) {
  switch (len) {
  case LEN_HH:
    return (signed char)va_arg(*ap, int);
  case LEN_H:
    return (short)va_arg(*ap, int);
  case LEN_L:
    return va_arg(*ap, long);
  case LEN_LL:
  case LEN_BIG_L:
    return va_arg(*ap, long long);
  case LEN_J:
    return va_arg(*ap, intmax_t);
  case LEN_Z:
  case LEN_T:
    return va_arg(*ap, ptrdiff_t);
  default:
    return va_arg(*ap, int);
  }
}

static unsigned long long unsigned_arg(va_list *ap, enum length len) {
  switch (len) {
  case LEN_HH:
    return (unsigned char)va_arg(*ap, unsigned);
  case LEN_H:
    return (unsigned short)va_arg(*ap, unsigned);
  case LEN_L:
    return va_arg(*ap, unsigned long);
  case LEN_LL:
  case LEN_BIG_L:
    return va_arg(*ap, unsigned long long);
  case LEN_J:
    return va_arg(*ap, uintmax_t);
  case LEN_Z:
  case LEN_T:
    return va_arg(*ap, size_t);
  default:
    return va_arg(*ap, unsigned);
  }
}

static void store_count(va_list *ap, enum length len, size_t total) {
  switch (len) {
  case LEN_HH:
    *va_arg(*ap, signed char *) = (signed char)total;
    break;
  case LEN_H:
    *va_arg(*ap, short *) = (short)total;
    break;
  case LEN_L:
    *va_arg(*ap, long *) = (long)total;
    break;
  case LEN_LL:
  case LEN_BIG_L:
  case LEN_J:
    *va_arg(*ap, long long *) = (long long)total;
    break;
  case LEN_Z:
  case LEN_T:
    *va_arg(*ap, ptrdiff_t *) = (ptrdiff_t)total;
    break;
  default:
    *va_arg(*ap, int *) = (int)total;
  }
}

/* %ls: wide characters, which the "C" locale can only print when they are ASCII. */
static void format_wide_string(struct pnacl_out *o, const struct pnacl_spec *sp,
                               const wchar_t *ws) {
  char buf[256];
  size_t n = 0;
  if (!ws) {
    write_padded(o, sp, "", 0, sp->precision < 0 || sp->precision >= 6 ? "(null)" : "",
                 sp->precision < 0 || sp->precision >= 6 ? 6 : 0, 0);
    return;
  }
  while (ws[n] && (sp->precision < 0 || n < (size_t)sp->precision)) {
    if (ws[n] < 0 || ws[n] > 127) {
      o->error = EILSEQ;
      return;
    }
    n++;
  }
  __pnacl_pad_begin(o, sp, "", 0, n, 0);
  for (size_t i = 0; i < n;) {
    size_t k = 0;
    for (; k < sizeof buf && i < n; k++, i++)
      buf[k] = (char)ws[i];
    __pnacl_out_write(o, buf, k);
  }
  __pnacl_pad_end(o, sp, n);
}

static const char *parse_spec(const char *f, struct pnacl_spec *sp, enum length *len,
                              va_list *ap) {
  *sp = (struct pnacl_spec){0, 0, 0, 0, 0, 0, -1, 0};
  for (;; f++) {
    if (*f == '-')
      sp->minus = 1;
    else if (*f == '+')
      sp->plus = 1;
    else if (*f == ' ')
      sp->space = 1;
    else if (*f == '#')
      sp->hash = 1;
    else if (*f == '0')
      sp->zero = 1;
    else if (*f != '\'' && *f != 'I')
      break;
  }
  if (*f == '*') {
    int w = va_arg(*ap, int);
    if (w < 0) {
      sp->minus = 1;
      w = w == INT_MIN ? INT_MAX : -w;
    }
    sp->width = w;
    f++;
  } else {
    for (; *f >= '0' && *f <= '9'; f++)
      sp->width = sp->width > (INT_MAX - 9) / 10 ? INT_MAX : sp->width * 10 + (*f - '0');
  }
  if (*f == '.') {
    f++;
    if (*f == '*') {
      int p = va_arg(*ap, int);
      sp->precision = p < 0 ? -1 : p;
      f++;
    } else {
      sp->precision = 0;
      for (; *f >= '0' && *f <= '9'; f++)
        sp->precision =
            sp->precision > (INT_MAX - 9) / 10 ? INT_MAX : sp->precision * 10 + (*f - '0');
    }
  }
  *len = LEN_NONE;
  switch (*f) {
  case 'h':
    *len = f[1] == 'h' ? (f++, LEN_HH) : LEN_H;
    f++;
    break;
  case 'l':
    *len = f[1] == 'l' ? (f++, LEN_LL) : LEN_L;
    f++;
    break;
  case 'q':
    *len = LEN_LL;
    f++;
    break;
  case 'L':
    *len = LEN_BIG_L;
    f++;
    break;
  case 'j':
    *len = LEN_J;
    f++;
    break;
  case 'z':
  case 'Z':
    *len = LEN_Z;
    f++;
    break;
  case 't':
    *len = LEN_T;
    f++;
    break;
  }
  sp->conv = *f;
  if (sp->minus)
    sp->zero = 0;
  return f;
}

int __pnacl_vformat(struct pnacl_out *o, const char *fmt, va_list ap_in) {
  va_list ap;
  va_copy(ap, ap_in);
  const char *f = fmt;
  while (*f && !o->error) {
    if (*f != '%') {
      const char *lit = f;
      while (*f && *f != '%')
        f++;
      __pnacl_out_write(o, lit, (size_t)(f - lit));
      continue;
    }
    if (f[1] == '%') {
      __pnacl_out_write(o, "%", 1);
      f += 2;
      continue;
    }
    const char *start = f;
    struct pnacl_spec sp;
    enum length len;
    f = parse_spec(f + 1, &sp, &len, &ap);
    switch (sp.conv) {
    case 'd':
    case 'i': {
      long long v = signed_arg(&ap, len);
      unsigned long long m = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
      format_integer(o, &sp, m, v < 0);
      break;
    }
    case 'u':
    case 'o':
    case 'x':
    case 'X':
      format_integer(o, &sp, unsigned_arg(&ap, len), 0);
      break;
    case 'c':
      if (len == LEN_L) {
        wchar_t wc[2] = {(wchar_t)va_arg(ap, int), 0};
        struct pnacl_spec one = sp;
        one.precision = -1;
        if (wc[0] == 0) {
          write_padded(o, &sp, "", 0, "", 1, 0);
        } else {
          format_wide_string(o, &one, wc);
        }
      } else {
        char c = (char)va_arg(ap, int);
        write_padded(o, &sp, "", 0, &c, 1, 0);
      }
      break;
    case 's':
      if (len == LEN_L) {
        format_wide_string(o, &sp, va_arg(ap, const wchar_t *));
      } else {
        const char *s = va_arg(ap, const char *);
        if (!s)
          s = sp.precision < 0 || sp.precision >= 6 ? "(null)" : "";
        size_t n = sp.precision < 0 ? strlen(s) : strnlen(s, (size_t)sp.precision);
        write_padded(o, &sp, "", 0, s, n, 0);
      }
      break;
    case 'p': {
      void *p = va_arg(ap, void *);
      if (!p) {
        sp.precision = -1;
        write_padded(o, &sp, "", 0, "(nil)", 5, 0);
      } else {
        sp.hash = 1;
        sp.conv = 'x';
        format_integer(o, &sp, (uintptr_t)p, 0);
      }
      break;
    }
    case 'n':
      store_count(&ap, len, o->total);
      break;
    case 'm': {
      const char *s = strerror(errno);
      size_t n = sp.precision < 0 ? strlen(s) : strnlen(s, (size_t)sp.precision);
      write_padded(o, &sp, "", 0, s, n, 0);
      break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A': {
      double v = len == LEN_BIG_L ? (double)va_arg(ap, long double) : va_arg(ap, double);
      __pnacl_format_double(o, &sp, v);
      break;
    }
    default:
      /* An unknown conversion is printed as it was written. */
      if (!*f) {
        __pnacl_out_write(o, start, (size_t)(f - start));
      } else {
        f++;
        __pnacl_out_write(o, start, (size_t)(f - start));
      }
      continue;
    }
    f++;
  }
  va_end(ap);
  if (o->error) {
    errno = o->error;
    return -1;
  }
  if (o->total > INT_MAX) {
    errno = EOVERFLOW;
    return -1;
  }
  return (int)o->total;
}

/* Formatting into a string: the window is the caller's buffer until it fills, then a
 * scratch area that is overwritten, so that the full length is still counted. */
struct string_ctx {
  char scratch[64];
  int full;
};

static void drain_string(struct pnacl_out *o) {
  struct string_ctx *c = o->ctx;
  c->full = 1;
  o->buf = c->scratch;
  o->cap = sizeof c->scratch;
  o->pos = 0;
}

int vsnprintf(char *__restrict s, size_t n, const char *__restrict fmt, va_list ap) {
  struct string_ctx c = {{0}, 0};
  struct pnacl_out o = {s, n ? n - 1 : 0, 0, 0, 0, drain_string, &c};
  if (n == 0)
    drain_string(&o);
  int r = __pnacl_vformat(&o, fmt, ap);
  if (n > 0)
    s[c.full ? n - 1 : o.pos] = 0;
  return r;
}

int vsprintf(char *__restrict s, const char *__restrict fmt, va_list ap) {
  return vsnprintf(s, INT_MAX, fmt, ap);
}

int snprintf(char *__restrict s, size_t n, const char *__restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vsnprintf(s, n, fmt, ap);
  va_end(ap);
  return r;
}

int sprintf(char *__restrict s, const char *__restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vsnprintf(s, INT_MAX, fmt, ap);
  va_end(ap);
  return r;
}

/* Formatting to a stream goes through a small staging buffer, so that an unbuffered
 * stream such as stderr gets one write per call for short messages, as with glibc. */
static void drain_stream(struct pnacl_out *o) {
  if (o->pos && __pnacl_fwrite(o->buf, o->pos, o->ctx) != o->pos)
    o->error = EIO;
  o->pos = 0;
}

int vfprintf(FILE *__restrict f, const char *__restrict fmt, va_list ap) {
  char stage[512];
  struct pnacl_out o = {stage, sizeof stage, 0, 0, 0, drain_stream, f};
  int r = __pnacl_vformat(&o, fmt, ap);
  drain_stream(&o);
  if (o.error)
    return -1;
  return r;
}

int vprintf(const char *__restrict fmt, va_list ap) { return vfprintf(stdout, fmt, ap); }

int fprintf(FILE *__restrict f, const char *__restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vfprintf(f, fmt, ap);
  va_end(ap);
  return r;
}

int printf(const char *__restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vfprintf(stdout, fmt, ap);
  va_end(ap);
  return r;
}

static void drain_fd(struct pnacl_out *o) {
  int *fd = o->ctx;
  if (o->pos && __pnacl_write_all(*fd, o->buf, o->pos))
    o->error = EIO;
  o->pos = 0;
}

int vdprintf(int fd, const char *__restrict fmt, va_list ap) {
  char stage[512];
  struct pnacl_out o = {stage, sizeof stage, 0, 0, 0, drain_fd, &fd};
  int r = __pnacl_vformat(&o, fmt, ap);
  drain_fd(&o);
  return o.error ? -1 : r;
}

int dprintf(int fd, const char *__restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vdprintf(fd, fmt, ap);
  va_end(ap);
  return r;
}

int vasprintf(char **out, const char *__restrict fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(0, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0)
    return -1;
  char *s = malloc((size_t)n + 1);
  if (!s)
    return -1;
  *out = s;
  return vsnprintf(s, (size_t)n + 1, fmt, ap);
}

int asprintf(char **out, const char *__restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vasprintf(out, fmt, ap);
  va_end(ap);
  return r;
}
