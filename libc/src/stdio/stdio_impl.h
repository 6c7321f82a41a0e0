/* stdio_impl.h: FILE, and the output sink the printf family formats into. */
#ifndef _PNACL_SRC_STDIO_IMPL_H
#define _PNACL_SRC_STDIO_IMPL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define F_READ 1      /* opened for reading */
#define F_WRITE 2     /* opened for writing */
#define F_EOF 4       /* end of file seen */
#define F_ERR 8       /* an I/O error happened */
#define F_LINEBUF 16  /* flush through the last newline of each write */
#define F_UNBUF 32    /* write straight through */
#define F_OWNBUF 64   /* buf was malloc'd by the library */
#define F_STATIC 128  /* one of stdin, stdout, stderr: never freed */
#define F_APPEND 256  /* opened with "a" */

struct __pnacl_file {
  int fd;
  int flags;
  unsigned char *buf;
  size_t size;  /* capacity of buf */
  size_t wlen;  /* bytes waiting in buf to be written */
  size_t rpos;  /* next unread byte in buf */
  size_t rlen;  /* bytes read into buf */
  int ungot;    /* a byte pushed back by ungetc, or EOF */
  struct __pnacl_file *next; /* the list of open files, for fflush(NULL) and exit */
};

/* Writes n bytes to f through its buffer; returns n, or less on an error. */
size_t __pnacl_fwrite(const void *p, size_t n, FILE *f);

/* A sink for formatted output: a window buf[0..cap) that `drain` empties when full. */
struct pnacl_out {
  char *buf;
  size_t cap;
  size_t pos;
  size_t total;   /* bytes produced so far, including any that were discarded */
  int error;      /* an I/O error, or an encoding error (EILSEQ) */
  void (*drain)(struct pnacl_out *o);
  void *ctx;
};

void __pnacl_out_write(struct pnacl_out *o, const char *s, size_t n);
void __pnacl_out_fill(struct pnacl_out *o, char c, size_t n);

/* A conversion specification, as parsed by vformat. */
struct pnacl_spec {
  int minus, plus, space, hash, zero;
  int width;     /* 0 when none */
  int precision; /* -1 when none */
  char conv;
};

/* Formats into o; returns the number of bytes produced, or -1 (errno set). */
int __pnacl_vformat(struct pnacl_out *o, const char *fmt, va_list ap);
/* The f F e E g G a A conversions of one double. */
void __pnacl_format_double(struct pnacl_out *o, const struct pnacl_spec *sp, double v);
/* Padding around a converted field of prefix (sign, "0x") and a body of body_len bytes:
 * pad_begin writes the left padding and the prefix (with zeros after it when the spec
 * asks for zero padding and `zero_ok`), the caller writes the body, pad_end the right
 * padding. */
void __pnacl_pad_begin(struct pnacl_out *o, const struct pnacl_spec *sp, const char *prefix,
                       size_t prefix_len, size_t body_len, int zero_ok);
void __pnacl_pad_end(struct pnacl_out *o, const struct pnacl_spec *sp, size_t field_len);

#endif
