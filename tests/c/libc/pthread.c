/* <pthread.h>: threads with results, mutexes (normal, recursive, error-checking,
 * trylock), condition variables (a bounded queue; a timed wait that times out), once,
 * keys with destructors, detached threads, thread-local variables and errno per thread. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define THREADS 4
#define ROUNDS 20000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static _Thread_local int mine = 7;

static void *count(void *arg) {
    long id = (long)arg;
    for (int i = 0; i < ROUNDS; i++) {
        pthread_mutex_lock(&lock);
        counter++;
        pthread_mutex_unlock(&lock);
    }
    mine += (int)id;
    errno = 100 + (int)id;
    return (void *)(id * 10 + (mine - 7) + (errno - 100 == id));
}

#define SLOTS 8
static int queue[SLOTS], head, tail, used;
static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER, not_full = PTHREAD_COND_INITIALIZER;

static void *produce(void *arg) {
    (void)arg;
    for (int i = 1; i <= 1000; i++) {
        pthread_mutex_lock(&qlock);
        while (used == SLOTS)
            pthread_cond_wait(&not_full, &qlock);
        queue[tail] = i;
        tail = (tail + 1) % SLOTS;
        used++;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&qlock);
    }
    return NULL;
}

static void *consume(void *arg) {
    long sum = 0;
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&qlock);
        while (used == 0)
            pthread_cond_wait(&not_empty, &qlock);
        sum += queue[head];
        head = (head + 1) % SLOTS;
        used--;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&qlock);
    }
    return (void *)sum;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int once_runs;
static void init_once(void) { once_runs++; }

static pthread_key_t key;
static int destroyed;
static pthread_mutex_t dlock = PTHREAD_MUTEX_INITIALIZER;
static void destroy(void *v) {
    pthread_mutex_lock(&dlock);
    destroyed += *(int *)v;
    pthread_mutex_unlock(&dlock);
    free(v);
}

static void *with_key(void *arg) {
    pthread_once(&once, init_once);
    int *v = malloc(sizeof *v);
    *v = (int)(long)arg;
    pthread_setspecific(key, v);
    return (void *)(long)(*(int *)pthread_getspecific(key) == (int)(long)arg);
}

static volatile int detached_done;
static void *detached(void *arg) {
    (void)arg;
    __sync_fetch_and_add(&detached_done, 1);
    return NULL;
}

int main(void) {
    pthread_t t[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, count, (void *)i);
    long results = 0;
    for (int i = 0; i < THREADS; i++) {
        void *r;
        pthread_join(t[i], &r);
        results += (long)r;
    }
    printf("counter %ld (expected %d), results %ld, main's mine %d, errno %d\n", counter, THREADS * ROUNDS, results,
           mine, errno);

    pthread_t p, c;
    pthread_create(&c, NULL, consume, NULL);
    pthread_create(&p, NULL, produce, NULL);
    void *sum;
    pthread_join(p, NULL);
    pthread_join(c, &sum);
    printf("queue sum %ld\n", (long)sum);

    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_t rec;
    pthread_mutex_init(&rec, &attr);
    int a = pthread_mutex_lock(&rec), b = pthread_mutex_lock(&rec), d = pthread_mutex_trylock(&rec);
    printf("recursive: %d %d %d\n", a, b, d);
    a = pthread_mutex_unlock(&rec);
    b = pthread_mutex_unlock(&rec);
    d = pthread_mutex_unlock(&rec);
    printf("unlock: %d %d %d, again EPERM: %d\n", a, b, d, pthread_mutex_unlock(&rec) == EPERM);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_t chk;
    pthread_mutex_init(&chk, &attr);
    pthread_mutex_lock(&chk);
    printf("errorcheck relock EDEADLK: %d\n", pthread_mutex_lock(&chk) == EDEADLK);
    pthread_mutex_unlock(&chk);
    pthread_mutex_lock(&lock);
    printf("trylock held EBUSY: %d\n", pthread_mutex_trylock(&lock) == EBUSY);
    pthread_mutex_unlock(&lock);

    pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 20 * 1000 * 1000;
    if (until.tv_nsec >= 1000000000) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&lock);
    printf("timedwait ETIMEDOUT: %d\n", pthread_cond_timedwait(&cv, &lock, &until) == ETIMEDOUT);
    pthread_mutex_unlock(&lock);

    pthread_key_create(&key, destroy);
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, with_key, (void *)(i + 1));
    int ok = 0;
    for (int i = 0; i < THREADS; i++) {
        void *r;
        pthread_join(t[i], &r);
        ok += (int)(long)r;
    }
    printf("keys ok %d, destructors %d, once %d\n", ok, destroyed, once_runs);

    pthread_attr_t da;
    pthread_attr_init(&da);
    pthread_attr_setdetachstate(&da, PTHREAD_CREATE_DETACHED);
    for (int i = 0; i < 3; i++)
        pthread_create(&p, &da, detached, NULL);
    pthread_create(&c, NULL, detached, NULL);
    printf("detach: %d\n", pthread_detach(c));
    while (detached_done < 4)
        sched_yield();
    printf("detached threads ran: %d\n", detached_done);
    printf("self equal: %d\n", pthread_equal(pthread_self(), pthread_self()));
    return 0;
}
