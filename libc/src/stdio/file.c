/* file.c: FILE streams over the IRT fdio (and, for fopen, filename) interfaces.
 *
 * stdout is line buffered whatever it is connected to, because newlib as built for NaCl
 * flushes stdout at every newline and real pexes interleave stdout and stderr that way;
 * like glibc and newlib, a write is flushed through its last newline and the rest stays
 * buffered. stderr is unbuffered. Other streams are fully buffered. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../internal.h"
#include "stdio_impl.h"

static unsigned char stdin_buf[BUFSIZ];
static unsigned char stdout_buf[BUFSIZ];

static struct __pnacl_file stdin_file = {0, F_READ | F_STATIC, stdin_buf, BUFSIZ, 0, 0, 0, EOF, 0};
static struct __pnacl_file stdout_file = {1, F_WRITE | F_STATIC | F_LINEBUF, stdout_buf, BUFSIZ,
                                          0, 0, 0, EOF, 0};
static struct __pnacl_file stderr_file = {2, F_WRITE | F_STATIC | F_UNBUF, 0, 0, 0, 0, 0, EOF, 0};

FILE *stdin = &stdin_file;
FILE *stdout = &stdout_file;
FILE *stderr = &stderr_file;

/* Files opened by fopen/fdopen. */
static FILE *open_files;

static int write_fd(FILE *f, const void *p, size_t n) {
  int err = __pnacl_write_all(f->fd, p, n);
  if (err) {
    errno = err;
    f->flags |= F_ERR;
    return -1;
  }
  return 0;
}

/* Empties the write buffer. */
static int flush_writes(FILE *f) {
  if (f->wlen == 0)
    return 0;
  size_t n = f->wlen;
  f->wlen = 0;
  return write_fd(f, f->buf, n);
}

/* Drops read-ahead, moving the descriptor back to the logical position. */
static void drop_reads(FILE *f) {
  size_t ahead = f->rlen - f->rpos + (f->ungot != EOF);
  if (ahead)
    lseek(f->fd, -(off_t)ahead, SEEK_CUR);
  f->rpos = f->rlen = 0;
  f->ungot = EOF;
}

size_t __pnacl_fwrite(const void *p, size_t n, FILE *f) {
  const unsigned char *s = p;
  if (!(f->flags & F_WRITE)) {
    f->flags |= F_ERR;
    errno = EBADF;
    return 0;
  }
  if (f->rlen || f->ungot != EOF)
    drop_reads(f);
  if (n == 0)
    return 0;
  if (f->flags & F_UNBUF || !f->buf)
    return flush_writes(f) || write_fd(f, s, n) ? 0 : n;
  size_t through = 0; /* bytes up to and including the last newline, for line buffering */
  if (f->flags & F_LINEBUF)
    for (size_t i = n; i > 0; i--)
      if (s[i - 1] == '\n') {
        through = i;
        break;
      }
  size_t done = 0;
  while (done < n) {
    size_t room = f->size - f->wlen;
    if (room == 0) {
      if (flush_writes(f))
        return done;
      continue;
    }
    /* A write at least a buffer long, with nothing waiting, goes straight out. */
    if (f->wlen == 0 && n - done >= f->size) {
      size_t k = n - done;
      if (write_fd(f, s + done, k))
        return done;
      done += k;
      break;
    }
    size_t k = n - done < room ? n - done : room;
    memcpy(f->buf + f->wlen, s + done, k);
    f->wlen += k;
    done += k;
    if (through && done >= through) {
      /* Flush through the newline; what follows it stays in the buffer. */
      size_t keep = done - through;
      size_t out = f->wlen - keep;
      f->wlen = 0;
      if (write_fd(f, f->buf, out))
        return done - keep;
      memmove(f->buf, f->buf + out, keep);
      f->wlen = keep;
      through = 0;
    }
  }
  return n;
}

static int refill(FILE *f) {
  if (!(f->flags & F_READ)) {
    f->flags |= F_ERR;
    errno = EBADF;
    return EOF;
  }
  if (f->wlen && flush_writes(f))
    return EOF;
  /* Reading stdin shows what was written to stdout first, as interactive programs expect. */
  if (f == stdin)
    fflush(stdout);
  size_t n;
  int err = __pnacl_irt_fdio.read ? __pnacl_irt_fdio.read(f->fd, f->buf, f->size, &n) : ENOSYS;
  if (err) {
    errno = err;
    f->flags |= F_ERR;
    return EOF;
  }
  if (n == 0) {
    f->flags |= F_EOF;
    return EOF;
  }
  f->rpos = 0;
  f->rlen = n;
  return 0;
}

int fgetc(FILE *f) {
  if (f->ungot != EOF) {
    int c = f->ungot;
    f->ungot = EOF;
    return c;
  }
  if (f->rpos == f->rlen && refill(f) == EOF)
    return EOF;
  return f->buf[f->rpos++];
}

int getc(FILE *f) { return fgetc(f); }
int getchar(void) { return fgetc(stdin); }
int getc_unlocked(FILE *f) { return fgetc(f); }
int getchar_unlocked(void) { return fgetc(stdin); }

int ungetc(int c, FILE *f) {
  if (c == EOF || f->ungot != EOF)
    return EOF;
  if (f->rpos > 0 && f->buf[f->rpos - 1] == (unsigned char)c) {
    f->rpos--;
  } else {
    f->ungot = (unsigned char)c;
  }
  f->flags &= ~F_EOF;
  return (unsigned char)c;
}

size_t fread(void *__restrict p, size_t size, size_t n, FILE *__restrict f) {
  unsigned char *d = p;
  if (size == 0 || n == 0)
    return 0;
  size_t want = size * n, got = 0;
  if (n > (size_t)-1 / size)
    want = (size_t)-1;
  if (f->ungot != EOF && want > 0) {
    d[got++] = (unsigned char)f->ungot;
    f->ungot = EOF;
  }
  while (got < want) {
    size_t avail = f->rlen - f->rpos;
    if (avail == 0) {
      if (refill(f) == EOF)
        break;
      continue;
    }
    size_t k = want - got < avail ? want - got : avail;
    memcpy(d + got, f->buf + f->rpos, k);
    f->rpos += k;
    got += k;
  }
  return got / size;
}

char *fgets(char *__restrict s, int n, FILE *__restrict f) {
  int i = 0;
  if (n <= 0)
    return 0;
  while (i < n - 1) {
    int c = fgetc(f);
    if (c == EOF)
      break;
    s[i++] = (char)c;
    if (c == '\n')
      break;
  }
  if (i == 0 && n > 1)
    return 0;
  s[i] = 0;
  return s;
}

size_t fwrite(const void *__restrict p, size_t size, size_t n, FILE *__restrict f) {
  if (size == 0 || n == 0)
    return 0;
  return __pnacl_fwrite(p, size * n, f) / size;
}

int fputc(int c, FILE *f) {
  unsigned char b = (unsigned char)c;
  /* The common case, a buffered byte that ends no line, stays out of __pnacl_fwrite. */
  if (f->buf && !(f->flags & F_UNBUF) && f->wlen < f->size && f->rlen == 0 &&
      f->ungot == EOF && (f->flags & F_WRITE) && !(b == '\n' && (f->flags & F_LINEBUF))) {
    f->buf[f->wlen++] = b;
    return b;
  }
  return __pnacl_fwrite(&b, 1, f) == 1 ? b : EOF;
}

int putc(int c, FILE *f) { return fputc(c, f); }
int putchar(int c) { return fputc(c, stdout); }
int putc_unlocked(int c, FILE *f) { return fputc(c, f); }
int fputc_unlocked(int c, FILE *f) { return fputc(c, f); }
int putchar_unlocked(int c) { return fputc(c, stdout); }

size_t fwrite_unlocked(const void *__restrict p, size_t size, size_t n, FILE *__restrict f) {
  return fwrite(p, size, n, f);
}

size_t fread_unlocked(void *__restrict p, size_t size, size_t n, FILE *__restrict f) {
  return fread(p, size, n, f);
}

int fputs(const char *__restrict s, FILE *__restrict f) {
  size_t n = strlen(s);
  return __pnacl_fwrite(s, n, f) == n ? 1 : EOF;
}

int fputs_unlocked(const char *__restrict s, FILE *__restrict f) { return fputs(s, f); }

int puts(const char *s) {
  size_t n = strlen(s);
  if (__pnacl_fwrite(s, n, stdout) != n)
    return EOF;
  return fputc('\n', stdout) == EOF ? EOF : 1;
}

int fflush(FILE *f) {
  if (!f) {
    int r = fflush(stdout) | fflush(stderr);
    for (FILE *g = open_files; g; g = g->next)
      r |= fflush(g);
    return r ? EOF : 0;
  }
  if (f->flags & F_WRITE && flush_writes(f))
    return EOF;
  return 0;
}

void __pnacl_stdio_exit(void) { fflush(0); }

int feof(FILE *f) { return (f->flags & F_EOF) != 0; }
int ferror(FILE *f) { return (f->flags & F_ERR) != 0; }
void clearerr(FILE *f) { f->flags &= ~(F_EOF | F_ERR); }
int fileno(FILE *f) { return f->fd; }

/* Parses an fopen mode into open flags and stream flags; -1 when invalid. */
static int parse_mode(const char *mode, int *stream_flags) {
  int oflags;
  switch (*mode) {
  case 'r':
    oflags = O_RDONLY;
    *stream_flags = F_READ;
    break;
  case 'w':
    oflags = O_WRONLY | O_CREAT | O_TRUNC;
    *stream_flags = F_WRITE;
    break;
  case 'a':
    oflags = O_WRONLY | O_CREAT | O_APPEND;
    *stream_flags = F_WRITE | F_APPEND;
    break;
  default:
    return -1;
  }
  for (const char *m = mode + 1; *m; m++) {
    if (*m == '+') {
      oflags = (oflags & ~O_ACCMODE) | O_RDWR;
      *stream_flags |= F_READ | F_WRITE;
    } else if (*m == 'x') {
      oflags |= O_EXCL;
    } else if (*m == 'e') {
      oflags |= O_CLOEXEC;
    }
  }
  return oflags;
}

static FILE *new_stream(int fd, int flags) {
  FILE *f = malloc(sizeof *f);
  unsigned char *buf = malloc(BUFSIZ);
  if (!f || !buf) {
    free(f);
    free(buf);
    return 0;
  }
  *f = (struct __pnacl_file){fd, flags | F_OWNBUF, buf, BUFSIZ, 0, 0, 0, EOF, open_files};
  open_files = f;
  return f;
}

FILE *fopen(const char *__restrict path, const char *__restrict mode) {
  int flags;
  int oflags = parse_mode(mode, &flags);
  if (oflags < 0) {
    errno = EINVAL;
    return 0;
  }
  int fd = open(path, oflags, 0666);
  if (fd < 0)
    return 0;
  FILE *f = new_stream(fd, flags);
  if (!f)
    close(fd);
  return f;
}

FILE *fdopen(int fd, const char *mode) {
  int flags;
  if (parse_mode(mode, &flags) < 0) {
    errno = EINVAL;
    return 0;
  }
  return new_stream(fd, flags);
}

FILE *freopen(const char *__restrict path, const char *__restrict mode, FILE *__restrict f) {
  int flags;
  int oflags = parse_mode(mode, &flags);
  fflush(f);
  if (oflags < 0 || !path) {
    errno = EINVAL;
    return 0;
  }
  close(f->fd);
  int fd = open(path, oflags, 0666);
  if (fd < 0)
    return 0;
  f->fd = fd;
  f->flags = (f->flags & (F_OWNBUF | F_STATIC | F_LINEBUF | F_UNBUF)) | flags;
  f->wlen = f->rpos = f->rlen = 0;
  f->ungot = EOF;
  return f;
}

int fclose(FILE *f) {
  int r = fflush(f);
  if (close(f->fd) != 0)
    r = EOF;
  if (f->flags & F_STATIC) {
    f->flags &= ~(F_READ | F_WRITE);
    return r;
  }
  for (FILE **p = &open_files; *p; p = &(*p)->next)
    if (*p == f) {
      *p = f->next;
      break;
    }
  if (f->flags & F_OWNBUF)
    free(f->buf);
  free(f);
  return r;
}

int fseeko(FILE *f, off_t off, int whence) {
  if (f->flags & F_WRITE && flush_writes(f))
    return -1;
  if (whence == SEEK_CUR)
    off -= (off_t)(f->rlen - f->rpos + (f->ungot != EOF));
  f->rpos = f->rlen = 0;
  f->ungot = EOF;
  if (lseek(f->fd, off, whence) < 0)
    return -1;
  f->flags &= ~F_EOF;
  return 0;
}

int fseek(FILE *f, long off, int whence) { return fseeko(f, off, whence); }

off_t ftello(FILE *f) {
  off_t pos = lseek(f->fd, 0, SEEK_CUR);
  if (pos < 0)
    return -1;
  return pos + (off_t)f->wlen - (off_t)(f->rlen - f->rpos) - (f->ungot != EOF);
}

long ftell(FILE *f) {
  off_t pos = ftello(f);
  if (pos > (off_t)__LONG_MAX__) {
    errno = EOVERFLOW;
    return -1;
  }
  return (long)pos;
}

void rewind(FILE *f) {
  fseeko(f, 0, SEEK_SET);
  f->flags &= ~F_ERR;
}

int fgetpos(FILE *__restrict f, fpos_t *__restrict pos) {
  off_t p = ftello(f);
  if (p < 0)
    return -1;
  *pos = p;
  return 0;
}

int fsetpos(FILE *f, const fpos_t *pos) { return fseeko(f, *pos, SEEK_SET); }

int setvbuf(FILE *__restrict f, char *__restrict buf, int mode, size_t size) {
  fflush(f);
  f->flags &= ~(F_LINEBUF | F_UNBUF);
  if (mode == _IONBF) {
    f->flags |= F_UNBUF;
    return 0;
  }
  if (mode == _IOLBF)
    f->flags |= F_LINEBUF;
  else if (mode != _IOFBF)
    return -1;
  if (buf && size > 0) {
    if (f->flags & F_OWNBUF)
      free(f->buf);
    f->flags &= ~F_OWNBUF;
    f->buf = (unsigned char *)buf;
    f->size = size;
  } else if (!f->buf) {
    unsigned char *b = malloc(BUFSIZ);
    if (!b) {
      f->flags |= F_UNBUF;
      return -1;
    }
    f->buf = b;
    f->size = BUFSIZ;
    f->flags |= F_OWNBUF;
  }
  return 0;
}

void setbuf(FILE *__restrict f, char *__restrict buf) {
  setvbuf(f, buf, buf ? _IOFBF : _IONBF, BUFSIZ);
}

void perror(const char *s) {
  /* One formatted call, so that unbuffered stderr gets one write, as with glibc. */
  int has_prefix = s && *s;
  fprintf(stderr, "%s%s%s\n", has_prefix ? s : "", has_prefix ? ": " : "", strerror(errno));
}

static int filename_call(int slot, const char *a, const char *b) {
  size_t slots;
  const struct pnacl_irt_filename *fn = __pnacl_irt_filename(&slots);
  if (!fn || (size_t)slot >= slots) {
    errno = ENOSYS;
    return -1;
  }
  int err = slot == 6 ? fn->unlink(a) : fn->rename(a, b);
  if (err) {
    errno = err;
    return -1;
  }
  return 0;
}

int remove(const char *path) { return filename_call(6, path, 0); }
int rename(const char *old_path, const char *new_path) {
  return filename_call(10, old_path, new_path);
}

/* The filename interface, queried on first use as newlib does: dev-filename-0.3, then
 * dev-filename-0.2, then filename-0.1. */
static struct pnacl_irt_filename filename_table;
static size_t filename_slots;
static int filename_state; /* 0: not queried, 1: present, -1: absent */

const struct pnacl_irt_filename *__pnacl_irt_filename(size_t *slots) {
  if (filename_state == 0) {
    size_t ptr = sizeof(void (*)(void));
    if (__pnacl_irt_query_table(PNACL_IRT_DEV_FILENAME_3, &filename_table, sizeof filename_table))
      filename_slots = sizeof filename_table / ptr;
    else if (__pnacl_irt_query_table(PNACL_IRT_DEV_FILENAME_2, &filename_table,
                                     PNACL_FILENAME_SLOTS_2 * ptr))
      filename_slots = PNACL_FILENAME_SLOTS_2;
    else if (__pnacl_irt_query_table(PNACL_IRT_FILENAME_1, &filename_table,
                                     PNACL_FILENAME_SLOTS_1 * ptr))
      filename_slots = PNACL_FILENAME_SLOTS_1;
    filename_state = filename_slots ? 1 : -1;
  }
  *slots = filename_slots;
  return filename_state > 0 ? &filename_table : 0;
}
