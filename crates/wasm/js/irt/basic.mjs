// `nacl-irt-basic-0.1`, `nacl-irt-tls-0.1`, `nacl-irt-clock_get-0.1`, `nacl-irt-random-0.1`
// and `nacl-irt-dev-getpid-0.1`.

import { ERRNO, Errno, irtCall } from '../errno.mjs';
import { PAGE, sleep } from '../guest.mjs';

/** NaCl's `CLOCKS_PER_SEC`. */
const CLOCKS_PER_SEC = 1000000n;

/** @param {import('../worker.mjs').Context} ctx */
export function functions(ctx) {
  const { mem, platform } = ctx;
  /** @param {number} id */
  const clockNs = (id) => {
    switch (id) {
      case 0: return platform.realtimeNs();
      case 1: return platform.monotonicNs();
      case 2: case 3: return platform.cpuNs();
      default: throw new Errno(ERRNO.EINVAL);
    }
  };
  return {
    /** `void exit(int status)`: ends the whole process. @param {number} status */
    exit(status) {
      ctx.exit(status);
    },
    /** `int gettod(struct timeval *tv)`. @param {number} tv */
    gettod(tv) {
      return irtCall(() => {
        const ns = platform.realtimeNs();
        mem.putTime(tv, ns / 1000000000n, Number((ns % 1000000000n) / 1000n));
      });
    },
    /** `int clock(nacl_irt_clock_t *ticks)`: processor time. @param {number} ticks */
    clock(ticks) {
      return irtCall(() => mem.setU32(ticks, Number(BigInt.asUintN(32, platform.cpuNs() / (1000000000n / CLOCKS_PER_SEC)))));
    },
    /** `int nanosleep(const struct timespec *req, struct timespec *rem)`. @param {number} req */
    nanosleep(req) {
      return irtCall(() => sleep(Number(mem.timespec(req)) / 1e6));
    },
    sched_yield() {
      return 0;
    },
    /** `int sysconf(int name, int *value)`. @param {number} name @param {number} value */
    sysconf(name, value) {
      let v;
      switch (name) {
        case 1: v = platform.processors; break;
        case 2: v = PAGE; break;
        case 1 << 24: v = ctx.files.mounts.length > 0 ? 1 : 0; break;
        case (1 << 24) + 1: v = 0; break;
        case (1 << 24) + 2: v = 1; break;
        default: return ERRNO.EINVAL;
      }
      return irtCall(() => mem.setU32(value, v));
    },
    /** `int tls_init(void *thread_ptr)`. @param {number} tp */
    tls_init(tp) {
      ctx.exports().tp.value = tp;
      return 0;
    },
    /** `void *tls_get(void)`: what `llvm.nacl.read.tp` returns. */
    tls_get() {
      return ctx.exports().tp.value;
    },
    /** `int clock_getres(nacl_irt_clockid_t id, struct timespec *res)`. @param {number} id @param {number} res */
    clock_getres(id, res) {
      return irtCall(() => {
        clockNs(id);
        if (res !== 0) mem.putTime(res, 0n, platform.resolutionNs(id));
      });
    },
    /** `int clock_gettime(nacl_irt_clockid_t id, struct timespec *tp)`. @param {number} id @param {number} tp */
    clock_gettime(id, tp) {
      return irtCall(() => {
        const ns = clockNs(id);
        mem.putTime(tp, ns / 1000000000n, Number(ns % 1000000000n));
      });
    },
    /** `int get_random_bytes(void *buf, size_t count, size_t *nread)`. */
    get_random_bytes(/** @type {number} */ buf, /** @type {number} */ count, /** @type {number} */ nread) {
      return irtCall(() => {
        const n = Math.min(count >>> 0, 65536);
        mem.check(buf, n);
        const bytes = new Uint8Array(n);
        platform.random(bytes);
        mem.write(buf, bytes);
        mem.setU32(nread, n);
      });
    },
    /** `int getpid(int *pid)`. @param {number} pid */
    getpid(pid) {
      return irtCall(() => mem.setU32(pid, platform.pid));
    },
  };
}
