//! Backtraces of guest code for trap messages: which translated functions were active when
//! a guest thread trapped, innermost first.
//!
//! Translated code keeps frame pointers (`preserve_frame_pointers`), and guest frames live
//! on the host stack of the thread running them: each frame holds the caller's frame
//! pointer at its frame pointer and the return address just above it (x86-64 and AArch64
//! alike). The walk starts at the trapping instruction and its frame pointer and follows
//! the chain while it can trust it: a frame pointer must be aligned, inside the thread's
//! host stack (above the stack pointer at the trap), and above the previous one; the walk
//! stops at the first return address that is not in a translated function (the entry
//! trampoline, or host code). It runs in the trap's signal handler: it reads only the
//! stack it has checked, allocates nothing, and writes with `write(2)`.
//!
//! A deep recursion (the trap a stack overflow) may have millions of frames: the walk
//! counts them all but keeps only the first [`HEAD`] and the last [`TAIL`], and the
//! message elides the rest with their count.

use pnacl_codegen::Translation;
use std::cell::Cell;

/// Frames shown from the innermost.
pub(crate) const HEAD: usize = 16;
/// Frames shown from the outermost.
pub(crate) const TAIL: usize = 8;

thread_local! {
    /// The calling guest thread's host stack: lowest address and end (0, 0 elsewhere).
    static STACK: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
}

/// Records the host stack of the calling thread (`low..high`), which guest code runs on.
pub(crate) fn set_stack(low: u64, high: u64) {
    STACK.with(|s| s.set((low, high)));
}

/// Where each translated function's code is, sorted by address: the function a return
/// address is in, found by binary search (a linear search per frame would make the walk of
/// a deep recursion quadratic).
pub(crate) struct CodeMap {
    /// `(start, end, function)`, by start.
    ranges: Vec<(u64, u64, u32)>,
}

impl CodeMap {
    /// The map of `t`'s functions.
    pub fn new(t: &Translation) -> CodeMap {
        let mut ranges: Vec<(u64, u64, u32)> = t
            .functions
            .iter()
            .enumerate()
            .filter_map(|(f, c)| c.map(|c| (c.start, c.start + c.len, f as u32)))
            .collect();
        ranges.sort_unstable();
        CodeMap { ranges }
    }

    /// The function whose code holds `pc`.
    pub fn function_at(&self, pc: u64) -> Option<u32> {
        let i = self.ranges.partition_point(|r| r.0 <= pc).checked_sub(1)?;
        let (start, end, f) = self.ranges[i];
        (pc >= start && pc < end).then_some(f)
    }
}

/// The functions of a walk: the first [`HEAD`], the last [`TAIL`] (a ring), and how many
/// there were in all.
pub(crate) struct Frames {
    head: [u32; HEAD],
    tail: [u32; TAIL],
    count: usize,
}

impl Frames {
    fn new() -> Frames {
        Frames { head: [0; HEAD], tail: [0; TAIL], count: 0 }
    }

    fn push(&mut self, f: u32) {
        if self.count < HEAD {
            self.head[self.count] = f;
        }
        self.tail[self.count % TAIL] = f;
        self.count += 1;
    }

    /// Number of frames found.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Calls `each` with each line of the backtrace: the frames shown, and one
    /// [`Line::Elided`] where frames are left out.
    pub fn for_each(&self, mut each: impl FnMut(Line)) {
        if self.count <= HEAD + TAIL {
            for i in 0..self.count {
                each(Line::Frame(i, if i < HEAD { self.head[i] } else { self.tail[i % TAIL] }));
            }
            return;
        }
        for (i, &f) in self.head.iter().enumerate() {
            each(Line::Frame(i, f));
        }
        each(Line::Elided(self.count - HEAD - TAIL));
        for i in self.count - TAIL..self.count {
            each(Line::Frame(i, self.tail[i % TAIL]));
        }
    }
}

/// A line of a backtrace.
pub(crate) enum Line {
    /// Frame number N (0 the innermost) is in this function.
    Frame(usize, u32),
    /// This many frames are left out.
    Elided(usize),
}

/// Walks the guest frames of the calling thread from a trap at `pc`, with frame pointer `fp`
/// and stack pointer `sp`.
pub(crate) fn walk(map: &CodeMap, pc: u64, fp: u64, sp: u64) -> Frames {
    let (low, high) = STACK.with(|s| s.get());
    walk_stack(map, pc, fp, low.max(sp), high, |at| {
        // SAFETY: `walk_stack` reads only aligned words inside `low.max(sp)..high`, the
        // calling thread's mapped host stack.
        unsafe { std::ptr::read_volatile(at as *const u64) }
    })
}

/// The walk over a stack `low..high` read through `read` (which the caller guarantees for
/// every aligned word in that range).
fn walk_stack(map: &CodeMap, pc: u64, mut fp: u64, low: u64, high: u64, read: impl Fn(u64) -> u64) -> Frames {
    let mut frames = Frames::new();
    let Some(f) = map.function_at(pc) else { return frames };
    frames.push(f);
    loop {
        if !fp.is_multiple_of(8) || fp < low || high < 16 || fp > high - 16 {
            break;
        }
        let caller_fp = read(fp);
        let ret = read(fp + 8);
        // A return address is just after its call: the call itself is in the caller.
        let Some(caller) = ret.checked_sub(1).and_then(|at| map.function_at(at)) else { break };
        frames.push(caller);
        if caller_fp <= fp {
            break;
        }
        fp = caller_fp;
    }
    frames
}

/// Writes `n` in decimal through `out`, without allocating.
pub(crate) fn write_decimal(out: &mut impl FnMut(&[u8]), n: usize) {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    let mut n = n;
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out(&buf[at..]);
}

/// Writes a function name from the pexe through `out`: printable ASCII as it is, any other
/// byte as `\xNN`, so that a name cannot move the terminal's cursor or forge lines.
pub(crate) fn write_name(out: &mut impl FnMut(&[u8]), name: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for &b in name.as_bytes() {
        if (0x20..0x7f).contains(&b) && b != b'\\' {
            out(&[b]);
        } else {
            out(&[b'\\', b'x', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
        }
    }
}

/// Writes the backtrace lines: `pnacl: backtrace:`, then `  #N name` per frame shown and
/// `  ... N frames elided` in their place.
pub(crate) fn write(out: &mut impl FnMut(&[u8]), frames: &Frames, names: &[String]) {
    if frames.len() == 0 {
        return;
    }
    out(b"pnacl: backtrace (innermost first):\n");
    frames.for_each(|line| match line {
        Line::Frame(i, f) => {
            out(b"  #");
            write_decimal(out, i);
            out(b" ");
            match names.get(f as usize) {
                Some(n) => write_name(out, n),
                None => {
                    out(b"@f");
                    write_decimal(out, f as usize);
                }
            }
            out(b"\n");
        }
        Line::Elided(n) => {
            out(b"  ... ");
            write_decimal(out, n);
            out(b" frames elided\n");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A map of functions 0..n, each 0x100 bytes from 0x1000.
    fn map(n: u32) -> CodeMap {
        CodeMap { ranges: (0..n).map(|f| (0x1000 + u64::from(f) * 0x100, 0x1100 + u64::from(f) * 0x100, f)).collect() }
    }

    fn render(frames: &Frames, names: &[String]) -> String {
        let mut s = Vec::new();
        write(&mut |b: &[u8]| s.extend_from_slice(b), frames, names);
        String::from_utf8(s).unwrap()
    }

    /// A stack of `chain` frames: each (frame pointer, caller's frame pointer, return address).
    fn memory(chain: &[(u64, u64, u64)]) -> HashMap<u64, u64> {
        let mut m = HashMap::new();
        for &(fp, caller, ret) in chain {
            m.insert(fp, caller);
            m.insert(fp + 8, ret);
        }
        m
    }

    #[test]
    fn code_map_finds_functions() {
        let m = map(3);
        assert_eq!(m.function_at(0x1000), Some(0));
        assert_eq!(m.function_at(0x10ff), Some(0));
        assert_eq!(m.function_at(0x1100), Some(1));
        assert_eq!(m.function_at(0x12ff), Some(2));
        assert_eq!(m.function_at(0x1300), None);
        assert_eq!(m.function_at(0xfff), None);
        assert_eq!(map(0).function_at(0x1000), None);
    }

    #[test]
    fn walks_the_chain_until_code_that_is_not_translated() {
        // Trap in function 2; its caller 1, called by 0, called from outside (0x9999).
        let stack = memory(&[(0x8000, 0x8040, 0x1180), (0x8040, 0x8080, 0x1010), (0x8080, 0x80c0, 0x9999)]);
        let frames = walk_stack(&map(3), 0x1234, 0x8000, 0x7000, 0x9000, |a| stack[&a]);
        let names: Vec<String> = ["zero", "one", "two"].map(String::from).to_vec();
        assert_eq!(render(&frames, &names), "pnacl: backtrace (innermost first):\n  #0 two\n  #1 one\n  #2 zero\n");
    }

    #[test]
    fn stops_at_frame_pointers_it_cannot_trust() {
        let names: Vec<String> = Vec::new();
        // Outside the stack, misaligned, not above the previous one: only the trapping
        // function and the caller whose return address was read from a trusted frame.
        for bad_next in [0x6000, 0x9000, 0x8043, 0x8000, 0x7ff8] {
            let stack = memory(&[(0x8000, bad_next, 0x1010)]);
            let frames = walk_stack(&map(3), 0x1234, 0x8000, 0x7000, 0x9000, |a| stack[&a]);
            assert_eq!(render(&frames, &names), "pnacl: backtrace (innermost first):\n  #0 @f2\n  #1 @f0\n");
        }
        // A first frame pointer outside the stack is not read at all.
        let frames = walk_stack(&map(3), 0x1234, 0x10, 0x7000, 0x9000, |_| panic!("read outside the stack"));
        assert_eq!(frames.len(), 1);
        // A trap outside translated code has no frames.
        let frames = walk_stack(&map(3), 0x5000, 0x8000, 0x7000, 0x9000, |_| panic!("read"));
        assert_eq!(render(&frames, &names), "");
    }

    #[test]
    fn a_deep_recursion_shows_both_ends() {
        // Function 1 recursing 100 times below function 0.
        let depth = 100u64;
        let mut chain: Vec<(u64, u64, u64)> =
            (0..depth).map(|k| (0x10000 + k * 32, 0x10000 + (k + 1) * 32, 0x1110)).collect();
        chain.push((0x10000 + depth * 32, 0x10000 + (depth + 1) * 32, 0x1010));
        chain.push((0x10000 + (depth + 1) * 32, 0, 0x9999));
        let stack = memory(&chain);
        let frames = walk_stack(&map(2), 0x1120, 0x10000, 0x10000, 0x20000, |a| stack[&a]);
        assert_eq!(frames.len(), 1 + depth as usize + 1);
        let names: Vec<String> = ["main", "recurse"].map(String::from).to_vec();
        let text = render(&frames, &names);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + HEAD + 1 + TAIL);
        assert_eq!(lines[1], "  #0 recurse");
        assert_eq!(lines[HEAD + 1], format!("  ... {} frames elided", frames.len() - HEAD - TAIL));
        assert_eq!(lines.last().copied(), Some(format!("  #{} main", depth + 1).as_str()));
        assert_eq!(lines[lines.len() - 2], format!("  #{} recurse", depth));
    }

    #[test]
    fn names_are_escaped() {
        let mut s = Vec::new();
        write_name(&mut |b: &[u8]| s.extend_from_slice(b), "a\u{1b}[2J\nb\\c");
        assert_eq!(String::from_utf8(s).unwrap(), "a\\x1b[2J\\x0ab\\x5cc");
    }
}
