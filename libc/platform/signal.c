/* signal.c: sigaction and the signal mask, which newlib's generic signal code (signal,
 * raise: handlers kept in a table, run by raise) does not have. A NaCl program receives
 * no asynchronous signals, so sigaction only sets the handler raise runs, and the mask
 * is kept but changes nothing. */
#include <errno.h>
#include <signal.h>

static sigset_t mask;

int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  if (sig <= 0 || sig >= NSIG || sig == SIGKILL || sig == SIGSTOP) {
    errno = EINVAL;
    return -1;
  }
  _sig_func_ptr previous;
  if (act) {
    previous = signal(sig, act->sa_handler);
  } else {
    previous = signal(sig, SIG_IGN);
    signal(sig, previous);
  }
  if (previous == SIG_ERR)
    return -1;
  if (old) {
    old->sa_handler = previous;
    old->sa_mask = 0;
    old->sa_flags = 0;
  }
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
