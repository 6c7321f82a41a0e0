/* process.c: the process calls newlib leaves to the system: _exit, _getpid, _kill (which
 * newlib's raise and abort end in), and fork, exec and wait, which NaCl has not. */
#include <errno.h>
#include <signal.h>
#include <sys/times.h>
#include <unistd.h>
#include "internal.h"

#define NACL_ENOSYS 38

void _exit(int status) {
  __pnacl_irt_basic.exit(status);
  __builtin_trap();
}

int _getpid(void) {
  static int pid;
  if (pid)
    return pid;
  const struct pnacl_irt_getpid *t = __pnacl_irt_getpid();
  if (!t)
    return __pnacl_fail(NACL_ENOSYS);
  int p;
  int err = t->getpid(&p);
  if (err)
    return __pnacl_fail(err);
  pid = p;
  return p;
}

/* newlib's signal numbers (its generic <sys/signal.h>) as Linux's, which pnacl's signal
 * interface takes; 0 for the signals whose default action is to be ignored (or to stop
 * the process, which a NaCl program cannot be). */
static int linux_signal(int sig) {
  switch (sig) {
  case SIGHUP: case SIGINT: case SIGQUIT: case SIGILL: case SIGTRAP: case SIGABRT:
  case SIGFPE: case SIGKILL: case SIGSEGV: case SIGPIPE: case SIGALRM: case SIGTERM:
  case SIGXCPU: case SIGXFSZ: case SIGVTALRM: case SIGPROF:
    return sig; /* the same numbers (1-6, 8, 9, 11, 13-15, 24-27) */
  case SIGEMT: return 4;   /* no Linux SIGEMT: the nearest, SIGILL */
  case SIGBUS: return 7;
  case SIGSYS: return 31;
  case SIGIO: return 29;
  case SIGLOST: return 30; /* Linux's SIGPWR, which took its place */
  case SIGUSR1: return 10;
  case SIGUSR2: return 12;
  default: return 0;       /* SIGURG, SIGSTOP, SIGTSTP, SIGCONT, SIGCHLD, SIGTTIN, SIGTTOU, SIGWINCH */
  }
}

/* Signals can only be sent to the program itself: the program ends as the signal would
 * end a native one (pnacl run's signal interface; without it, the IRT's exit with the
 * shell's status for it, 128 + the signal). Signals whose default action is to be
 * ignored, or to stop, are ignored. */
int _kill(int pid, int sig) {
  if (sig < 0 || sig >= NSIG) {
    errno = EINVAL;
    return -1;
  }
  int self = _getpid();
  if (pid > 0 && pid != self) {
    errno = ESRCH;
    return -1;
  }
  if (sig == 0)
    return 0;
  int host = linux_signal(sig);
  if (!host)
    return 0;
  const struct pnacl_irt_signal *t = __pnacl_irt_signal();
  if (t)
    t->kill_self(host);
  _exit(128 + host);
}

int _fork(void) { return __pnacl_fail(NACL_ENOSYS); }
int _wait(int *status) {
  (void)status;
  return __pnacl_fail(NACL_ENOSYS);
}
int _execve(const char *path, char *const argv[], char *const envp[]) {
  (void)path, (void)argv, (void)envp;
  return __pnacl_fail(NACL_ENOSYS);
}
