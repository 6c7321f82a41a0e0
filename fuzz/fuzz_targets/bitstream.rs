//! The generic bitstream cursor on arbitrary bytes, and record-exact copying of what it reads.
//! Where the processor runs pext fast, a cursor gathering with it must read exactly what the
//! portable one reads, errors included.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pnacl_bitstream::{BitPos, Cursor, Entry, Gather, PextGather, StreamWriter};

fuzz_target!(|data: &[u8]| {
    let Ok(mut c) = Cursor::new(data, BitPos(0), 2) else { return };
    let mut pext = PextGather::available().then(|| Cursor::<PextGather>::with_gather(data, BitPos(0), 2).unwrap());
    let mut w = StreamWriter::new(b"", 2);
    loop {
        let e = c.next_entry();
        if let Some(p) = &mut pext {
            let same = match (&e, p.next_entry()) {
                (Ok(a), Ok(b)) => format!("{a:?}") == format!("{b:?}"),
                (Err(a), Err(b)) => a.to_string() == b.to_string(),
                _ => false,
            };
            assert!(same, "the pext cursor read something else");
        }
        let Ok(e) = e else { break };
        if matches!(e, Entry::End(_)) {
            break;
        }
        // Everything the cursor accepts, the writer can write.
        w.copy(&e).expect("a read entry can be written");
    }
});
