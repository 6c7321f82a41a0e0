//! Coalescing of the guest's standard output.
//!
//! newlib as built for NaCl line-buffers `stdout` whatever it is connected to, so a guest
//! printing many short lines makes one system call per line, where the same program built
//! natively would fill a buffer. When the host's standard output is not a terminal, the
//! runtime collects the guest's writes to it and passes them on in large blocks instead.
//! The order of everything the guest can observe is kept: the buffer is written out
//! before any other I/O call, at exit, when the guest traps, and at the latest 50 ms after
//! the guest wrote (by a helper thread), so output never stalls for long.
//!
//! Write errors reach the guest as the host's errno (`ENOSPC`, `EIO`, `EFBIG`, ...; a
//! closed pipe ends the process by `SIGPIPE`, as it ends a native program):
//! - until one write to standard output has succeeded, every write is passed on at once,
//!   so a standard output that cannot be written at all (`> /dev/full`) fails the guest's
//!   very first write, with what the host said, exactly as without the buffer;
//! - after that, a write the buffer accepted may fail later, when the buffer is written
//!   out. As with a C `FILE`'s buffer, the error is then the answer to the guest's next
//!   write to standard output;
//! - if the guest ends before it could see such an error (it wrote nothing more), the
//!   runtime says so on standard error (`pnacl run: <stdout>: ...`) and a guest exit status
//!   of 0 becomes 1: output was lost, so the run did not succeed ([`finish`]).

use crate::errno::Errno;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// Collected bytes are passed on once there are this many.
const CAPACITY: usize = 64 << 10;
/// The longest collected bytes wait.
const DELAY: Duration = Duration::from_millis(50);

/// The collected output of the guest.
pub(crate) struct Output {
    buffer: Mutex<Vec<u8>>,
    pending: AtomicBool,
    /// The host error that stopped output (a full disk): the guest's next writes fail with
    /// it, as they would have without the buffer.
    error: AtomicI32,
    /// Set once a write of the guest failed with [`Output::error`]: it has seen it.
    error_seen: AtomicBool,
    /// Set once a write has succeeded: writes are collected from then on.
    writable: AtomicBool,
    flusher: OnceLock<()>,
}

static OUTPUT: OnceLock<Option<Output>> = OnceLock::new();

/// The buffer, if standard output is one worth buffering (not a terminal).
pub(crate) fn stdout() -> Option<&'static Output> {
    OUTPUT
        .get_or_init(|| {
            // SAFETY: a plain query on fd 1.
            let tty = unsafe { libc::isatty(1) } == 1;
            (!tty).then(|| Output {
                buffer: Mutex::new(Vec::with_capacity(CAPACITY)),
                pending: AtomicBool::new(false),
                error: AtomicI32::new(0),
                error_seen: AtomicBool::new(false),
                writable: AtomicBool::new(false),
                flusher: OnceLock::new(),
            })
        })
        .as_ref()
}

/// Ends the process the way a native program ends when it writes to a pipe nobody reads:
/// by `SIGPIPE` (which Rust programs otherwise ignore).
pub(crate) fn broken_pipe() -> ! {
    // SAFETY: restores the default action, then raises the signal, which ends the process.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::raise(libc::SIGPIPE);
        libc::_exit(128 + libc::SIGPIPE)
    }
}

/// Writes all of `bytes` to host fd 1, retrying interrupted and partial writes; returns
/// the host errno that stopped it.
fn write_all(mut bytes: &[u8]) -> Result<(), i32> {
    while !bytes.is_empty() {
        let n = write_once(bytes)?;
        bytes = &bytes[n..];
    }
    Ok(())
}

/// One `write` to host fd 1, retried if interrupted: how many bytes it took, or the host
/// errno.
fn write_once(bytes: &[u8]) -> Result<usize, i32> {
    loop {
        // SAFETY: writes a valid buffer.
        let n = unsafe { libc::write(1, bytes.as_ptr().cast(), bytes.len()) };
        if n >= 0 {
            return Ok(n as usize);
        }
        match std::io::Error::last_os_error().raw_os_error().unwrap_or(libc::EIO) {
            libc::EINTR => continue,
            libc::EPIPE => broken_pipe(),
            e => return Err(e),
        }
    }
}

impl Output {
    /// Collects `bytes`, or passes them on at once until a write has succeeded; returns how
    /// many bytes were taken. Fails if earlier output could not be written.
    pub fn write(&'static self, bytes: &[u8]) -> Result<usize, Errno> {
        let mut b = self.buffer.lock().unwrap_or_else(|e| e.into_inner());
        self.check()?;
        if !self.writable.load(Ordering::Relaxed) {
            // Nothing is collected yet: this write is the guest's own, with its own result.
            let n = write_once(bytes).map_err(Errno::from_host)?;
            if n > 0 {
                self.writable.store(true, Ordering::Relaxed);
            }
            return Ok(n);
        }
        if b.len() + bytes.len() > CAPACITY {
            self.drain(&mut b);
            self.check()?;
        }
        if bytes.len() >= CAPACITY {
            if let Err(e) = write_all(bytes) {
                self.error.store(e, Ordering::Relaxed);
                self.check()?;
            }
        } else {
            b.extend_from_slice(bytes);
            self.pending.store(true, Ordering::Release);
        }
        drop(b);
        self.start_flusher();
        Ok(bytes.len())
    }

    /// Starts the thread that writes out what waited [`DELAY`], once.
    fn start_flusher(&'static self) {
        self.flusher.get_or_init(|| {
            let _ = std::thread::Builder::new().name("pnacl-stdout".into()).spawn(move || {
                loop {
                    std::thread::sleep(DELAY);
                    self.flush();
                }
            });
        });
    }

    /// Fails with the error that stopped output, if any (the guest has then seen it).
    fn check(&self) -> Result<(), Errno> {
        match self.error.load(Ordering::Relaxed) {
            0 => Ok(()),
            e => {
                self.error_seen.store(true, Ordering::Relaxed);
                Err(Errno::from_host(e))
            }
        }
    }

    /// Writes out and empties the buffer (held locked by the caller).
    fn drain(&self, b: &mut Vec<u8>) {
        if let Err(e) = write_all(b) {
            self.error.store(e, Ordering::Relaxed);
        }
        b.clear();
        self.pending.store(false, Ordering::Release);
    }

    /// Passes on whatever is collected.
    pub fn flush(&self) {
        if self.pending.load(Ordering::Acquire) {
            let mut b = self.buffer.lock().unwrap_or_else(|e| e.into_inner());
            self.drain(&mut b);
        }
    }

    /// [`Output::flush`] from a signal handler: gives up if another thread holds the
    /// buffer for long (it cannot be this one: traps happen in guest code).
    pub fn flush_from_signal(&self) {
        if !self.pending.load(Ordering::Acquire) {
            return;
        }
        for _ in 0..1000 {
            if let Ok(b) = self.buffer.try_lock() {
                let _ = write_all(&b);
                return;
            }
            std::hint::spin_loop();
        }
    }
}

/// Passes on collected output (before any other I/O, and at exit).
pub(crate) fn sync() {
    if let Some(Some(o)) = OUTPUT.get() {
        o.flush();
    }
}

/// At exit, with the guest's exit `status`: passes on collected output, and if output was
/// lost without the guest ever being told (it wrote nothing after the failure), says so on
/// standard error; returns the status to exit with (1 instead of 0 then).
pub(crate) fn finish(status: i32) -> i32 {
    let Some(Some(o)) = OUTPUT.get() else { return status };
    o.flush();
    let error = o.error.load(Ordering::Relaxed);
    if error == 0 || o.error_seen.load(Ordering::Relaxed) {
        return status;
    }
    let message = format!(
        "pnacl run: <stdout>: the guest's last output could not be written: {}\n",
        std::io::Error::from_raw_os_error(error)
    );
    // SAFETY: writes a valid buffer to fd 2; there is nothing to do if it fails.
    unsafe { libc::write(2, message.as_ptr().cast(), message.len()) };
    if status == 0 { 1 } else { status }
}

/// [`sync`] from a signal handler.
pub(crate) fn sync_from_signal() {
    if let Some(Some(o)) = OUTPUT.get() {
        o.flush_from_signal();
    }
}
