/* pnacl: newlib's generic sys/utime.h has struct utimbuf but no utime(); pnacl's platform
 * layer implements it over the IRT's utimes. */
#ifndef _SYS_UTIME_H
#define _SYS_UTIME_H

#include <sys/cdefs.h>
#include <sys/types.h>

struct utimbuf {
  time_t actime;
  time_t modtime;
};

__BEGIN_DECLS
int utime(const char *__path, const struct utimbuf *__times);
__END_DECLS

#endif
