//! The generic bitstream cursor on arbitrary bytes, and record-exact copying of what it reads.
//! Where the processor runs pext fast, a cursor gathering with it must read exactly what the
//! portable one reads, errors included; and a cursor that reads its records with the record
//! loop ([`Cursor::fast_records`]) wherever it can must read what `next_entry` reads.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pnacl_bitstream::{BitPos, Cursor, Entry, Gather, PextGather, StreamWriter};

fuzz_target!(|data: &[u8]| {
    let Ok(mut c) = Cursor::new(data, BitPos(0), 2) else { return };
    let mut pext = PextGather::available().then(|| Cursor::<PextGather>::with_gather(data, BitPos(0), 2).unwrap());
    let mut looping = Cursor::new(data, BitPos(0), 2).unwrap();
    let mut looped = std::collections::VecDeque::new();
    let mut w = StreamWriter::new(b"", 2);
    loop {
        if looped.is_empty() {
            let read = looping.fast_records::<()>(|r| {
                looped.push_back(format!("{:?}", Entry::Record(r)));
                Ok(())
            });
            read.expect("the handler refuses nothing");
            looped.push_back(match looping.next_entry() {
                Ok(e) => format!("{e:?}"),
                Err(e) => e.to_string(),
            });
        }
        let e = c.next_entry();
        let want = match &e {
            Ok(e) => format!("{e:?}"),
            Err(e) => e.to_string(),
        };
        assert_eq!(looped.pop_front(), Some(want), "the record loop read something else");
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
