/* pnacl: memory mappings over the IRT's memory interface (mmap, munmap, mprotect), with
 * the NaCl ABI's constants (runtime-facts §4.5). Anonymous mappings read as zeros; file
 * mappings are private copies. */
#ifndef _SYS_MMAN_H
#define _SYS_MMAN_H

#include <sys/cdefs.h>
#include <sys/types.h>

#define PROT_NONE 0x0
#define PROT_READ 0x1
#define PROT_WRITE 0x2
#define PROT_EXEC 0x4

#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
#define MAP_ANON MAP_ANONYMOUS
#define MAP_FAILED ((void *)-1)

__BEGIN_DECLS
void *mmap(void *__addr, size_t __len, int __prot, int __flags, int __fd, off_t __offset);
int munmap(void *__addr, size_t __len);
int mprotect(void *__addr, size_t __len, int __prot);
__END_DECLS

#endif
