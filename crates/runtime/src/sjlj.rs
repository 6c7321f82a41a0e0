//! The setjmp records of a guest thread, behind `llvm.nacl.setjmp` and `llvm.nacl.longjmp`
//! with C semantics (the host helpers translated code calls are in [`crate::host`]).
//!
//! The guest's `jmp_buf` holds only an id. The state to jump back to is a host `jmp_buf`
//! the runtime owns, filled by the C library's `_setjmp` called straight from the guest
//! function's frame (see the translator's "setjmp mode"), together with the guest stack
//! pointer at the time. Each call of a function that uses setjmp is a *frame* with a token;
//! a record lives as long as its frame, so the same buffer can be jumped to again and
//! again while the function is active, and never after it has returned. Guest bytes are
//! only ever used as a key to look a record up.

use crate::jmpbuf::JmpBuf;

/// A setjmp target.
struct Record {
    /// The id stored in the guest's `jmp_buf`.
    id: u32,
    /// The frame that called setjmp.
    token: u64,
    /// The guest `jmp_buf` address.
    guest_buf: u32,
    /// The guest stack pointer at setjmp (restored by longjmp: later allocas are freed).
    sp: u32,
    /// The host jump state (boxed: its address is handed to `_setjmp`).
    buf: Box<JmpBuf>,
}

/// A thread's setjmp state.
#[derive(Default)]
pub(crate) struct Sjlj {
    next_token: u64,
    next_id: u32,
    /// Tokens of the live frames of functions that call setjmp, innermost last.
    frames: Vec<u64>,
    records: Vec<Record>,
}

impl Sjlj {
    /// Forgets every frame deeper than `token` (a longjmp unwound them).
    fn unwind_to(&mut self, token: u64) {
        while self.frames.last().is_some_and(|&t| t > token) {
            self.frames.pop();
        }
        self.records.retain(|r| r.token <= token);
    }

    /// A function that calls setjmp starts: returns its frame token.
    pub fn enter_frame(&mut self) -> u64 {
        self.next_token += 1;
        self.frames.push(self.next_token);
        self.next_token
    }

    /// That function returns: its frame and its records end.
    pub fn leave_frame(&mut self, token: u64) {
        self.unwind_to(token.saturating_sub(1));
    }

    /// A setjmp of frame `token` on the guest buffer `guest_buf`, with guest stack pointer
    /// `sp`: returns the id to store in the guest buffer and the host buffer `_setjmp` is
    /// to fill.
    pub fn register(&mut self, guest_buf: u32, token: u64, sp: u32) -> (u32, *mut JmpBuf) {
        let i = match self.records.iter().position(|r| r.token == token && r.guest_buf == guest_buf) {
            Some(i) => i,
            None => {
                self.next_id = self.next_id.wrapping_add(1).max(1);
                self.records.push(Record { id: self.next_id, token, guest_buf, sp, buf: Box::new(JmpBuf::new()) });
                self.records.len() - 1
            }
        };
        let r = &mut self.records[i];
        r.sp = sp;
        (r.id, &mut *r.buf)
    }

    /// A longjmp to the setjmp whose id is `id`: unwinds the frames below its own and
    /// returns the guest stack pointer to restore and the host buffer to jump to, or
    /// `None` if no live setjmp of this thread has that id.
    pub fn target(&mut self, id: u32) -> Option<(u32, *mut JmpBuf)> {
        let token = self.records.iter().find(|r| r.id == id)?.token;
        self.unwind_to(token);
        let r = self.records.iter_mut().find(|r| r.id == id).expect("the target's frame is live");
        Some((r.sp, &mut *r.buf))
    }
}
