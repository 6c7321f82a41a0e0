/* errno.c: IRT errors are NaCl errno values (Linux's numbers); newlib's <errno.h> has its
 * own numbers (ENOSYS is 88, not 38), so every error crossing the IRT is translated. */
#include <errno.h>
#include "internal.h"

/* NaCl value (runtime-facts §4.6) and newlib's, for every code the NaCl ABI defines. */
static const struct {
  unsigned char nacl;
  unsigned char newlib;
} codes[] = {
    {1, EPERM},         {2, ENOENT},       {3, ESRCH},      {4, EINTR},        {5, EIO},
    {6, ENXIO},         {7, E2BIG},        {8, ENOEXEC},    {9, EBADF},        {10, ECHILD},
    {11, EAGAIN},       {12, ENOMEM},      {13, EACCES},    {14, EFAULT},      {16, EBUSY},
    {17, EEXIST},       {18, EXDEV},       {19, ENODEV},    {20, ENOTDIR},     {21, EISDIR},
    {22, EINVAL},       {23, ENFILE},      {24, EMFILE},    {25, ENOTTY},      {27, EFBIG},
    {28, ENOSPC},       {29, ESPIPE},      {30, EROFS},     {31, EMLINK},      {32, EPIPE},
    {33, EDOM},         {34, ERANGE},      {35, EDEADLK},   {36, ENAMETOOLONG}, {37, ENOLCK},
    {38, ENOSYS},       {39, ENOTEMPTY},   {40, ELOOP},     {75, EOVERFLOW},   {84, EILSEQ},
    {110, ETIMEDOUT},   {122, EDQUOT},     {125, ECANCELED},
};

int __pnacl_errno(int nacl_errno) {
  for (unsigned i = 0; i < sizeof codes / sizeof codes[0]; i++)
    if (codes[i].nacl == nacl_errno)
      return codes[i].newlib;
  return EIO;
}

int __pnacl_nacl_errno(int newlib_errno) {
  for (unsigned i = 0; i < sizeof codes / sizeof codes[0]; i++)
    if (codes[i].newlib == newlib_errno)
      return codes[i].nacl;
  return 5;
}

int __pnacl_fail(int nacl_errno) {
  errno = __pnacl_errno(nacl_errno);
  return -1;
}
