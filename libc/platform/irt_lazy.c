/* irt_lazy.c: the interfaces queried on first use, as NaCl's newlib did: filenames
 * (dev-filename-0.3, else 0.2, else filename-0.1), dev-fdio-0.3 (isatty and the other
 * newer descriptor calls), clock_get, thread, futex, dev-getpid, and pnacl's signal
 * interface. A missing interface is asked for again on the next call. */
#include <string.h>
#include "internal.h"

/* One lazily queried table: its state (0 not yet, 1 present) is published after the
 * table is filled, so another thread never sees a half-filled table. */
#define LAZY(type, name, query)                                      \
  static type name##_table;                                          \
  static volatile int name##_state;                                  \
  const type *__pnacl_irt_##name(void) {                             \
    if (PNACL_LOAD(&name##_state))                                   \
      return &name##_table;                                          \
    if (!(query))                                                    \
      return 0;                                                      \
    PNACL_STORE(&name##_state, 1);                                   \
    return &name##_table;                                            \
  }

LAZY(struct pnacl_irt_clock, clock,
     __pnacl_irt_query_table(PNACL_IRT_CLOCK, &clock_table, sizeof clock_table))
LAZY(struct pnacl_irt_thread, thread,
     __pnacl_irt_query_table(PNACL_IRT_THREAD, &thread_table, sizeof thread_table))
LAZY(struct pnacl_irt_futex, futex,
     __pnacl_irt_query_table(PNACL_IRT_FUTEX, &futex_table, sizeof futex_table))
LAZY(struct pnacl_irt_getpid, getpid,
     __pnacl_irt_query_table(PNACL_IRT_GETPID, &getpid_table, sizeof getpid_table))
LAZY(struct pnacl_irt_signal, signal,
     __pnacl_irt_query_table(PNACL_IRT_SIGNAL, &signal_table, sizeof signal_table))

static struct pnacl_irt_filename filename_table;
static size_t filename_slots;
static volatile int filename_state;

const struct pnacl_irt_filename *__pnacl_irt_filename(size_t *slots) {
  if (!PNACL_LOAD(&filename_state)) {
    size_t n = 0;
    if (__pnacl_irt_query_table(PNACL_IRT_DEV_FILENAME_3, &filename_table, sizeof filename_table))
      n = sizeof filename_table / sizeof(void *);
    else if (__pnacl_irt_query_table(PNACL_IRT_DEV_FILENAME_2, &filename_table,
                                     PNACL_FILENAME_SLOTS_2 * sizeof(void *)))
      n = PNACL_FILENAME_SLOTS_2;
    else if (__pnacl_irt_query_table(PNACL_IRT_FILENAME_1, &filename_table,
                                     PNACL_FILENAME_SLOTS_1 * sizeof(void *)))
      n = PNACL_FILENAME_SLOTS_1;
    if (!n)
      return 0;
    filename_slots = n;
    PNACL_STORE(&filename_state, 1);
  }
  *slots = filename_slots;
  return &filename_table;
}

#define PNACL_IRT_DEV_FDIO_2 "nacl-irt-dev-fdio-0.2"
static struct pnacl_irt_dev_fdio_3 dev_fdio_table;
static size_t dev_fdio_slots;
static volatile int dev_fdio_state;

const struct pnacl_irt_dev_fdio_3 *__pnacl_irt_dev_fdio(size_t *slots) {
  if (!PNACL_LOAD(&dev_fdio_state)) {
    size_t n = 0;
    if (__pnacl_irt_query_table(PNACL_IRT_DEV_FDIO_3, &dev_fdio_table, sizeof dev_fdio_table))
      n = 14;
    else if (__pnacl_irt_query_table(PNACL_IRT_DEV_FDIO_2, &dev_fdio_table, 13 * sizeof(void *)))
      n = 13;
    if (!n)
      return 0;
    dev_fdio_slots = n;
    PNACL_STORE(&dev_fdio_state, 1);
  }
  *slots = dev_fdio_slots;
  return &dev_fdio_table;
}
