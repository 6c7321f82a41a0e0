//! Image validation on images that differ from a valid one in a few fields: the entry
//! point, the table length, functions' offsets, lengths and signature ids, relocations'
//! offsets, targets and addends, trap sites, the globals' layout and data, and any byte
//! outside the code. Each mutated image is sealed again with a test key, so that what is
//! fuzzed is the validation behind the seal, not the seal.
//!
//! The input: one byte choosing the valid image (translated from one of the examples),
//! then operations of 13 bytes each: a field (1 byte), an index (4) and a value (8, taken
//! as a small change of the field when its top bit is set, else as the new value).
//!
//! An image the reader accepts must load, and keep what validation promises, checked here
//! against the valid image rather than by the validator's own logic: every relocation sits
//! where the translator put one (nothing else of the code is overwritten), with addend 0
//! and a known target; every function starts where one started; the entry point is a
//! function's start; every trap site is inside a function; and it encodes back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pnacl_bitcode::{ReadOptions, read_parallel};
use pnacl_codegen::abi::HostFn;
use pnacl_codegen::{Addresses, CodeRange, RelocTarget, Tier};
use pnacl_runtime::Image;
use std::collections::HashSet;
use std::sync::LazyLock;

const KEY: [u8; 32] = [7; 32];
const TARGET: &str = "fuzz";

/// The valid images: the examples, translated.
static IMAGES: LazyLock<Vec<Image>> = LazyLock::new(|| {
    let sources = [
        include_str!("../../examples/hello_world.pnaclasm"),
        include_str!("../../examples/factorial.pnaclasm"),
        include_str!("../../examples/divide.pnaclasm"),
        include_str!("../../examples/main_without_parameters.pnaclasm"),
    ];
    sources
        .iter()
        .map(|text| {
            let bitcode = pnacl_text::asm::assemble(text).expect("the examples assemble");
            let options = ReadOptions { defer_abi: true, ..ReadOptions::default() };
            let m = read_parallel(&bitcode, options).expect("the examples read");
            Image::compile(&m, &bitcode, Tier::Optimizing).expect("the examples translate")
        })
        .collect()
});

/// `value` as a change of `old`: a small step when its top bit is set, else itself.
fn changed(old: u64, value: u64) -> u64 {
    if value >> 63 == 1 { old.wrapping_add(value as i8 as i64 as u64) } else { value }
}

fn pick<T>(list: &mut [T], index: u32) -> Option<&mut T> {
    let n = list.len();
    (n > 0).then(|| &mut list[index as usize % n])
}

/// Applies one field operation to `image`.
fn mutate(image: &mut Image, field: u8, index: u32, value: u64) {
    let o = &mut image.object;
    match field % 15 {
        0 => image.entry = changed(u64::from(image.entry), value) as u32,
        1 => o.table_len = changed(u64::from(o.table_len), value) as u32,
        2 => {
            if let Some(Some(r)) = pick(&mut o.functions, index) {
                r.offset = changed(u64::from(r.offset), value) as u32;
            }
        }
        3 => {
            if let Some(Some(r)) = pick(&mut o.functions, index) {
                r.len = changed(u64::from(r.len), value) as u32;
            }
        }
        4 => {
            if let Some(f) = pick(&mut o.functions, index) {
                *f = match f {
                    Some(_) => None,
                    None => Some(CodeRange { offset: value as u32, len: (value >> 32) as u32 }),
                };
            }
        }
        5 => {
            if let Some(s) = pick(&mut image.function_sigs, index) {
                *s = changed(u64::from(*s), value) as u32;
            }
        }
        6 => {
            if let Some(s) = pick(&mut image.host_sigs, index) {
                *s = changed(u64::from(*s), value) as u32;
            }
        }
        7 => {
            if let Some(r) = pick(&mut o.relocs, index) {
                r.offset = changed(u64::from(r.offset), value) as u32;
            }
        }
        8 => {
            if let Some(r) = pick(&mut o.relocs, index) {
                r.target = match value % 4 {
                    0 => RelocTarget::Host((value >> 8) as u32),
                    1 => RelocTarget::MemoryBase,
                    2 => RelocTarget::FunctionTable,
                    _ => RelocTarget::Code((value >> 8) as u32),
                };
            }
        }
        9 => {
            if let Some(r) = pick(&mut o.relocs, index) {
                r.addend = changed(r.addend as u64, value) as i64;
            }
        }
        10 => {
            if let Some(t) = pick(&mut o.traps, index) {
                t.0 = changed(u64::from(t.0), value) as u32;
            }
        }
        11 => {
            // A relocation removed, or a copy of one added elsewhere.
            if value & 1 == 0 && !o.relocs.is_empty() {
                let i = index as usize % o.relocs.len();
                o.relocs.remove(i);
            } else if let Some(r) = pick(&mut o.relocs, index).map(|r| *r) {
                let at = (index as usize % o.relocs.len()) + 1;
                o.relocs.insert(at.min(o.relocs.len()), pnacl_codegen::AbsReloc { offset: (value >> 1) as u32, ..r });
            }
        }
        12 => {
            let len = &mut image.data.len;
            *len = changed(u64::from(*len), value) as u32;
            o.layout.data_end = o.layout.data_end.wrapping_add(*len);
        }
        13 => {
            if let Some(run) = pick(&mut image.data.runs, index) {
                run.0 = changed(u64::from(run.0), value) as u32;
            }
        }
        _ => o.layout.constants_start = changed(u64::from(o.layout.constants_start), value) as u32,
    }
}

/// Where the code section lies in the file `bytes` of `image`.
fn code_span(bytes: &[u8], image: &Image) -> std::ops::Range<usize> {
    let code = &image.object.code;
    let at = bytes.windows(code.len().max(1)).position(|w| w == &code[..]).unwrap_or(bytes.len());
    at..at + code.len()
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, ops)) = data.split_first() else { return };
    let original = &IMAGES[which as usize % IMAGES.len()];
    let mut image = original.clone();
    let mut byte_ops = Vec::new();
    for op in ops.chunks_exact(13) {
        let index = u32::from_le_bytes(op[1..5].try_into().unwrap());
        let value = u64::from_le_bytes(op[5..13].try_into().unwrap());
        if op[0] >= 240 {
            byte_ops.push((index, value as u8));
        } else {
            mutate(&mut image, op[0], index, value);
        }
    }
    let mut bytes = image.to_bytes(TARGET, &KEY);
    // Bytes outside the code (which only the seal vouches for), sealed again.
    let body = bytes.len() - 32;
    let code = code_span(&bytes, &image);
    for (index, value) in byte_ops {
        let at = index as usize % body;
        if !code.contains(&at) {
            bytes[at] = value;
        }
    }
    let seal = blake3::keyed_hash(&KEY, &bytes[..body]);
    bytes[body..].copy_from_slice(seal.as_bytes());

    let Ok(loaded) = Image::from_bytes(&bytes, TARGET, &KEY) else { return };
    let at = Addresses { mem_base: 1 << 40, table_addr: 2 << 40, host_fns: vec![3 << 40; HostFn::ALL.len()] };
    loaded.object.link(&at).expect("a validated image loads");
    let o = &loaded.object;
    assert_eq!(o.code, original.object.code, "only bytes outside the code were changed");
    let sites: HashSet<u32> = original.object.relocs.iter().map(|r| r.offset).collect();
    let starts: HashSet<u32> = original.object.functions.iter().flatten().map(|r| r.offset).collect();
    for r in &o.relocs {
        assert!(sites.contains(&r.offset), "a relocation at {}, where the translator put none", r.offset);
        assert_eq!(r.addend, 0, "the translator's addends are 0");
        match r.target {
            RelocTarget::Host(h) => assert!((h as usize) < HostFn::ALL.len()),
            RelocTarget::Code(c) => assert!(starts.contains(&c), "a relocation to {c}, not a function's start"),
            RelocTarget::MemoryBase | RelocTarget::FunctionTable => {}
        }
    }
    let ranges: Vec<CodeRange> = o.functions.iter().flatten().copied().collect();
    for r in &ranges {
        assert!(starts.contains(&r.offset), "a function at {}, where none started", r.offset);
    }
    let entry = o.functions[loaded.entry as usize].expect("the entry point has code");
    assert!(starts.contains(&entry.offset));
    for &(t, _) in &o.traps {
        assert!(ranges.iter().any(|r| t >= r.offset && t - r.offset < r.len), "a trap site at {t}, in no function");
    }
    let again = loaded.to_bytes(TARGET, &KEY);
    let back = Image::from_bytes(&again, TARGET, &KEY).expect("a re-encoded image reads");
    assert_eq!(back.to_bytes(TARGET, &KEY), again);
});
