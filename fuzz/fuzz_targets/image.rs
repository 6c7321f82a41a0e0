//! The image (`.pnaclo`) reader on arbitrary contents. The input is made into a file as
//! pnacl writes them (this build's header, then the input, then a seal under a fixed key),
//! so that the reader gets past the header and the seal to the counts, the tables and the
//! validation. It must never panic nor allocate by an unchecked count; an image it accepts
//! must load (every relocation inside the code) and encode back to a file it reads the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pnacl_codegen::Addresses;
use pnacl_codegen::abi::HostFn;
use pnacl_runtime::{BUILD_ID, FORMAT, Image, MAGIC, VERSION};

const KEY: [u8; 32] = [7; 32];
const TARGET: &str = "fuzz";

fn string(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&FORMAT.to_le_bytes());
    string(&mut bytes, VERSION);
    string(&mut bytes, BUILD_ID);
    string(&mut bytes, TARGET);
    bytes.extend_from_slice(data);
    let seal = blake3::keyed_hash(&KEY, &bytes);
    bytes.extend_from_slice(seal.as_bytes());
    let Ok(image) = Image::from_bytes(&bytes, TARGET, &KEY) else { return };
    let at = Addresses { mem_base: 1 << 40, table_addr: 2 << 40, host_fns: vec![3 << 40; HostFn::ALL.len()] };
    image.object.link(&at).expect("a validated image loads");
    let again = image.to_bytes(TARGET, &KEY);
    let back = Image::from_bytes(&again, TARGET, &KEY).expect("a re-encoded image reads");
    assert_eq!(back.to_bytes(TARGET, &KEY), again);
});
