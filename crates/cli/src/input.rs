//! Reading inputs, the same for every subcommand: a file, or standard input for `-`.
//!
//! Memory follows the input, and only a plausible input is read whole:
//! - an input is read in bounded steps, and refused once it is larger than `--max-input`
//!   ([`DEFAULT_MAX_INPUT`] by default) or than its format allows (4 GiB of bitcode: a
//!   PNaCl program, its bitcode included, lived in a 32-bit sandbox); a regular file is
//!   refused by its size, before any of it is read;
//! - its first bytes are checked before the rest is read: what a subcommand expects
//!   ([`Expect`]) either starts with its magic bytes (bitcode, images) or is text, which
//!   holds no NUL byte and is UTF-8. As soon as the input is known to be something else,
//!   reading stops, and the subcommand gets what was read so far: its parser then
//!   reports the fault at its place (`Invalid PNaCl bitcode header` at 0:0, a NUL
//!   character at its line and column) exactly as it would in the whole file, so
//!   `pnacl dis /dev/zero` fails at once instead of reading forever.

use crate::report::Failure;
use std::io::Read;
use std::path::Path;
use std::sync::OnceLock;

/// The largest input read when `--max-input` is not given: far above any real pexe (the
/// largest in the corpus is 3.5 MB) or listing (about 60 times its pexe), far below what
/// would exhaust memory.
pub const DEFAULT_MAX_INPUT: u64 = 1 << 30;
/// The largest bitcode file: a PNaCl program, its bitcode included, lived in a 32-bit
/// sandbox.
const MAX_BITCODE: u64 = 1 << 32;
/// The first step of a read: enough for any header.
const FIRST_STEP: usize = 64 << 10;
/// The largest step.
const MAX_STEP: usize = 16 << 20;
/// How much of an input that is not what was expected is handed on: enough for its
/// parser to report the fault, a multiple of 4 bytes (bitcode's unit).
const KEPT_OF_A_MISMATCH: usize = 4096;
/// Files larger than this are read by all cores, a part each.
const PARALLEL_READ: u64 = 16 << 20;

static MAX_INPUT: OnceLock<u64> = OnceLock::new();

/// Sets the largest input (`--max-input`), once, from the global options.
pub fn init(max_input: Option<u64>) {
    let _ = MAX_INPUT.set(max_input.unwrap_or(DEFAULT_MAX_INPUT));
}

/// The largest input read (`--max-input`).
pub fn max_input() -> u64 {
    *MAX_INPUT.get_or_init(|| DEFAULT_MAX_INPUT)
}

/// Parses a size: `123`, `64K`, `512M`, `2G` (binary multiples).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let (digits, shift) = match s.as_bytes().last() {
        Some(b'k' | b'K') => (&s[..s.len() - 1], 10),
        Some(b'm' | b'M') => (&s[..s.len() - 1], 20),
        Some(b'g' | b'G') => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    let n: u64 = digits.parse().map_err(|_| format!("not a size: {s:?} (use bytes, or a number with K, M or G)"))?;
    n.checked_mul(1 << shift).ok_or_else(|| format!("size too large: {s}"))
}

/// A size for messages: `1 GiB`, `64 KiB`, `1000 bytes`.
fn describe_size(n: u64) -> String {
    for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if n >= 1 << shift && n.is_multiple_of(1 << shift) {
            return format!("{} {unit}", n >> shift);
        }
    }
    format!("{n} bytes")
}

/// What a subcommand reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// PNaCl bitcode (`PEXE`).
    Pexe,
    /// Any bitcode: a pexe, or LLVM bitcode (`BC` `0xC0DE`, or its wrapper).
    Bitcode,
    /// Text: PNaClAsm, a listing, textual records.
    Text,
    /// What `run` and `compile` take: a pexe, an image (`.pnaclo`) or PNaClAsm text.
    Program,
    /// An `ar` archive (`!<arch>`).
    Archive,
}

const PEXE_MAGIC: &[u8] = b"PEXE";
const LLVM_MAGIC: &[u8] = b"BC\xc0\xde";
const WRAPPER_MAGIC: &[u8] = &[0xde, 0xc0, 0x17, 0x0b];
const ARCHIVE_MAGIC: &[u8] = b"!<arch>\n";

/// What the bytes read so far say about the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Too few bytes to tell.
    Undecided,
    /// Bitcode or an image: the rest is read without looking.
    Binary,
    /// Text, valid up to this byte (a UTF-8 sequence may be cut by the end of a step).
    Text(usize),
    /// Not what was expected: hand on this many bytes and stop.
    Stop(usize),
}

impl Expect {
    /// The largest such input the format allows, if it has a limit.
    fn format_limit(self) -> Option<(u64, &'static str)> {
        match self {
            Expect::Pexe | Expect::Bitcode => Some((MAX_BITCODE, "a bitcode file")),
            Expect::Text | Expect::Program | Expect::Archive => None,
        }
    }

    /// The verdict on `bytes`, the input so far; `earlier` is the last one.
    fn judge(self, bytes: &[u8], earlier: Verdict, at_end: bool) -> Verdict {
        match earlier {
            Verdict::Binary | Verdict::Stop(_) => return earlier,
            Verdict::Text(valid) => return text_verdict(bytes, valid),
            Verdict::Undecided => {}
        }
        let magic = |m: &[u8]| bytes.starts_with(m);
        let bitcode = magic(PEXE_MAGIC) || magic(LLVM_MAGIC) || magic(WRAPPER_MAGIC);
        let undecided = bytes.len() < 4 && !at_end;
        match self {
            Expect::Pexe | Expect::Bitcode if undecided => Verdict::Undecided,
            Expect::Pexe if magic(PEXE_MAGIC) => Verdict::Binary,
            Expect::Bitcode if bitcode => Verdict::Binary,
            // A short file is handed on whole, for the reader to say what is wrong with it.
            Expect::Pexe | Expect::Bitcode if at_end => Verdict::Stop(bytes.len()),
            Expect::Pexe | Expect::Bitcode => Verdict::Stop(bytes.len().min(KEPT_OF_A_MISMATCH) & !3),
            Expect::Program if bytes.len() < pnacl_runtime::MAGIC.len() && !at_end => Verdict::Undecided,
            Expect::Program if magic(PEXE_MAGIC) || magic(pnacl_runtime::MAGIC) => Verdict::Binary,
            Expect::Text if bitcode => Verdict::Stop(bytes.len().min(KEPT_OF_A_MISMATCH)),
            Expect::Text | Expect::Program => text_verdict(bytes, 0),
            Expect::Archive if bytes.len() < ARCHIVE_MAGIC.len() && !at_end => Verdict::Undecided,
            Expect::Archive if magic(ARCHIVE_MAGIC) => Verdict::Binary,
            Expect::Archive => Verdict::Stop(bytes.len().min(KEPT_OF_A_MISMATCH)),
        }
    }
}

/// Text holds no NUL byte and is UTF-8: the verdict on `bytes`, valid up to `valid`. A
/// fault ends the input just after it.
fn text_verdict(bytes: &[u8], valid: usize) -> Verdict {
    let fresh = &bytes[valid..];
    if let Some(nul) = fresh.iter().position(|&b| b == 0) {
        return Verdict::Stop(valid + nul + 1);
    }
    match std::str::from_utf8(fresh) {
        Ok(_) => Verdict::Text(bytes.len()),
        Err(e) => match e.error_len() {
            // An invalid sequence.
            Some(n) => Verdict::Stop(valid + e.valid_up_to() + n),
            // A sequence cut short by the end of what was read so far.
            None => Verdict::Text(valid + e.valid_up_to()),
        },
    }
}

/// Why an input is refused for its size.
fn too_large(limit: u64, expect: Expect) -> std::io::Error {
    let message = match expect.format_limit() {
        Some((format, what)) if format <= limit => {
            format!("larger than {what} can be ({})", describe_size(format))
        }
        _ => format!("larger than {} (raise --max-input to read it)", describe_size(limit)),
    };
    std::io::Error::new(std::io::ErrorKind::FileTooLarge, message)
}

/// Reads `reader` in bounded steps, as the module's documentation says, into a buffer of
/// `size` bytes to begin with (a regular file's size, which is bounded).
fn read_in_steps(reader: &mut dyn Read, expect: Expect, limit: u64, size: usize) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(size);
    let mut verdict = Verdict::Undecided;
    let mut step = FIRST_STEP;
    loop {
        let before = bytes.len();
        // One byte past the limit tells an input of exactly the limit from a larger one.
        let room = limit.saturating_add(1).saturating_sub(before as u64).min(step as u64);
        // Reads until `room` bytes came or the input ended.
        let n = reader.take(room).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > limit {
            return Err(too_large(limit, expect));
        }
        let at_end = (n as u64) < room;
        verdict = expect.judge(&bytes, verdict, at_end);
        if let Verdict::Stop(keep) = verdict {
            bytes.truncate(keep);
            return Ok(bytes);
        }
        if at_end {
            return Ok(bytes);
        }
        step = (step * 2).min(MAX_STEP);
    }
}

/// The largest input of kind `expect` read.
fn limit(expect: Expect) -> u64 {
    match expect.format_limit() {
        Some((format, _)) => format.min(max_input()),
        None => max_input(),
    }
}

/// Reads an input file, or standard input for `-`, as the module's documentation says.
pub fn read_input(path: &Path, expect: Expect) -> std::io::Result<Vec<u8>> {
    let limit = limit(expect);
    if crate::output::is_stdio(path) {
        return read_in_steps(&mut std::io::stdin().lock(), expect, limit, 0);
    }
    let mut file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        // A pipe or a device: its size says nothing.
        return read_in_steps(&mut file, expect, limit, 0);
    }
    if meta.len() > limit {
        return Err(too_large(limit, expect));
    }
    let threads = rayon::current_num_threads();
    if meta.len() < PARALLEL_READ || threads < 2 {
        // One byte more than the size: the end is seen without growing the buffer.
        return read_in_steps(&mut file, expect, limit, meta.len() as usize + 1);
    }
    let mut head = vec![0; FIRST_STEP];
    let n = std::os::unix::fs::FileExt::read_at(&file, &mut head, 0)?;
    head.truncate(n);
    if let Verdict::Stop(keep) = expect.judge(&head, Verdict::Undecided, false) {
        head.truncate(keep);
        return Ok(head);
    }
    // A regular file is read whole (its size is bounded): a fault in text beyond its head
    // is the parser's to find, at the same place.
    match read_parallel(&file, meta.len(), threads, limit)? {
        Some(bytes) => Ok(bytes),
        // Shorter than its size said (it changed meanwhile): read as it is now.
        None => read_in_steps(&mut std::fs::File::open(path)?, expect, limit, 0),
    }
}

/// Reads a regular file of `len` bytes by all cores, a part each: most of reading a file the
/// system holds in memory is the copy and the first touch of each page of the buffer,
/// which the cores can share. `None` if the file turned out shorter.
fn read_parallel(file: &std::fs::File, len: u64, threads: usize, limit: u64) -> std::io::Result<Option<Vec<u8>>> {
    use rayon::prelude::*;
    use std::io::{Seek, SeekFrom};
    use std::os::unix::fs::FileExt;
    let Ok(len) = usize::try_from(len) else { return Err(std::io::Error::other("too large for this machine")) };
    let mut buf = vec![0u8; len];
    let part = len.div_ceil(threads);
    let parts =
        buf.par_chunks_mut(part).enumerate().try_for_each(|(i, chunk)| file.read_exact_at(chunk, (i * part) as u64));
    match parts {
        Ok(()) => {
            // Whatever was appended since the size was taken, within the limit.
            let mut file = file;
            file.seek(SeekFrom::Start(len as u64))?;
            file.take(limit.saturating_add(1) - len as u64).read_to_end(&mut buf)?;
            Ok(Some(buf))
        }
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
        Err(e) => Err(e),
    }
}

/// Reads an input file (or standard input for `-`) of kind `expect`; a failure names the
/// file.
pub fn read(path: &Path, expect: Expect) -> Result<Vec<u8>, Failure> {
    read_input(path, expect).map_err(|e| Failure::input(&crate::output::input_name(path), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_bytes(bytes: &[u8], expect: Expect, limit: u64) -> std::io::Result<Vec<u8>> {
        read_in_steps(&mut &bytes[..], expect, limit, 0)
    }

    #[test]
    fn a_large_file_reads_whole_and_in_order() {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("large");
        let mut bytes: Vec<u8> = (0..PARALLEL_READ as usize + 12_345).map(|i| (i * 7 + i / 4099) as u8).collect();
        bytes[..4].copy_from_slice(PEXE_MAGIC);
        std::fs::write(&path, &bytes).expect("written");
        assert!(read_input(&path, Expect::Pexe).expect("read") == bytes);
    }

    #[test]
    fn reading_stops_at_what_is_not_the_input_expected() {
        let zeros = vec![0u8; 1 << 20];
        // Bitcode: the first 4 KiB of something else, for the reader to refuse.
        assert_eq!(read_bytes(&zeros, Expect::Pexe, u64::MAX).unwrap().len(), KEPT_OF_A_MISMATCH);
        assert_eq!(read_bytes(b"BC\xc0\xde1234", Expect::Pexe, u64::MAX).unwrap(), b"BC\xc0\xde1234");
        assert_eq!(read_bytes(b"BC\xc0\xde1234", Expect::Bitcode, u64::MAX).unwrap().len(), 8);
        assert_eq!(read_bytes(b"hello", Expect::Pexe, u64::MAX).unwrap(), b"hello");
        assert_eq!(read_bytes(b"PE", Expect::Pexe, u64::MAX).unwrap(), b"PE");
        // Text: up to the first NUL byte or invalid sequence, included.
        assert_eq!(read_bytes(&zeros, Expect::Text, u64::MAX).unwrap(), b"\0");
        assert_eq!(read_bytes(b"module {\0 x", Expect::Program, u64::MAX).unwrap(), b"module {\0");
        assert_eq!(read_bytes(b"ok \xff\xfe more", Expect::Text, u64::MAX).unwrap(), b"ok \xff");
        assert_eq!(read_bytes("héllo".as_bytes(), Expect::Text, u64::MAX).unwrap(), "héllo".as_bytes());
        assert_eq!(read_bytes(b"PEXE\x01\x00\x02", Expect::Text, u64::MAX).unwrap(), b"PEXE\x01\x00\x02");
        // Programs: a pexe or an image is read whole, NUL bytes and all.
        let mut image = pnacl_runtime::MAGIC.to_vec();
        image.extend_from_slice(&zeros);
        assert_eq!(read_bytes(&image, Expect::Program, u64::MAX).unwrap(), image);
        // Archives: read whole after their magic, and only a few bytes of anything else.
        let mut archive = ARCHIVE_MAGIC.to_vec();
        archive.extend_from_slice(&zeros);
        assert_eq!(read_bytes(&archive, Expect::Archive, u64::MAX).unwrap(), archive);
        assert_eq!(read_bytes(&zeros, Expect::Archive, u64::MAX).unwrap().len(), KEPT_OF_A_MISMATCH);
    }

    #[test]
    fn an_input_larger_than_the_limit_is_refused() {
        let mut pexe = b"PEXE".to_vec();
        pexe.resize(100_000, 7);
        assert_eq!(read_bytes(&pexe, Expect::Pexe, 100_000).unwrap().len(), 100_000);
        let e = read_bytes(&pexe, Expect::Pexe, 99_999).unwrap_err();
        assert_eq!(e.to_string(), "larger than 99999 bytes (raise --max-input to read it)");
        assert_eq!(too_large(1 << 40, Expect::Pexe).to_string(), "larger than a bitcode file can be (4 GiB)");
        assert_eq!(too_large(1 << 30, Expect::Text).to_string(), "larger than 1 GiB (raise --max-input to read it)");
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("3m"), Ok(3 << 20));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert!(parse_size("2T").is_err());
        assert!(parse_size("").is_err());
        assert!(parse_size("99999999999999G").is_err());
    }
}
