// `nacl-irt-thread-0.1` and `nacl-irt-futex-0.1`. A guest thread is a Worker with its own
// instance of the module on the shared memory; futexes are `Atomics.wait` and
// `Atomics.notify` on the guest's word.

import { ERRNO, Errno, irtCall } from '../errno.mjs';
import { sleep } from '../guest.mjs';

/** @param {import('../worker.mjs').Context} ctx */
export function functions(ctx) {
  const { mem, platform } = ctx;
  /** The guest word at `addr` (4-aligned), as an index into the memory's Int32Array. */
  const word = (/** @type {number} */ addr) => {
    addr >>>= 0;
    if (addr % 4 !== 0) throw new Errno(ERRNO.EINVAL);
    mem.check(addr, 4);
    return addr >>> 2;
  };
  return {
    /** `int thread_create(void (*start)(void), void *stack, void *thread_ptr)`. */
    thread_create(/** @type {number} */ start, /** @type {number} */ stack, /** @type {number} */ tp) {
      if (!ctx.meta.shared) return ERRNO.EAGAIN;
      return irtCall(() => ctx.startThread(start >>> 0, stack >>> 0, tp >>> 0));
    },
    /** `void thread_exit(int32_t *stack_flag)`. */
    thread_exit(/** @type {number} */ flag) {
      ctx.threadExit(flag >>> 0);
    },
    /** `int thread_nice(const int nice)`: a hint, accepted and ignored. */
    thread_nice() {
      return 0;
    },
    /** `int futex_wait_abs(volatile int *addr, int value, const struct timespec *abstime)`. */
    futex_wait_abs(/** @type {number} */ addr, /** @type {number} */ value, /** @type {number} */ abstime) {
      return irtCall(() => {
        const k = word(addr);
        const deadline = abstime !== 0 ? mem.timespec(abstime) : null;
        const timeout = deadline === null ? Infinity : Math.max(0, Number(deadline - platform.realtimeNs()) / 1e6);
        if (!ctx.meta.shared) {
          // No other thread can wake it: only the deadline can end the wait.
          if (mem.i32[k] !== value) throw new Errno(ERRNO.EAGAIN);
          if (deadline === null) throw new Errno(ERRNO.EDEADLK);
          sleep(timeout);
          throw new Errno(ERRNO.ETIMEDOUT);
        }
        const r = Atomics.wait(mem.i32, k, value, timeout);
        if (r === 'not-equal') throw new Errno(ERRNO.EAGAIN);
        if (r === 'timed-out') throw new Errno(ERRNO.ETIMEDOUT);
      });
    },
    /** `int futex_wake(volatile int *addr, int nwake, int *count)`. */
    futex_wake(/** @type {number} */ addr, /** @type {number} */ nwake, /** @type {number} */ count) {
      return irtCall(() => {
        const k = word(addr);
        const n = ctx.meta.shared ? Atomics.notify(mem.i32, k, Math.max(0, nwake)) : 0;
        mem.setU32(count, n);
      });
    },
  };
}
