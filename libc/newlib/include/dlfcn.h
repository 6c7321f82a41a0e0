/* dlfcn.h: dynamic loading, which a pexe cannot do (a pexe is one module, and NaCl's
 * sandbox loads no other code). The functions exist so that programs written for systems
 * with dlopen (Lua's LUA_USE_LINUX build, plugin loaders) build unchanged and take their
 * "cannot load" path at run time: dlopen and dlsym return NULL, and dlerror says why. */
#ifndef _DLFCN_H
#define _DLFCN_H

#ifdef __cplusplus
extern "C" {
#endif

#define RTLD_LAZY 0x0001
#define RTLD_NOW 0x0002
#define RTLD_GLOBAL 0x0100
#define RTLD_LOCAL 0
#define RTLD_DEFAULT ((void *)0)
#define RTLD_NEXT ((void *)-1l)

void *dlopen(const char *file, int mode);
void *dlsym(void *handle, const char *name);
int dlclose(void *handle);
char *dlerror(void);

#ifdef __cplusplus
}
#endif

#endif
