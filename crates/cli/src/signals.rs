//! How `pnacl` ends on signals: quietly by `SIGPIPE` when its output pipe is closed, and
//! without leaving temporary files behind on Ctrl-C (`SIGINT`), `SIGTERM` or `SIGHUP`
//! (a server finishes its requests first: [`stop_flag`]).

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, Ordering};

/// The signals that remove the temporary files before ending the process.
const TERMINATING: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// Temporary files to remove if a terminating signal arrives: NUL-terminated paths, or null.
/// A path is never freed (the signal handler may be reading it on another thread), which
/// costs a few bytes per output file.
static TEMPORARIES: [AtomicPtr<libc::c_char>; 64] = [const { AtomicPtr::new(std::ptr::null_mut()) }; 64];

/// Set while a long-running subcommand (`serve`) ends by itself on a terminating signal.
static GRACEFUL: AtomicBool = AtomicBool::new(false);
/// The terminating signal that arrived in graceful mode (0: none yet).
static STOPPED_BY: AtomicI32 = AtomicI32::new(0);
/// Set with [`STOPPED_BY`], for loops that poll a flag.
static STOP: AtomicBool = AtomicBool::new(false);

/// From now on, a first Ctrl-C (`SIGINT`), `SIGTERM` or `SIGHUP` does not end the process
/// at once: it removes the temporary files as always, then sets the flag returned, which
/// the caller polls to finish what it is doing and call [`end_by_signal`]. A second such
/// signal ends the process at once.
pub fn stop_flag() -> &'static AtomicBool {
    GRACEFUL.store(true, Ordering::SeqCst);
    HANDLERS.call_once(install_handlers);
    &STOP
}

/// Ends the process by the signal that set [`stop_flag`]'s flag (so that the shell sees
/// 130 for Ctrl-C, as for any program it ends); returns if none did.
pub fn end_by_signal() {
    let sig = STOPPED_BY.load(Ordering::SeqCst);
    if sig != 0 {
        // SAFETY: the handler was reset to the default action when the signal arrived
        // (SA_RESETHAND), so raising it ends the process.
        unsafe {
            libc::raise(sig);
        }
    }
}

/// Restores the default action of `SIGPIPE`, which Rust programs otherwise ignore: a write
/// to a pipe nobody reads (`pnacl dis big.pexe | head`) then ends the process at once,
/// without a message, as it ends any Unix filter (status 141 in the shell).
pub fn default_sigpipe() {
    // SAFETY: sets a signal's disposition to its default; no handler is involved.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// A temporary file registered for removal on a terminating signal; unregistered when
/// dropped (after the file was renamed into place or removed).
pub struct Registration(usize);

impl Drop for Registration {
    fn drop(&mut self) {
        TEMPORARIES[self.0].store(std::ptr::null_mut(), Ordering::SeqCst);
    }
}

/// Registers `path` (not created yet) for removal if a terminating signal arrives before
/// the registration is dropped. `None` if every slot is taken: the file is then only
/// removed on ordinary failures.
pub fn remove_on_signal(path: &Path) -> Option<Registration> {
    HANDLERS.call_once(install_handlers);
    let c = CString::new(path.as_os_str().as_bytes()).ok()?.into_raw();
    for (i, slot) in TEMPORARIES.iter().enumerate() {
        if slot.compare_exchange(std::ptr::null_mut(), c, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
            return Some(Registration(i));
        }
    }
    // SAFETY: `c` came from `into_raw` above and was never shared.
    drop(unsafe { CString::from_raw(c) });
    None
}

/// The handlers are installed once, by the first of [`remove_on_signal`] and [`stop_flag`].
static HANDLERS: Once = Once::new();

fn install_handlers() {
    for sig in TERMINATING {
        // SAFETY: installs an async-signal-safe handler (it only calls unlink and raise).
        // SA_RESETHAND restores the default action on entry and SA_NODEFER lets the raise
        // in the handler take effect at once, so the process ends by the signal itself.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_terminating_signal as *const () as libc::sighandler_t;
            action.sa_flags = libc::SA_RESETHAND | libc::SA_NODEFER;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
    }
}

extern "C" fn on_terminating_signal(sig: libc::c_int) {
    for slot in &TEMPORARIES {
        let p = slot.load(Ordering::SeqCst);
        if !p.is_null() {
            // SAFETY: registered paths are valid NUL-terminated strings, never freed.
            unsafe {
                libc::unlink(p);
            }
        }
    }
    if GRACEFUL.load(Ordering::SeqCst) {
        STOPPED_BY.store(sig, Ordering::SeqCst);
        STOP.store(true, Ordering::SeqCst);
        return;
    }
    // SAFETY: the action is the default again (SA_RESETHAND): this ends the process.
    unsafe {
        libc::raise(sig);
    }
}
