// `nacl-irt-fdio-0.1` and `nacl-irt-dev-fdio-0.1/0.2/0.3`: file descriptor I/O.

import { ERRNO, Errno, irtCall } from '../errno.mjs';
import { APPEND, DIRECTORY, STREAM } from '../files.mjs';
import { Gather } from '../gather.mjs';
import { sleep } from '../guest.mjs';

/** NaCl `st_mode` file types are Linux's; Node reports the host's raw mode. */
const S_IFMT = 0o170000;

/**
 * Writes a host `fs.Stats` (with bigint fields) as a guest `struct stat` (104 bytes).
 * @param {import('../guest.mjs').GuestMemory} mem @param {number} addr @param {any} st
 */
export function putStat(mem, addr, st) {
  mem.check(addr, 104);
  const d = mem.dv;
  const i64 = (/** @type {number} */ o, /** @type {bigint} */ v) => d.setBigInt64(addr + o, BigInt.asIntN(64, v), true);
  i64(0, st.dev);
  i64(8, st.ino);
  d.setUint32(addr + 16, Number(st.mode) & (S_IFMT | 0o7777), true);
  d.setUint32(addr + 20, Number(st.nlink), true);
  d.setUint32(addr + 24, Number(st.uid), true);
  d.setUint32(addr + 28, Number(st.gid), true);
  i64(32, st.rdev);
  i64(40, st.size);
  d.setInt32(addr + 48, Number(st.blksize), true);
  d.setInt32(addr + 52, Number(st.blocks), true);
  const times = [st.atimeNs, st.mtimeNs, st.ctimeNs];
  times.forEach((t, k) => {
    i64(56 + 16 * k, t / 1000000000n);
    i64(64 + 16 * k, t % 1000000000n);
  });
}

/**
 * Retries a host call while it would block (a non-blocking standard stream).
 * @template T @param {() => T} f @returns {T}
 */
function blocking(f) {
  // A full pipe drains within microseconds when its reader is quick: wait from 10 us,
  // doubling up to 1 ms.
  for (let wait = 0.01; ; wait = Math.min(wait * 2, 1)) {
    try {
      return f();
    } catch (e) {
      if (/** @type {{code?: string}} */ (e).code !== 'EAGAIN') throw e;
      sleep(wait);
    }
  }
}

/** @param {import('../worker.mjs').Context} ctx */
export function functions(ctx) {
  const { mem, files, platform } = ctx;
  const fs = platform.fs;
  const positions = ctx.control.positions;
  const needFs = () => {
    if (!fs) throw new Errno(ERRNO.ENOSYS);
  };
  return {
    close: (/** @type {number} */ fd) => irtCall(() => files.close(fd)),
    dup: (/** @type {number} */ fd, /** @type {number} */ newfd) => irtCall(() => mem.setU32(newfd, files.dup(fd))),
    dup2: (/** @type {number} */ fd, /** @type {number} */ newfd) => irtCall(() => files.dup2(fd, newfd)),
    /** `int read(int fd, void *buf, size_t count, size_t *nread)`. */
    read(/** @type {number} */ fd, /** @type {number} */ buf, /** @type {number} */ count, /** @type {number} */ nread) {
      return irtCall(() => {
        const { d, host, flags } = files.get(fd);
        if (flags & DIRECTORY) throw new Errno(ERRNO.EISDIR);
        const view = mem.view(buf, count >>> 0);
        let n;
        if (!fs) n = platform.readStdin(host, view);
        else if (flags & STREAM) n = blocking(() => fs.readSync(host, view, 0, view.length, null));
        else {
          n = fs.readSync(host, view, 0, view.length, positions[d]);
          positions[d] += BigInt(n);
        }
        mem.setU32(nread, n);
      });
    },
    /** `int write(int fd, const void *buf, size_t count, size_t *nwrote)`. */
    write(/** @type {number} */ fd, /** @type {number} */ buf, /** @type {number} */ count, /** @type {number} */ nwrote) {
      return irtCall(() => {
        const { d, host, flags } = files.get(fd);
        const view = mem.view(buf, count >>> 0);
        ctx.beforeOutput();
        /** All of `view` to a stream, as far as the host takes it. */
        const toStream = () => {
          let n = 0;
          while (n < view.length) {
            try {
              n += blocking(() => fs.writeSync(host, view, n, view.length - n, null));
            } catch (e) {
              if (/** @type {{code?: string}} */ (e).code === 'EPIPE') ctx.brokenPipe();
              if (n > 0) break;
              throw e;
            }
          }
          return n;
        };
        if (fd === 1 && fs && flags & STREAM && !ctx.gather && !platform.isatty(host)) {
          const writeSome = (/** @type {Uint8Array} */ b, /** @type {number} */ at) =>
            blocking(() => fs.writeSync(host, b, at, b.length - at, null));
          ctx.gather = new Gather(fs, host, () => ctx.brokenPipe(), writeSome);
        }
        if (fd === 1 && ctx.gather && ctx.gather.host === host && flags & STREAM) {
          mem.setU32(nwrote, ctx.gather.write(view, toStream));
          return;
        }
        // Any other output comes after what standard output gathered.
        ctx.gather?.flush();
        let n;
        if (!fs) n = platform.writeStream(host, view);
        else if (flags & STREAM) n = toStream();
        else if (flags & APPEND) {
          n = fs.writeSync(host, view, 0, view.length, null);
          positions[d] = fs.fstatSync(host, { bigint: true }).size;
        } else {
          n = fs.writeSync(host, view, 0, view.length, positions[d]);
          positions[d] += BigInt(n);
        }
        mem.setU32(nwrote, n);
      });
    },
    /** `int seek(int fd, off_t offset, int whence, off_t *new_offset)`. */
    seek(/** @type {number} */ fd, /** @type {bigint} */ offset, /** @type {number} */ whence, /** @type {number} */ out) {
      return irtCall(() => {
        const { d, host, flags } = files.get(fd);
        if (flags & STREAM) throw new Errno(ERRNO.ESPIPE);
        needFs();
        let at;
        switch (whence) {
          case 0: at = offset; break;
          case 1: at = positions[d] + offset; break;
          case 2: at = fs.fstatSync(host, { bigint: true }).size + offset; break;
          default: throw new Errno(ERRNO.EINVAL);
        }
        if (at < 0n) throw new Errno(ERRNO.EINVAL);
        positions[d] = at;
        mem.setU64(out, at);
      });
    },
    /** `int fstat(int fd, struct stat *st)`. */
    fstat(/** @type {number} */ fd, /** @type {number} */ st) {
      return irtCall(() => {
        const { host } = files.get(fd);
        needFs();
        putStat(mem, st, fs.fstatSync(host, { bigint: true }));
      });
    },
    /** `int getdents(int fd, struct dirent *d, size_t count, size_t *nread)`. */
    getdents(/** @type {number} */ fd, /** @type {number} */ buf, /** @type {number} */ count, /** @type {number} */ nread) {
      return irtCall(() => {
        const { d, host, flags } = files.get(fd);
        if (!(flags & DIRECTORY)) throw new Errno(ERRNO.ENOTDIR);
        const path = fs.readlinkSync(`/proc/self/fd/${host}`);
        const names = ['.', '..', ...fs.readdirSync(path, { encoding: 'buffer' }).map((/** @type {Uint8Array} */ b) => b)];
        const enc = new TextEncoder();
        const out = [];
        let size = 0;
        let k = Number(positions[d]);
        for (; k < names.length; k++) {
          const name = typeof names[k] === 'string' ? enc.encode(names[k]) : names[k];
          const len = Math.ceil((18 + name.length + 1) / 8) * 8;
          if (size + len > count >>> 0) break;
          let ino = 0n;
          try {
            ino = fs.lstatSync(`${path}/${new TextDecoder().decode(name)}`, { bigint: true }).ino;
          } catch {
            // Gone meanwhile: listed without an inode number.
          }
          const e = new Uint8Array(len);
          const v = new DataView(e.buffer);
          v.setBigUint64(0, ino, true);
          v.setBigInt64(8, BigInt(k + 1), true);
          v.setUint16(16, len, true);
          e.set(name, 18);
          out.push(e);
          size += len;
        }
        if (out.length === 0 && k < names.length) throw new Errno(ERRNO.EINVAL);
        positions[d] = BigInt(k);
        const all = new Uint8Array(size);
        let at = 0;
        for (const e of out) {
          all.set(e, at);
          at += e.length;
        }
        mem.write(buf, all);
        mem.setU32(nread, size);
      });
    },
    /** `int fchdir(int fd)`. */
    fchdir(/** @type {number} */ fd) {
      return irtCall(() => {
        const { host, flags } = files.get(fd);
        if (!(flags & DIRECTORY)) throw new Errno(ERRNO.ENOTDIR);
        const guest = files.guestPath(fs.readlinkSync(`/proc/self/fd/${host}`));
        if (guest === null) throw new Errno(ERRNO.ENOENT);
        files.setCwd(guest);
      });
    },
    fchmod: (/** @type {number} */ fd, /** @type {number} */ mode) =>
      irtCall(() => { needFs(); fs.fchmodSync(files.get(fd).host, mode & 0o7777); }),
    fsync: (/** @type {number} */ fd) => irtCall(() => { needFs(); fs.fsyncSync(files.get(fd).host); }),
    fdatasync: (/** @type {number} */ fd) => irtCall(() => { needFs(); fs.fdatasyncSync(files.get(fd).host); }),
    ftruncate: (/** @type {number} */ fd, /** @type {bigint} */ length) =>
      irtCall(() => { needFs(); fs.ftruncateSync(files.get(fd).host, Number(length)); }),
    /** `int isatty(int fd, int *result)`. */
    isatty(/** @type {number} */ fd, /** @type {number} */ result) {
      return irtCall(() => mem.setU32(result, platform.isatty(files.get(fd).host) ? 1 : 0));
    },
  };
}
