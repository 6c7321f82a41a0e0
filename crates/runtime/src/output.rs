//! Coalescing of the guest's standard output.
//!
//! newlib as built for NaCl line-buffers `stdout` whatever it is connected to, so a guest
//! printing many short lines makes one system call per line, where the same program built
//! natively would fill a buffer. When the host's standard output is not a terminal, the
//! runtime collects the guest's writes to it and passes them on in large blocks instead.
//! The order of everything the guest can observe is kept: the buffer is written out
//! before any other I/O call, at exit, when the guest traps, and at the latest 50 ms after
//! the guest wrote (by a helper thread), so output never stalls for long.

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
    /// The host error that stopped output (a closed pipe, a full disk): the guest's
    /// next writes fail with it, as they would have without the buffer.
    error: AtomicI32,
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
        // SAFETY: writes a valid buffer.
        let n = unsafe { libc::write(1, bytes.as_ptr().cast(), bytes.len()) };
        if n < 0 {
            let e = std::io::Error::last_os_error().raw_os_error().unwrap_or(libc::EIO);
            if e == libc::EINTR {
                continue;
            }
            if e == libc::EPIPE {
                broken_pipe();
            }
            return Err(e);
        }
        bytes = &bytes[n as usize..];
    }
    Ok(())
}

impl Output {
    /// Collects `bytes`; fails if earlier output could not be written.
    pub fn write(&'static self, bytes: &[u8]) -> Result<(), Errno> {
        let mut b = self.buffer.lock().unwrap_or_else(|e| e.into_inner());
        self.check()?;
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
        self.flusher.get_or_init(|| {
            let _ = std::thread::Builder::new().name("pnacl-stdout".into()).spawn(move || {
                loop {
                    std::thread::sleep(DELAY);
                    self.flush();
                }
            });
        });
        Ok(())
    }

    fn check(&self) -> Result<(), Errno> {
        match self.error.load(Ordering::Relaxed) {
            0 => Ok(()),
            e => Err(Errno::from_host(e)),
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

/// [`sync`] from a signal handler.
pub(crate) fn sync_from_signal() {
    if let Some(Some(o)) = OUTPUT.get() {
        o.flush_from_signal();
    }
}
