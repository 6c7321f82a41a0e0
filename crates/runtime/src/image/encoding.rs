//! The `.pnaclo` file: an [`Image`] as bytes.
//!
//! Layout (little-endian; a string or list is a `u32` count, then its items):
//!
//! ```text
//! magic "\x7fPNACLO\n", format version u32,
//! pnacl version str, build id str, target features str,      -- the header
//! pexe hash [32], pexe size u64, browser u8, entry u32, table length u32, baseline u8,
//! signatures [ret u8, params [u8]], functions [has code u8, offset u32, length u32,
//! signature id u32, name str], IRT signature ids [u32], code [u8],
//! trap sites [offset u32, kind u8], relocations [offset u32, target u8, index u32,
//! addend i64], constants start u32, data size u32, data runs [offset u32, bytes [u8]],
//! translation time in µs u64, loops unrolled u32,
//! seal [32]
//! ```
//!
//! The globals' zero-fill is only a size: a 1 GiB array of zeros makes a small image.
//!
//! The seal is a keyed BLAKE3 hash of everything before it, under a key of the user's
//! (the caller's): a file the user's pnacl did not write, or that changed since, is
//! refused. It vouches for the file as a whole: whoever holds the key can seal any native
//! code, which then runs as the user. The header is read first, so that a file from
//! another pnacl build or for another processor is refused as such (its text shown
//! escaped: it is the file's, not pnacl's); then the seal (not for
//! [`Image::from_foreign_bytes`]); then every count is checked against the bytes left
//! before anything is allocated, and the image is validated ([`Image::validate`]), so that
//! even a sealed file is loaded only if it is laid out as the translator lays out code.

use super::Image;
use crate::printable;
use pnacl_bitcode::ir::{ALL_TYPES, Ty};
use pnacl_codegen::abi::TrapKind;
use pnacl_codegen::{AbsReloc, CodeRange, GuestLayout, InitialData, Object, RelocTarget, SigTable, Tier};
use std::fmt;
use std::io::{self, Write};
use std::time::Duration;

/// The first bytes of every image file.
pub const MAGIC: &[u8; 8] = b"\x7fPNACLO\n";
/// The format version.
pub const FORMAT: u32 = 3;
/// The build of pnacl that writes and reads images (see the runtime's build script).
pub const BUILD_ID: &str = env!("PNACL_BUILD_ID");
/// pnacl's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// Size of the seal.
const SEAL: usize = 32;

/// Why an image file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageError {
    /// Not an image file at all.
    NotAnImage,
    /// Made by another version or build of pnacl.
    Stale {
        /// The version and build that made it.
        made_by: String,
    },
    /// Made for a processor with other features.
    OtherProcessor {
        /// The features it assumed.
        assumed: String,
    },
    /// The seal does not match: modified since pnacl wrote it, or sealed with another key.
    Tampered,
    /// Sealed, but not an image the translator makes (or cut short).
    Malformed(String),
}

impl fmt::Display for ImageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImageError::NotAnImage => f.write_str("not a pnacl image (.pnaclo) file"),
            ImageError::Stale { made_by } => write!(
                f,
                "stale: made by pnacl {made_by}, and this is pnacl {VERSION} (build {BUILD_ID}); compile the pexe again"
            ),
            ImageError::OtherProcessor { assumed } => write!(
                f,
                "made for another processor (it assumes {assumed}; this one has {}); compile the pexe again",
                pnacl_codegen::target_features().unwrap_or_default()
            ),
            ImageError::Tampered => f.write_str(
                "its seal does not match: it was changed after pnacl wrote it, or written by another user's \
                 pnacl; refusing to run it",
            ),
            ImageError::Malformed(why) => write!(f, "malformed image: {why}"),
        }
    }
}

impl std::error::Error for ImageError {}

impl ImageError {
    fn cut_short() -> ImageError {
        ImageError::Malformed("cut short".into())
    }
}

/// What the header says, readable without the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// pnacl's version.
    pub version: String,
    /// The build id.
    pub build: String,
    /// The processor features the code assumes.
    pub target: String,
}

struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn len(&mut self, n: usize) {
        self.u32(u32::try_from(n).expect("image lists are under 4 GiB"));
    }
    fn bytes(&mut self, b: &[u8]) {
        self.len(b.len());
        self.0.extend_from_slice(b);
    }
}

/// The image's bytes on their way out: small fields gather in `w`, which goes to `out` and
/// into the seal's hash before each large part does.
struct Sealing<'a> {
    w: Writer,
    hasher: blake3::Hasher,
    out: &'a mut dyn Write,
}

impl Sealing<'_> {
    fn flush(&mut self) -> io::Result<()> {
        self.hasher.update(&self.w.0);
        self.out.write_all(&self.w.0)?;
        self.w.0.clear();
        Ok(())
    }
    /// A list of bytes written from where it is.
    fn large(&mut self, b: &[u8]) -> io::Result<()> {
        self.w.len(b.len());
        self.flush()?;
        hash_into(&mut self.hasher, b);
        self.out.write_all(b)
    }
}

/// Adds `b` to `hasher`, on all cores when it is large (the code of a large program is
/// megabytes).
fn hash_into<'h>(hasher: &'h mut blake3::Hasher, b: &[u8]) -> &'h mut blake3::Hasher {
    if b.len() >= 1 << 20 { hasher.update_rayon(b) } else { hasher.update(b) }
}

/// Reads `bytes` front to back; every read is bounds-checked.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], ImageError> {
        if n > self.bytes.len() {
            return Err(ImageError::cut_short());
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }
    fn u8(&mut self) -> Result<u8, ImageError> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32, ImageError> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    fn u64(&mut self) -> Result<u64, ImageError> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    /// A count of items of at least `item_size` bytes each, checked against what is left.
    fn count(&mut self, item_size: usize) -> Result<usize, ImageError> {
        let n = self.u32()? as usize;
        if n.saturating_mul(item_size.max(1)) > self.bytes.len() {
            return Err(ImageError::Malformed("a count larger than the file".into()));
        }
        Ok(n)
    }
    fn bytes(&mut self) -> Result<&'a [u8], ImageError> {
        let n = self.count(1)?;
        self.take(n)
    }
    fn string(&mut self) -> Result<String, ImageError> {
        String::from_utf8(self.bytes()?.to_vec()).map_err(|_| ImageError::Malformed("a name is not UTF-8".into()))
    }
    fn ty(&mut self) -> Result<Ty, ImageError> {
        let code = self.u8()?;
        ALL_TYPES.get(code as usize).copied().ok_or_else(|| ImageError::Malformed(format!("type code {code}")))
    }
}

fn ty_code(t: Ty) -> u8 {
    ALL_TYPES.iter().position(|&x| x == t).expect("every type is in ALL_TYPES") as u8
}

fn reloc_code(t: RelocTarget) -> (u8, u32) {
    match t {
        RelocTarget::Host(h) => (0, h),
        RelocTarget::MemoryBase => (1, 0),
        RelocTarget::FunctionTable => (2, 0),
        RelocTarget::Code(o) => (3, o),
    }
}

fn header(target: &str) -> Writer {
    let mut w = Writer(Vec::new());
    w.0.extend_from_slice(MAGIC);
    w.u32(FORMAT);
    w.bytes(VERSION.as_bytes());
    w.bytes(BUILD_ID.as_bytes());
    w.bytes(target.as_bytes());
    w
}

impl Image {
    /// The image as a file's bytes, sealed with `key`. `target` is the processor features
    /// the code assumes ([`pnacl_codegen::target_features`]).
    pub fn to_bytes(&self, target: &str, key: &[u8; 32]) -> Vec<u8> {
        let mut bytes = Vec::new();
        self.write_to(target, key, &mut bytes).expect("writing to memory does not fail");
        bytes
    }

    /// Writes the image file's bytes ([`Image::to_bytes`]) to `out` as they are made: the
    /// code and the data go out (and into the seal) from where they are, not through one
    /// buffer holding the whole file. For a large program that copy was a tenth of the
    /// serial time left after translation.
    pub fn write_to(&self, target: &str, key: &[u8; 32], out: &mut dyn Write) -> io::Result<()> {
        let mut s = Sealing { w: header(target), hasher: blake3::Hasher::new_keyed(key), out };
        let o = &self.object;
        s.w.0.extend_from_slice(&self.pexe_hash);
        s.w.u64(self.bitcode_size);
        s.w.u8(u8::from(self.browser));
        s.w.u32(self.entry);
        s.w.u32(o.table_len);
        s.w.u8(u8::from(o.tier == Tier::Baseline));
        let sigs = o.sigs.signatures();
        s.w.len(sigs.len());
        for (ret, params) in &sigs {
            s.w.u8(ty_code(*ret));
            s.w.len(params.len());
            for &p in params {
                s.w.u8(ty_code(p));
            }
        }
        s.w.len(o.functions.len());
        for ((range, &sig), name) in o.functions.iter().zip(&self.function_sigs).zip(&self.names) {
            let r = range.unwrap_or(CodeRange { offset: 0, len: 0 });
            s.w.u8(u8::from(range.is_some()));
            s.w.u32(r.offset);
            s.w.u32(r.len);
            s.w.u32(sig);
            s.w.bytes(name.as_bytes());
        }
        s.w.len(self.host_sigs.len());
        for &h in &self.host_sigs {
            s.w.u32(h);
        }
        s.large(&o.code)?;
        s.w.len(o.traps.len());
        for &(at, kind) in &o.traps {
            s.w.u32(at);
            s.w.u8(TrapKind::ALL.iter().position(|&k| k == kind).expect("every kind is in ALL") as u8);
        }
        s.w.len(o.relocs.len());
        for r in &o.relocs {
            let (kind, index) = reloc_code(r.target);
            s.w.u32(r.offset);
            s.w.u8(kind);
            s.w.u32(index);
            s.w.u64(r.addend as u64);
        }
        s.w.u32(o.layout.constants_start);
        s.w.u32(self.data.len);
        s.w.len(self.data.runs.len());
        for (at, bytes) in &self.data.runs {
            s.w.u32(*at);
            if bytes.len() >= 1 << 16 {
                s.large(bytes)?;
            } else {
                s.w.bytes(bytes);
            }
        }
        s.w.u64(o.time.as_micros() as u64);
        s.w.u32(o.unrolled_loops);
        s.flush()?;
        s.out.write_all(s.hasher.finalize().as_bytes())
    }

    /// Reads the header of an image file: who made it, for which processor.
    pub fn header(bytes: &[u8]) -> Result<Header, ImageError> {
        let mut r = Reader { bytes };
        if bytes.len() < MAGIC.len() || r.take(MAGIC.len())? != MAGIC {
            return Err(ImageError::NotAnImage);
        }
        if r.u32()? != FORMAT {
            return Err(ImageError::Stale { made_by: "another version (another image format)".into() });
        }
        Ok(Header { version: r.string()?, build: r.string()?, target: r.string()? })
    }

    /// Reads an image file that this build of pnacl wrote for processor `target`, sealed
    /// with `key`, and validates it.
    pub fn from_bytes(bytes: &[u8], target: &str, key: &[u8; 32]) -> Result<Image, ImageError> {
        checked_header(bytes, target)?;
        let Some(body_len) = bytes.len().checked_sub(SEAL) else { return Err(ImageError::Tampered) };
        let (body, seal) = bytes.split_at(body_len);
        if hash_into(&mut blake3::Hasher::new_keyed(key), body).finalize()
            != blake3::Hash::from_bytes(seal.try_into().expect("32 bytes"))
        {
            return Err(ImageError::Tampered);
        }
        let image = read_body(body, header(target).0.len())?;
        image.validate().map_err(ImageError::Malformed)?;
        Ok(image)
    }

    /// Reads an image file that this build of pnacl wrote for processor `target`, whatever
    /// its seal (`pnacl run --allow-precompiled`: made by another user, on another machine,
    /// or changed since), and validates it. The validation checks the image's structure,
    /// not its instructions: code from such a file runs with the user's rights, as its
    /// author wrote it.
    pub fn from_foreign_bytes(bytes: &[u8], target: &str) -> Result<Image, ImageError> {
        checked_header(bytes, target)?;
        let Some(body_len) = bytes.len().checked_sub(SEAL) else { return Err(ImageError::cut_short()) };
        let image = read_body(&bytes[..body_len], header(target).0.len())?;
        image.validate().map_err(ImageError::Malformed)?;
        Ok(image)
    }
}

/// Checks the header of an image file: made by this build, for processor `target`.
fn checked_header(bytes: &[u8], target: &str) -> Result<(), ImageError> {
    let h = Image::header(bytes)?;
    // The header's text is the file's: shown escaped, and cut short.
    let shown = |s: &str| printable(&s.chars().take(100).collect::<String>()).into_owned();
    if h.version != VERSION || h.build != BUILD_ID {
        return Err(ImageError::Stale { made_by: format!("{} (build {})", shown(&h.version), shown(&h.build)) });
    }
    if h.target != target {
        return Err(ImageError::OtherProcessor { assumed: shown(&h.target) });
    }
    Ok(())
}

/// Reads what follows the header (`skip` bytes) in a sealed file's body.
fn read_body(body: &[u8], skip: usize) -> Result<Image, ImageError> {
    let mut r = Reader { bytes: body };
    r.take(skip)?;
    let pexe_hash: [u8; 32] = r.take(32)?.try_into().expect("32 bytes");
    let bitcode_size = r.u64()?;
    let browser = r.u8()? != 0;
    let entry = r.u32()?;
    let table_len = r.u32()?;
    let tier = if r.u8()? != 0 { Tier::Baseline } else { Tier::Optimizing };
    let n = r.count(5)?;
    let mut signatures = Vec::with_capacity(n);
    for _ in 0..n {
        let ret = r.ty()?;
        let params = (0..r.count(1)?).map(|_| r.ty()).collect::<Result<Vec<_>, _>>()?;
        signatures.push((ret, params));
    }
    let sigs = SigTable::from_signatures(signatures).ok_or(ImageError::Malformed("a signature twice".into()))?;
    let n = r.count(17)?;
    let (mut functions, mut function_sigs, mut names) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::new());
    for _ in 0..n {
        let has_code = r.u8()? != 0;
        let range = CodeRange { offset: r.u32()?, len: r.u32()? };
        functions.push(has_code.then_some(range));
        function_sigs.push(r.u32()?);
        names.push(r.string()?);
    }
    let host_sigs = (0..r.count(4)?).map(|_| r.u32()).collect::<Result<Vec<_>, _>>()?;
    let code = r.bytes()?.to_vec();
    let n = r.count(5)?;
    let mut traps = Vec::with_capacity(n);
    for _ in 0..n {
        let at = r.u32()?;
        let kind = r.u8()?;
        let kind = TrapKind::ALL.get(kind as usize).ok_or(ImageError::Malformed(format!("trap kind {kind}")))?;
        traps.push((at, *kind));
    }
    let n = r.count(17)?;
    let mut relocs = Vec::with_capacity(n);
    for _ in 0..n {
        let offset = r.u32()?;
        let (kind, index) = (r.u8()?, r.u32()?);
        let target = match kind {
            0 => RelocTarget::Host(index),
            1 => RelocTarget::MemoryBase,
            2 => RelocTarget::FunctionTable,
            3 => RelocTarget::Code(index),
            k => return Err(ImageError::Malformed(format!("relocation kind {k}"))),
        };
        relocs.push(AbsReloc { offset, target, addend: r.u64()? as i64 });
    }
    let constants_start = r.u32()?;
    let data_len = r.u32()?;
    let runs = (0..r.count(8)?).map(|_| Ok((r.u32()?, r.bytes()?.to_vec()))).collect::<Result<Vec<_>, _>>()?;
    let data = InitialData { len: data_len, runs };
    let time = Duration::from_micros(r.u64()?);
    let unrolled_loops = r.u32()?;
    if !r.bytes.is_empty() {
        return Err(ImageError::Malformed("bytes after the data".into()));
    }
    let data_end = u32::try_from(u64::from(pnacl_codegen::abi::memory::GLOBALS_START) + u64::from(data.len))
        .map_err(|_| ImageError::Malformed("too much data".into()))?;
    let layout = GuestLayout { globals: Vec::new(), constants_start, data_end };
    let object = Object { code, functions, traps, relocs, table_len, tier, layout, sigs, time, unrolled_loops };
    Ok(Image { pexe_hash, bitcode_size, browser, entry, object, function_sigs, host_sigs, names, data })
}
