/* signal.c: signals, in place of newlib's libc/signal/signal.c. A NaCl program receives
 * no asynchronous signals: a handler runs when the program raises its signal, and a
 * signal left at its default action ends the program as it would end a native one
 * (process.c's _kill). Handlers stay installed when they run, as glibc's signal() and
 * every sigaction() without SA_RESETHAND keep them (newlib's signal() resets to SIG_DFL
 * first, as System V's did); the table is the process's, not each thread's. The signal
 * mask is kept but changes nothing. */
#include <errno.h>
#include <reent.h>
#include <signal.h>
#include <unistd.h>

static _sig_func_ptr handlers[NSIG];
static sigset_t mask;

int _init_signal_r(struct _reent *ptr) {
  (void)ptr;
  return 0;
}

int _init_signal(void) { return 0; }

_sig_func_ptr _signal_r(struct _reent *ptr, int sig, _sig_func_ptr func) {
  if (sig <= 0 || sig >= NSIG || sig == SIGKILL || sig == SIGSTOP) {
    ptr->_errno = EINVAL;
    return SIG_ERR;
  }
  _sig_func_ptr old = handlers[sig];
  handlers[sig] = func;
  return old;
}

_sig_func_ptr signal(int sig, _sig_func_ptr func) { return _signal_r(_REENT, sig, func); }

/* newlib's contract: 0 the handler ran, 1 the default action is due, 2 ignored, 3 error. */
int __sigtramp_r(struct _reent *ptr, int sig) {
  if (sig <= 0 || sig >= NSIG) {
    ptr->_errno = EINVAL;
    return 3;
  }
  _sig_func_ptr func = handlers[sig];
  if (func == SIG_DFL)
    return 1;
  if (func == SIG_IGN)
    return 2;
  func(sig);
  return 0;
}

int __sigtramp(int sig) { return __sigtramp_r(_REENT, sig); }

int _raise_r(struct _reent *ptr, int sig) {
  switch (__sigtramp_r(ptr, sig)) {
  case 0:
  case 2:
    return 0;
  case 1:
    return _kill_r(ptr, _getpid_r(ptr), sig);
  default:
    return -1;
  }
}

int raise(int sig) { return _raise_r(_REENT, sig); }

int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  if (sig <= 0 || sig >= NSIG || (act && (sig == SIGKILL || sig == SIGSTOP))) {
    errno = EINVAL;
    return -1;
  }
  if (old) {
    old->sa_handler = handlers[sig];
    old->sa_mask = 0;
    old->sa_flags = 0;
  }
  if (act)
    handlers[sig] = act->sa_handler;
  return 0;
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
  if (old)
    *old = mask;
  if (!set)
    return 0;
  switch (how) {
  case SIG_SETMASK: mask = *set; break;
  case SIG_BLOCK: mask |= *set; break;
  case SIG_UNBLOCK: mask &= ~*set; break;
  default: errno = EINVAL; return -1;
  }
  return 0;
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *old) {
  return sigprocmask(how, set, old) ? errno : 0;
}
