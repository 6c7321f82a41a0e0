//! The generic bitstream cursor on arbitrary bytes, and record-exact copying of what it reads.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pnacl_bitstream::{BitPos, Cursor, Entry, StreamWriter};

fuzz_target!(|data: &[u8]| {
    let Ok(mut c) = Cursor::new(data, BitPos(0), 2) else { return };
    let mut w = StreamWriter::new(b"", 2);
    while let Ok(e) = c.next_entry() {
        if matches!(e, Entry::End(_)) {
            break;
        }
        // Everything the cursor accepts, the writer can write.
        w.copy(&e).expect("a read entry can be written");
    }
});
