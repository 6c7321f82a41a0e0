//! File containers around a bitstream: the PNaCl `PEXE` header, the LLVM `BC 0xC0DE` magic
//! and the LLVM bitcode wrapper.

use crate::error::{Error, Result};
use crate::position::BitPos;
use std::fmt::Write as _;

/// The four bytes every PNaCl bitcode file starts with.
pub const PEXE_MAGIC: [u8; 4] = *b"PEXE";
/// The four bytes raw LLVM bitcode starts with.
pub const LLVM_MAGIC: [u8; 4] = [b'B', b'C', 0xC0, 0xDE];
/// The magic of the LLVM bitcode wrapper header, as a little-endian word.
pub const WRAPPER_MAGIC: u32 = 0x0B17_C0DE;

/// Field id of the PNaCl version field.
pub const FIELD_PNACL_VERSION: u16 = 1;
/// Field id of the experimental "align bitcode records" flag.
pub const FIELD_ALIGN_RECORDS: u16 = 2;
/// Field type: a byte buffer.
pub const FIELD_TYPE_BUFFER: u16 = 0;
/// Field type: a little-endian 32-bit integer.
pub const FIELD_TYPE_U32: u16 = 1;
/// Field type: a flag with no data.
pub const FIELD_TYPE_FLAG: u16 = 2;

/// The only PNaCl bitcode version this toolkit reads and writes.
pub const SUPPORTED_PNACL_VERSION: u32 = 2;

/// One typed field of a PEXE header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderField {
    /// Field id (1 = PNaCl version, 2 = align bitcode records; others are invalid).
    pub id: u16,
    /// Field type (0 buffer, 1 uint32, 2 flag; others are unknown).
    pub ty: u16,
    /// The field's data bytes.
    pub data: Vec<u8>,
}

impl HeaderField {
    /// The field's name as PNaCl tools print it.
    pub fn name(&self) -> &'static str {
        match self.id {
            FIELD_PNACL_VERSION => "PNaCl Version",
            FIELD_ALIGN_RECORDS => "Align bitcode records",
            _ => "Invalid",
        }
    }

    /// The field's value as a 32-bit integer, if it has that type and size.
    pub fn as_u32(&self) -> Option<u32> {
        (self.ty == FIELD_TYPE_U32 && self.data.len() == 4)
            .then(|| u32::from_le_bytes(self.data[..4].try_into().unwrap()))
    }

    /// `name: value`, with the value printed according to the field's type.
    pub fn contents(&self) -> String {
        let value = match self.ty {
            FIELD_TYPE_U32 => match self.as_u32() {
                Some(v) => v.to_string(),
                None => "unknown value".into(),
            },
            FIELD_TYPE_FLAG => "true".into(),
            FIELD_TYPE_BUFFER => {
                let mut s = String::from("[");
                for (i, b) in self.data.iter().enumerate() {
                    if i > 0 {
                        s.push(' ');
                    }
                    let _ = write!(s, "{b:02x}");
                }
                s.push(']');
                s
            }
            _ => "unknown value".into(),
        };
        format!("{}: {}", self.name(), value)
    }

    fn expected_type(&self) -> Option<(u16, &'static str)> {
        match self.id {
            FIELD_PNACL_VERSION => Some((FIELD_TYPE_U32, "uint32")),
            FIELD_ALIGN_RECORDS => Some((FIELD_TYPE_FLAG, "flag")),
            _ => None,
        }
    }
}

/// A parsed PEXE header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PexeHeader {
    /// The header bytes exactly as they appear in the file (magic included).
    pub raw: Vec<u8>,
    /// The fields, in file order.
    pub fields: Vec<HeaderField>,
}

/// What a header check concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderStatus {
    /// The rest of the file can be read.
    pub readable: bool,
    /// Every field is understood and supported.
    pub supported: bool,
    /// One line per problem found, empty when supported.
    pub messages: Vec<String>,
}

impl PexeHeader {
    /// The standard 16-byte version-2 header.
    pub fn standard() -> Self {
        let raw = vec![0x50, 0x45, 0x58, 0x45, 0x01, 0x00, 0x08, 0x00, 0x11, 0x00, 0x04, 0x00, 0x02, 0x00, 0x00, 0x00];
        PexeHeader { fields: vec![HeaderField { id: 1, ty: 1, data: vec![2, 0, 0, 0] }], raw }
    }

    /// Parses the header at the start of `data`. Fails only when the bytes cannot be a PEXE
    /// header at all; field-level problems are reported by [`PexeHeader::status`].
    pub fn parse(data: &[u8]) -> Result<PexeHeader> {
        if data.len() < 4 || data[..4] != PEXE_MAGIC {
            let mut message = String::from("Invalid PNaCl bitcode header");
            if data.starts_with(&LLVM_MAGIC) || data.starts_with(&WRAPPER_MAGIC.to_le_bytes()) {
                message.push_str(" (to run in Chrome, bitcode files must be finalized using pnacl-finalize)");
            }
            return Err(Error::new(BitPos(0), message));
        }
        let failure = || Error::new(BitPos(0), "Bitcode read failure");
        if data.len() < 8 {
            return Err(failure());
        }
        let count = u16::from_le_bytes([data[4], data[5]]);
        let num_bytes = usize::from(u16::from_le_bytes([data[6], data[7]]));
        let end = 8 + num_bytes;
        if data.len() < end {
            return Err(failure());
        }
        let mut fields = Vec::new();
        let mut at = 8;
        for _ in 0..count {
            if at + 4 > end {
                return Err(failure());
            }
            let typed = u16::from_le_bytes([data[at], data[at + 1]]);
            let len = usize::from(u16::from_le_bytes([data[at + 2], data[at + 3]]));
            let data_end = at + 4 + len;
            if data_end > end {
                return Err(failure());
            }
            fields.push(HeaderField { id: typed >> 4, ty: typed & 0xf, data: data[at + 4..data_end].to_vec() });
            at += (4 + len).div_ceil(4) * 4;
        }
        if at > end {
            return Err(failure());
        }
        Ok(PexeHeader { raw: data[..end].to_vec(), fields })
    }

    /// Checks the fields: which are readable, which are supported.
    pub fn status(&self) -> HeaderStatus {
        let mut readable = true;
        let mut supported = true;
        let mut messages = Vec::new();
        let mut seen = Vec::new();
        for f in &self.fields {
            if seen.contains(&f.id) {
                messages.push(format!("Specified multiple times: {}", f.name()));
                readable = false;
                supported = false;
                continue;
            }
            seen.push(f.id);
            if f.ty > FIELD_TYPE_FLAG {
                messages.push(format!("Unknown value: {}", f.contents()));
                readable = false;
                supported = false;
                continue;
            }
            match f.expected_type() {
                None => {
                    messages.push(format!("Unsupported: {}", f.contents()));
                    readable = false;
                    supported = false;
                }
                Some((ty, name)) if ty != f.ty || (ty == FIELD_TYPE_U32 && f.data.len() != 4) => {
                    messages.push(format!("Expects type {name}: {}", f.contents()));
                    readable = false;
                    supported = false;
                }
                Some(_) if f.id == FIELD_PNACL_VERSION => {
                    let v = f.as_u32().unwrap_or(0);
                    if v != SUPPORTED_PNACL_VERSION {
                        let why = if v > SUPPORTED_PNACL_VERSION {
                            " (the file needs a newer PNaCl reader; this one reads version 2)"
                        } else {
                            " (only version 2 is read)"
                        };
                        messages.push(format!("Unsupported: {}{why}", f.contents()));
                        readable = false;
                        supported = false;
                    }
                }
                Some(_) => {
                    messages.push(format!("Unsupported: {}", f.contents()));
                    supported = false;
                }
            }
        }
        if !seen.contains(&FIELD_PNACL_VERSION) {
            messages.push("Unsupported: no PNaCl Version field".into());
            readable = false;
            supported = false;
        }
        HeaderStatus { readable, supported, messages }
    }

    /// The PNaCl version field, if present and well typed.
    pub fn version(&self) -> Option<u32> {
        self.fields.iter().find(|f| f.id == FIELD_PNACL_VERSION).and_then(HeaderField::as_u32)
    }

    /// Builds the header bytes for `fields` (used when writing a header from parts).
    pub fn from_fields(fields: Vec<HeaderField>) -> Self {
        let mut body = Vec::new();
        for f in &fields {
            body.extend_from_slice(&((f.id << 4) | f.ty).to_le_bytes());
            body.extend_from_slice(&(f.data.len() as u16).to_le_bytes());
            body.extend_from_slice(&f.data);
            while body.len() % 4 != 0 {
                body.push(0);
            }
        }
        let mut raw = PEXE_MAGIC.to_vec();
        raw.extend_from_slice(&(fields.len() as u16).to_le_bytes());
        raw.extend_from_slice(&(body.len() as u16).to_le_bytes());
        raw.extend_from_slice(&body);
        PexeHeader { raw, fields }
    }
}

/// The LLVM bitcode wrapper header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wrapper {
    /// Wrapper version (0).
    pub version: u32,
    /// Byte offset of the bitcode.
    pub offset: u32,
    /// Byte size of the bitcode.
    pub size: u32,
    /// Target CPU type.
    pub cpu_type: u32,
}

/// What kind of file a byte string is, and where its bitstream starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Container {
    /// A PNaCl bitcode file.
    Pexe {
        /// Its header.
        header: PexeHeader,
    },
    /// LLVM bitcode, possibly inside a wrapper.
    Llvm {
        /// The wrapper, if present.
        wrapper: Option<Wrapper>,
    },
}

impl Container {
    /// Recognises the container of `data`.
    pub fn detect(data: &[u8]) -> Result<Container> {
        if data.starts_with(&PEXE_MAGIC) {
            return Ok(Container::Pexe { header: PexeHeader::parse(data)? });
        }
        if data.starts_with(&LLVM_MAGIC) {
            return Ok(Container::Llvm { wrapper: None });
        }
        if data.starts_with(&WRAPPER_MAGIC.to_le_bytes()) {
            if data.len() < 20 {
                return Err(Error::new(BitPos(0), "truncated bitcode wrapper header"));
            }
            let word = |i: usize| u32::from_le_bytes(data[i..i + 4].try_into().unwrap());
            let w = Wrapper { version: word(4), offset: word(8), size: word(12), cpu_type: word(16) };
            let end = u64::from(w.offset) + u64::from(w.size);
            if end > data.len() as u64 || w.size < 4 {
                return Err(Error::new(BitPos(64), "bitcode wrapper points outside the file"));
            }
            if data[w.offset as usize..].starts_with(&LLVM_MAGIC) {
                return Ok(Container::Llvm { wrapper: Some(w) });
            }
            return Err(Error::new(BitPos(u64::from(w.offset) * 8), "wrapped data is not LLVM bitcode"));
        }
        Err(Error::new(BitPos(0), "not a bitcode file: no PEXE, BC 0xC0DE or wrapper magic"))
    }

    /// The bytes the bitstream lives in (the whole file, or up to the wrapper's end) and the
    /// position of its first bit.
    pub fn stream<'a>(&self, data: &'a [u8]) -> (&'a [u8], BitPos) {
        match self {
            Container::Pexe { header } => (data, BitPos(header.raw.len() as u64 * 8)),
            Container::Llvm { wrapper: None } => (data, BitPos(32)),
            Container::Llvm { wrapper: Some(w) } => {
                let end = (w.offset + w.size) as usize;
                (&data[..end], BitPos((u64::from(w.offset) + 4) * 8))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_header() {
        let h = PexeHeader::standard();
        assert_eq!(PexeHeader::parse(&h.raw).unwrap(), h);
        assert_eq!(PexeHeader::from_fields(h.fields.clone()).raw, h.raw);
        let s = h.status();
        assert!(s.readable && s.supported, "{s:?}");
        assert_eq!(h.fields[0].contents(), "PNaCl Version: 2");
    }

    #[test]
    fn header_problems() {
        let mut raw = PexeHeader::standard().raw;
        raw[12] = 3;
        let s = PexeHeader::parse(&raw).unwrap().status();
        assert!(!s.readable);
        assert!(s.messages[0].starts_with("Unsupported: PNaCl Version: 3"), "{s:?}");

        let aligned = PexeHeader::from_fields(vec![
            HeaderField { id: 1, ty: 1, data: vec![2, 0, 0, 0] },
            HeaderField { id: 2, ty: 2, data: vec![] },
        ]);
        assert_eq!(&aligned.raw[4..8], &[2, 0, 12, 0]);
        let s = aligned.status();
        assert!(s.readable && !s.supported);
        assert_eq!(s.messages, vec!["Unsupported: Align bitcode records: true"]);

        assert!(PexeHeader::parse(b"PEXE\x01\x00\x08\x00\x11\x00").is_err());
        let e = PexeHeader::parse(b"BC\xc0\xde").unwrap_err();
        assert!(e.message.contains("pnacl-finalize"));
    }
}
