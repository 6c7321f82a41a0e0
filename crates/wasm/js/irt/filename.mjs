// `nacl-irt-filename-0.1` and `nacl-irt-dev-filename-0.2/0.3`: operations on paths,
// confined to the --dir directories (see ../files.mjs).

import { ERRNO, Errno, irtCall } from '../errno.mjs';
import { DIRECTORY, OWNED, STREAM, APPEND } from '../files.mjs';
import { putStat } from './fdio.mjs';

/** Longest guest path accepted. */
const PATH_MAX = 4096;

/** @param {import('../worker.mjs').Context} ctx */
export function functions(ctx) {
  const { mem, files, platform } = ctx;
  const fs = platform.fs;
  /** Resolves a guest path (the call's own check of the mount follows). @param {number} p */
  const resolve = (p) => {
    if (!fs) throw new Errno(ERRNO.ENOENT);
    return files.resolve(mem.cstr(p, PATH_MAX));
  };
  /** A path to act on, following a final link. @param {number} p */
  const followed = (p) => {
    const r = resolve(p);
    files.confine(r, true);
    return r;
  };
  /** A path whose last component is acted on itself. @param {number} p */
  const named = (p) => {
    const r = resolve(p);
    if (r.host === r.mount.host) throw new Errno(ERRNO.EBUSY);
    files.confine(r, false);
    return r;
  };
  /** NaCl open flags to host ones. @param {number} flags */
  const openFlags = (flags) => {
    const c = fs.constants;
    let host;
    switch (flags & 3) {
      case 0: host = c.O_RDONLY; break;
      case 1: host = c.O_WRONLY; break;
      case 2: host = c.O_RDWR; break;
      default: throw new Errno(ERRNO.EINVAL);
    }
    for (const [nacl, h] of [[0o100, c.O_CREAT], [0o200, c.O_EXCL], [0o1000, c.O_TRUNC], [0o2000, c.O_APPEND],
      [0o4000, c.O_NONBLOCK], [0o10000, c.O_SYNC], [0o200000, c.O_DIRECTORY]]) {
      if (flags & nacl) host |= h;
    }
    return host;
  };
  return {
    /** `int open(const char *path, int oflag, mode_t cmode, int *newfd)`. */
    open(/** @type {number} */ path, /** @type {number} */ oflag, /** @type {number} */ mode, /** @type {number} */ newfd) {
      return irtCall(() => {
        const r = followed(path);
        const host = fs.openSync(r.host, openFlags(oflag), mode & 0o7777);
        let flags = OWNED;
        try {
          const st = fs.fstatSync(host);
          if (st.isDirectory()) flags |= DIRECTORY;
          else if (!st.isFile()) flags |= STREAM;
          if (oflag & 0o2000) flags |= APPEND;
          mem.setU32(newfd, files.insert(host, flags));
        } catch (e) {
          fs.closeSync(host);
          throw e;
        }
      });
    },
    /** `int stat(const char *path, struct stat *st)`. */
    stat: (/** @type {number} */ path, /** @type {number} */ st) =>
      irtCall(() => putStat(mem, st, fs.statSync(followed(path).host, { bigint: true }))),
    /** `int lstat(const char *path, struct stat *st)`. */
    lstat: (/** @type {number} */ path, /** @type {number} */ st) =>
      irtCall(() => {
        const r = resolve(path);
        files.confine(r, false);
        putStat(mem, st, fs.lstatSync(r.host, { bigint: true }));
      }),
    mkdir: (/** @type {number} */ path, /** @type {number} */ mode) =>
      irtCall(() => fs.mkdirSync(named(path).host, { mode: mode & 0o7777 })),
    rmdir: (/** @type {number} */ path) => irtCall(() => fs.rmdirSync(named(path).host)),
    unlink: (/** @type {number} */ path) => irtCall(() => fs.unlinkSync(named(path).host)),
    /** `int chdir(const char *path)`. */
    chdir(/** @type {number} */ path) {
      return irtCall(() => {
        const r = followed(path);
        if (!fs.statSync(r.host).isDirectory()) throw new Errno(ERRNO.ENOTDIR);
        files.setCwd(r.guest);
      });
    },
    /** `int getcwd(char *buf, size_t len)`. */
    getcwd(/** @type {number} */ buf, /** @type {number} */ len) {
      return irtCall(() => {
        const cwd = new TextEncoder().encode(`${files.cwd()}\0`);
        if (cwd.length > len >>> 0) throw new Errno(ERRNO.ERANGE);
        mem.write(buf, cwd);
      });
    },
    truncate: (/** @type {number} */ path, /** @type {bigint} */ length) =>
      irtCall(() => fs.truncateSync(followed(path).host, Number(length))),
    link: (/** @type {number} */ a, /** @type {number} */ b) => irtCall(() => fs.linkSync(named(a).host, named(b).host)),
    rename: (/** @type {number} */ a, /** @type {number} */ b) =>
      irtCall(() => fs.renameSync(named(a).host, named(b).host)),
    /** `int symlink(const char *target, const char *path)`: the target is stored as given. */
    symlink: (/** @type {number} */ target, /** @type {number} */ path) =>
      irtCall(() => fs.symlinkSync(new TextDecoder().decode(mem.cstr(target, PATH_MAX)), named(path).host)),
    chmod: (/** @type {number} */ path, /** @type {number} */ mode) =>
      irtCall(() => fs.chmodSync(followed(path).host, mode & 0o7777)),
    /** `int access(const char *path, int amode)`. */
    access(/** @type {number} */ path, /** @type {number} */ mode) {
      return irtCall(() => {
        if (mode & ~7) throw new Errno(ERRNO.EINVAL);
        fs.accessSync(followed(path).host, mode);
      });
    },
    /** `int readlink(const char *path, char *buf, size_t count, size_t *nread)` (no NUL added). */
    readlink(/** @type {number} */ path, /** @type {number} */ buf, /** @type {number} */ count, /** @type {number} */ nread) {
      return irtCall(() => {
        const link = fs.readlinkSync(named(path).host, { encoding: 'buffer' });
        const n = Math.min(link.length, count >>> 0);
        mem.write(buf, link.subarray(0, n));
        mem.setU32(nread, n);
      });
    },
    /** `int utimes(const char *path, const struct timeval times[2])`; NULL means now. */
    utimes(/** @type {number} */ path, /** @type {number} */ times) {
      return irtCall(() => {
        let at = Date.now() / 1000, mt = at;
        if (times !== 0) {
          const t = [0, 16].map((o) => {
            const sec = Number(mem.i64(times + o));
            const usec = mem.dv.getInt32(times + o + 8, true);
            if (usec < 0 || usec >= 1000000) throw new Errno(ERRNO.EINVAL);
            return sec + usec / 1e6;
          });
          [at, mt] = t;
        }
        fs.utimesSync(followed(path).host, at, mt);
      });
    },
  };
}
