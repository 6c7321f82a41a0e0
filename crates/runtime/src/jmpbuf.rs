//! The C library's jump buffers, `_setjmp` and `longjmp`: how host code leaves guest code
//! from any depth (thread exit) and how guest setjmp/longjmp are carried out.

/// A C library jump buffer (glibc's is 200 bytes on x86-64).
#[repr(C, align(16))]
pub(crate) struct JmpBuf(pub [u64; 32]);

impl JmpBuf {
    pub const fn new() -> Self {
        JmpBuf([0; 32])
    }
}

unsafe extern "C" {
    /// glibc's `_setjmp` (no signal mask).
    pub(crate) fn _setjmp(buf: *mut JmpBuf) -> libc::c_int;
    /// glibc's `longjmp`.
    pub(crate) fn longjmp(buf: *mut JmpBuf, val: libc::c_int) -> !;
}
