//! Hardening: thousands of deterministic mutations of every corpus pexe. The reader must
//! return `Ok` or `Err` for each, never panic.
//!
//! Mutations are seeded per file, so a failure names the file and the seed that reproduces
//! it. Files are spread over threads to keep the run short.

use pnacl_bitcode::{Module, ReadError, ReadOptions, read_with};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Applies one to four random edits: bit flips, byte overwrites, small integers written at
/// word positions (to hit counts and lengths), truncation, and copying a range elsewhere.
fn mutate(data: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut d = data.to_vec();
    for _ in 0..1 + rng.below(4) {
        let len = d.len();
        match rng.below(6) {
            0 => {
                let bit = rng.below(len * 8);
                d[bit / 8] ^= 1 << (bit % 8);
            }
            1 => {
                let i = rng.below(len);
                d[i] = rng.next() as u8;
            }
            2 => {
                let i = rng.below(len / 4) * 4;
                let v = [0u32, 1, 2, 0xff, 0xffff, 0x7fff_ffff, 0xffff_ffff][rng.below(7)];
                d[i..i + 4].copy_from_slice(&v.to_le_bytes());
            }
            3 => {
                let keep = (rng.below(len / 4) * 4).max(4);
                d.truncate(keep);
            }
            4 => {
                let a = rng.below(len);
                let b = rng.below(len);
                let n = rng.below(64).min(len - a).min(len - b);
                let chunk = d[a..a + n].to_vec();
                d[b..b + n].copy_from_slice(&chunk);
            }
            _ if len > 16 => {
                // Keep the header intact and flip a bit near the start of the stream, where
                // the structural records live.
                let bit = 16 * 8 + rng.below((len - 16).min(512) * 8);
                d[bit / 8] ^= 1 << (bit % 8);
            }
            _ => {}
        }
    }
    d
}

/// How two reads of the same input differ, if they do: a different module, or a different
/// error.
fn differs(a: &Result<Module, ReadError>, b: &Result<Module, ReadError>) -> Option<String> {
    match (a, b) {
        (Ok(a), Ok(b)) if a.same_contents(b) => None,
        (Err(a), Err(b)) if a.pos == b.pos && a.message == b.message => None,
        _ => Some(format!(
            "{:?} vs {:?}",
            a.as_ref().map(|_| ()).map_err(|e| e.to_string()),
            b.as_ref().map(|_| ()).map_err(|e| e.to_string())
        )),
    }
}

#[test]
fn mutated_corpus_pexes_never_panic() {
    let files = pnacl_testutil::pexes();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(8);
    let chunks: Vec<Vec<_>> = (0..threads).map(|t| files.iter().skip(t).step_by(threads).cloned().collect()).collect();
    let results: Vec<(usize, usize, Vec<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                s.spawn(move || {
                    let mut total = 0;
                    let mut rejected = 0;
                    let mut failures = Vec::new();
                    for e in chunk {
                        let data = std::fs::read(e.path()).unwrap();
                        // Small files get more mutations; every file gets thousands.
                        let count = if data.len() <= 256 * 1024 { 4000 } else { 2000 };
                        for i in 0..count {
                            let seed = 0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1) ^ ((data.len() as u64) << 32);
                            let input = mutate(&data, &mut Rng(seed));
                            // Both strictness modes, the deferred one on every other input.
                            for defer_abi in [false, true].into_iter().take(1 + i % 2) {
                                let opts = ReadOptions { defer_abi, positions: true, ..ReadOptions::default() };
                                let r = catch_unwind(AssertUnwindSafe(|| {
                                    read_with(&input, opts, &mut pnacl_bitcode::NoListener).is_ok()
                                }));
                                match r {
                                    Ok(ok) => rejected += usize::from(!ok),
                                    Err(_) => failures.push(format!("{} seed {seed:#x} defer_abi {defer_abi}", e.file)),
                                }
                                total += 1;
                                // The parallel reader, and the portable decoder where
                                // pext is used, find the same module or the same (first)
                                // error, on a sample.
                                if i % 16 == 0 {
                                    let portable = ReadOptions { portable_decoding: true, ..opts };
                                    let same = catch_unwind(AssertUnwindSafe(|| {
                                        let seq = read_with(&input, opts, &mut pnacl_bitcode::NoListener);
                                        let par = pnacl_bitcode::read_parallel(&input, opts);
                                        let port = read_with(&input, portable, &mut pnacl_bitcode::NoListener);
                                        [("parallel", par), ("portable", port)].into_iter().find_map(|(how, other)| {
                                            differs(&seq, &other).map(|d| format!("{how}: {d}"))
                                        })
                                    }));
                                    match same {
                                        Ok(None) => {}
                                        Ok(Some(d)) => {
                                            failures.push(format!("{} seed {seed:#x}: read differs, {d}", e.file))
                                        }
                                        Err(_) => failures.push(format!(
                                            "{} seed {seed:#x}: parallel or portable read panicked",
                                            e.file
                                        )),
                                    }
                                }
                            }
                        }
                    }
                    (total, rejected, failures)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("mutation thread")).collect()
    });
    let total: usize = results.iter().map(|r| r.0).sum();
    let rejected: usize = results.iter().map(|r| r.1).sum();
    let failures: Vec<_> = results.into_iter().flat_map(|r| r.2).collect();
    assert!(
        failures.is_empty(),
        "the reader panicked on {} of {total} inputs:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Most mutations must be caught; a reader that accepted everything would be useless.
    assert!(rejected * 2 > total, "only {rejected} of {total} mutated inputs were rejected");
    eprintln!("{total} mutated inputs, {rejected} rejected, no panics");
}
