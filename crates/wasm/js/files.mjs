// What the guest can see of the host's files: its descriptors, and the directories given
// with --dir (Node only; in a browser the guest has its standard streams and no files).
//
// Guest paths are resolved lexically (`.` and `..` handled, clamped at `/`) against the
// guest's working directory, which starts at `/`, then matched against the mount points,
// longest first. A path under no mount point does not exist for the guest. A symbolic
// link may not lead out of its mount: the real path of what a call reaches (or of its
// parent directory, for calls on the name itself) must lie below the mount's real path.
// (Node has no openat2, so the check and the call are two steps: a link changed between
// them by another process on the host is not caught, unlike under `pnacl run`.)
//
// Descriptors and open file descriptions live in the control block, so every thread
// sees them. Regular files are read and written at positions the host keeps (Node has no
// lseek); pipes, terminals and the standard streams use the kernel's.

import { CTL, MAX_FDS } from './guest.mjs';
import { ERRNO, Errno } from './errno.mjs';

/** Description flags. */
export const STREAM = 1, APPEND = 2, OWNED = 4, DIRECTORY = 8;

/**
 * Normalises `path` against `cwd`: an absolute path without `.`, `..` or empty parts.
 * @param {string} cwd @param {string} path
 */
export function normalize(cwd, path) {
  const parts = [];
  for (const c of (path.startsWith('/') ? path : `${cwd}/${path}`).split('/')) {
    if (c === '' || c === '.') continue;
    if (c === '..') parts.pop();
    else parts.push(c);
  }
  return `/${parts.join('/')}`;
}

/** A host directory the guest sees at `guest`. */
export class Mount {
  /** @param {string} host  its real path @param {string} guest  normalised */
  constructor(host, guest) {
    this.host = host;
    this.guest = guest;
  }
}

/** The guest's files over Node's `fs`. */
export class Files {
  /**
   * @param {import('./guest.mjs').Control} control
   * @param {Mount[]} mounts
   * @param {any} fs  node:fs, or null in a browser
   * @param {(fd: number) => boolean} isatty
   */
  constructor(control, mounts, fs, isatty) {
    this.control = control;
    this.mounts = [...mounts].sort((a, b) => b.guest.length - a.guest.length);
    this.fs = fs;
    this.isatty = isatty;
  }

  /** Sets up descriptors 0, 1 and 2 and the working directory (once, by the main thread). */
  init() {
    const c = this.control;
    for (let fd = 0; fd < 3; fd++) {
      c.fds[fd] = fd + 1;
      c.descs.set([fd + 1, 1, STREAM, 0], fd * 4);
    }
    this.setCwd('/');
  }

  /** @template T @param {() => T} f @returns {T} */
  locked(f) {
    return this.control.locked(CTL.FILES_LOCK, f);
  }

  /**
   * The description of guest descriptor `fd`: its index, host descriptor and flags.
   * @param {number} fd
   */
  get(fd) {
    const d = fd >= 0 && fd < MAX_FDS ? this.control.fds[fd] - 1 : -1;
    if (d < 0) throw new Errno(ERRNO.EBADF);
    const c = this.control.descs;
    return { d, host: c[d * 4] - 1, flags: c[d * 4 + 2] };
  }

  /**
   * A new description of host descriptor `host`; returns its guest descriptor.
   * @param {number} host @param {number} flags
   */
  insert(host, flags) {
    return this.locked(() => {
      const c = this.control;
      const fd = c.fds.indexOf(0);
      let d = -1;
      for (let k = 0; k < MAX_FDS; k++) {
        if (c.descs[k * 4 + 1] === 0) {
          d = k;
          break;
        }
      }
      if (fd < 0 || d < 0) throw new Errno(ERRNO.EMFILE);
      c.descs.set([host + 1, 1, flags, 0], d * 4);
      c.positions[d] = 0n;
      c.fds[fd] = d + 1;
      return fd;
    });
  }

  /** Drops a reference to description `d` (closing the host descriptor at the last). */
  unref(d) {
    const c = this.control.descs;
    if (--c[d * 4 + 1] === 0 && c[d * 4 + 2] & OWNED && this.fs) {
      try {
        this.fs.closeSync(c[d * 4] - 1);
      } catch {
        // Already gone: nothing the guest can do about it.
      }
    }
  }

  /** @param {number} fd */
  close(fd) {
    this.locked(() => {
      const { d } = this.get(fd);
      this.control.fds[fd] = 0;
      this.unref(d);
    });
  }

  /** @param {number} fd @returns {number} */
  dup(fd) {
    return this.locked(() => {
      const { d } = this.get(fd);
      const n = this.control.fds.indexOf(0);
      if (n < 0) throw new Errno(ERRNO.EMFILE);
      this.control.fds[n] = d + 1;
      this.control.descs[d * 4 + 1]++;
      return n;
    });
  }

  /** @param {number} fd @param {number} n */
  dup2(fd, n) {
    this.locked(() => {
      const { d } = this.get(fd);
      if (n < 0 || n >= MAX_FDS) throw new Errno(ERRNO.EBADF);
      if (n === fd) return;
      const old = this.control.fds[n] - 1;
      this.control.fds[n] = d + 1;
      this.control.descs[d * 4 + 1]++;
      if (old >= 0) this.unref(old);
    });
  }

  /** The guest's working directory. */
  cwd() {
    const c = this.control;
    return new TextDecoder().decode(c.cwd.slice(0, c.words[CTL.CWD_LENGTH]));
  }

  /** @param {string} path  a normalised guest path */
  setCwd(path) {
    const bytes = new TextEncoder().encode(path);
    if (bytes.length > this.control.cwd.length) throw new Errno(ERRNO.ENAMETOOLONG);
    this.control.cwd.set(bytes);
    this.control.words[CTL.CWD_LENGTH] = bytes.length;
  }

  /**
   * Resolves a guest path to a host path below a mount.
   * @param {Uint8Array} bytes
   * @returns {{host: string, guest: string, mount: Mount}}
   */
  resolve(bytes) {
    if (bytes.length === 0) throw new Errno(ERRNO.ENOENT);
    let path;
    try {
      path = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new Errno(ERRNO.ENOENT);
    }
    const guest = normalize(this.cwd(), path);
    for (const m of this.mounts) {
      let rest = null;
      if (m.guest === '/') rest = guest.slice(1);
      else if (guest === m.guest) rest = '';
      else if (guest.startsWith(`${m.guest}/`)) rest = guest.slice(m.guest.length + 1);
      if (rest !== null) return { host: rest ? `${m.host}/${rest}` : m.host, guest, mount: m };
    }
    throw new Errno(ERRNO.ENOENT);
  }

  /**
   * Checks that a resolved path stays in its mount: its parent's real path, and its own
   * if `follow` and it exists.
   * @param {{host: string, mount: Mount}} r @param {boolean} follow
   */
  confine(r, follow) {
    const root = r.mount.host;
    const inside = (/** @type {string} */ p) => p === root || p.startsWith(`${root}/`);
    if (r.host === root) return;
    const parent = r.host.slice(0, r.host.lastIndexOf('/'));
    if (!inside(this.fs.realpathSync(parent))) throw new Errno(ERRNO.ENOENT);
    if (follow) {
      let real;
      try {
        real = this.fs.realpathSync(r.host);
      } catch (e) {
        if (/** @type {{code?: string}} */ (e).code === 'ENOENT') return;
        throw e;
      }
      if (!inside(real)) throw new Errno(ERRNO.ENOENT);
    }
  }

  /**
   * The guest path of a host directory, if a mount holds it.
   * @param {string} host
   */
  guestPath(host) {
    for (const m of this.mounts) {
      if (host === m.host) return m.guest;
      if (host.startsWith(`${m.host}/`)) return normalize('/', `${m.guest}/${host.slice(m.host.length + 1)}`);
    }
    return null;
  }
}
