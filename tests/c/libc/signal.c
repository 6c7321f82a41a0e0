/* <signal.h>: handlers set with signal and sigaction run on raise; an ignored signal does
 * nothing; SIG_DFL is restored; the last raise ends the program as SIGTERM ends a native
 * one (the test compares the way both end). */
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t seen[NSIG];

static void handler(int sig) { seen[sig]++; }

int main(void) {
    int r;
    printf("handler set: %d\n", signal(SIGUSR1, handler) == SIG_DFL);
    r = raise(SIGUSR1);
    printf("raise(SIGUSR1) = %d, seen %d\n", r, (int)seen[SIGUSR1]);
    r = raise(SIGUSR1);
    printf("raise again = %d, seen %d\n", r, (int)seen[SIGUSR1]);
    printf("ignore SIGINT: %d\n", signal(SIGINT, SIG_IGN) == SIG_DFL);
    printf("raise(SIGINT) = %d\n", raise(SIGINT));
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    printf("sigaction = %d\n", sigaction(SIGUSR2, &sa, &old));
    printf("old handler default: %d\n", old.sa_handler == SIG_DFL);
    r = raise(SIGUSR2);
    printf("raise(SIGUSR2) = %d, seen %d\n", r, (int)seen[SIGUSR2]);
    r = raise(SIGUSR2);
    printf("raise(SIGUSR2) again = %d, seen %d\n", r, (int)seen[SIGUSR2]);
    sigaction(SIGUSR2, NULL, &old);
    printf("still installed: %d\n", old.sa_handler == handler);
    printf("back to SIG_DFL: %d\n", signal(SIGUSR2, SIG_DFL) == handler);
    printf("signal(0) fails: %d\n", signal(0, handler) == SIG_ERR);
    sigset_t set, was;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    printf("sigprocmask: %d\n", sigprocmask(SIG_BLOCK, &set, &was));
    sigprocmask(SIG_SETMASK, NULL, &was);
    printf("blocked SIGUSR1: %d SIGUSR2: %d\n", sigismember(&was, SIGUSR1), sigismember(&was, SIGUSR2));
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    printf("SIGTERM next\n");
    fflush(stdout);
    raise(SIGTERM);
    printf("not reached\n");
    return 0;
}
