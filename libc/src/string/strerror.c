/* strerror.c: messages for the NaCl errno values, worded as glibc words them so that a
 * program prints the same text under pnacl as natively. */
#include <errno.h>
#include <string.h>

static const char *const messages[] = {
    [0] = "Success",
    [EPERM] = "Operation not permitted",
    [ENOENT] = "No such file or directory",
    [ESRCH] = "No such process",
    [EINTR] = "Interrupted system call",
    [EIO] = "Input/output error",
    [ENXIO] = "No such device or address",
    [E2BIG] = "Argument list too long",
    [ENOEXEC] = "Exec format error",
    [EBADF] = "Bad file descriptor",
    [ECHILD] = "No child processes",
    [EAGAIN] = "Resource temporarily unavailable",
    [ENOMEM] = "Cannot allocate memory",
    [EACCES] = "Permission denied",
    [EFAULT] = "Bad address",
    [EBUSY] = "Device or resource busy",
    [EEXIST] = "File exists",
    [EXDEV] = "Invalid cross-device link",
    [ENODEV] = "No such device",
    [ENOTDIR] = "Not a directory",
    [EISDIR] = "Is a directory",
    [EINVAL] = "Invalid argument",
    [ENFILE] = "Too many open files in system",
    [EMFILE] = "Too many open files",
    [ENOTTY] = "Inappropriate ioctl for device",
    [EFBIG] = "File too large",
    [ENOSPC] = "No space left on device",
    [ESPIPE] = "Illegal seek",
    [EROFS] = "Read-only file system",
    [EMLINK] = "Too many links",
    [EPIPE] = "Broken pipe",
    [EDOM] = "Numerical argument out of domain",
    [ERANGE] = "Numerical result out of range",
    [EDEADLK] = "Resource deadlock avoided",
    [ENAMETOOLONG] = "File name too long",
    [ENOLCK] = "No locks available",
    [ENOSYS] = "Function not implemented",
    [ENOTEMPTY] = "Directory not empty",
    [ELOOP] = "Too many levels of symbolic links",
    [EOVERFLOW] = "Value too large for defined data type",
    [EILSEQ] = "Invalid or incomplete multibyte or wide character",
    [ETIMEDOUT] = "Connection timed out",
    [EDQUOT] = "Disk quota exceeded",
    [ECANCELED] = "Operation canceled",
};

char *strerror(int err) {
  static char unknown[32];
  if (err >= 0 && (size_t)err < sizeof messages / sizeof messages[0] && messages[err])
    return (char *)messages[err];
  /* "Unknown error N", without printf so strerror stays small. */
  char digits[12];
  int n = 0;
  unsigned u = err < 0 ? 0u - (unsigned)err : (unsigned)err;
  do
    digits[n++] = (char)('0' + u % 10);
  while ((u /= 10) != 0);
  char *p = stpcpy(unknown, "Unknown error ");
  if (err < 0)
    *p++ = '-';
  while (n)
    *p++ = digits[--n];
  *p = 0;
  return unknown;
}
