//! The sandbox that runs translated pexes.
//!
//! An [`Image`] is a module translated with [`pnacl_codegen`] (by [`Image::compile`], or
//! read back from a `.pnaclo` file). [`run`] loads one, lays out guest memory (the null
//! page, the globals, the `mmap` heap, the main thread's stack with the startup block on
//! top), fills the function table (the module's functions, then the IRT's), installs the
//! trap handler and calls `_start` on a host thread of its own. The guest then lives on its
//! own: it reaches the outside world only through the IRT query function it finds in its
//! auxiliary vector, and the process ends when it calls `exit`, when `_start` returns, or
//! when it traps.
//!
//! Exit statuses: the guest's own status, [`EXIT_TRAP`] for a trap, [`EXIT_LOAD_ERROR`]
//! when the module cannot be loaded, and [`EXIT_UNSUPPORTED`] for a browser (PPAPI) pexe.

mod backtrace;
mod errno;
mod fs;
mod host;
mod image;
mod instance;
mod irt;
mod jmpbuf;
mod memory;
mod options;
mod output;
mod printable;
mod process;
mod signals;
mod sjlj;
mod startup;
mod status;
mod thread;

pub use errno::Errno;
pub use fs::{Preopen, open_beneath};
pub use image::Image;
pub use image::encoding::{BUILD_ID, FORMAT, Header, ImageError, MAGIC, VERSION};
pub use irt::interfaces::is_browser_program;
pub use memory::GuestMemory;
pub use options::Options;
pub use printable::printable;
pub use status::{EXIT_LOAD_ERROR, EXIT_TRAP, EXIT_UNSUPPORTED, LoadError};

/// Runs `image`: returns only if it cannot be started. Otherwise the process ends with
/// the guest's exit status, or [`EXIT_TRAP`] / [`EXIT_UNSUPPORTED`] with a message. A
/// browser program is refused first, before anything is set up.
pub fn run(image: &Image, options: Options) -> LoadError {
    match process::start(image, options) {
        Ok(never) => match never {},
        Err(e) => e,
    }
}
