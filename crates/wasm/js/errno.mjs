// NaCl ABI errno values (they equal Linux's for every code the ABI defines), and the
// translation of host errors to them.

/** @type {Record<string, number>} */
export const ERRNO = {
  EPERM: 1, ENOENT: 2, ESRCH: 3, EINTR: 4, EIO: 5, ENXIO: 6, E2BIG: 7, ENOEXEC: 8, EBADF: 9,
  ECHILD: 10, EAGAIN: 11, ENOMEM: 12, EACCES: 13, EFAULT: 14, EBUSY: 16, EEXIST: 17, EXDEV: 18,
  ENODEV: 19, ENOTDIR: 20, EISDIR: 21, EINVAL: 22, ENFILE: 23, EMFILE: 24, ENOTTY: 25,
  EFBIG: 27, ENOSPC: 28, ESPIPE: 29, EROFS: 30, EMLINK: 31, EPIPE: 32, EDOM: 33, ERANGE: 34,
  EDEADLK: 35, ENAMETOOLONG: 36, ENOLCK: 37, ENOSYS: 38, ENOTEMPTY: 39, ELOOP: 40,
  EOVERFLOW: 75, EILSEQ: 84, ETIMEDOUT: 110, EDQUOT: 122, ECANCELED: 125,
};

/** An IRT failure: the function returns `errno`. */
export class Errno extends Error {
  /** @param {number} errno */
  constructor(errno) {
    super(`errno ${errno}`);
    this.errno = errno;
  }
}

/**
 * The NaCl errno of a host error (a Node system error, or an {@link Errno}).
 * @param {unknown} e
 * @returns {number}
 */
export function errnoOf(e) {
  if (e instanceof Errno) return e.errno;
  const code = /** @type {{code?: string}} */ (e)?.code;
  if (code === 'EOPNOTSUPP' || code === 'ENOTSUP') return ERRNO.ENOSYS;
  if (code === 'EWOULDBLOCK') return ERRNO.EAGAIN;
  if (typeof code === 'string' && code in ERRNO) return ERRNO[code];
  if (e instanceof RangeError || e instanceof TypeError) throw e;
  return ERRNO.EIO;
}

/**
 * Runs an IRT function body: 0 when it returns, the errno when it throws.
 * @param {() => void} body
 * @returns {number}
 */
export function irtCall(body) {
  try {
    body();
    return 0;
  } catch (e) {
    if (e instanceof Errno || /** @type {{code?: unknown}} */ (e)?.code !== undefined) return errnoOf(e);
    throw e;
  }
}
