//! LLVM's `StringMap`, reduced to what decides its iteration order.
//!
//! PNaCl's writer emits a symbol table by iterating LLVM's `ValueSymbolTable`, a
//! `StringMap`: entries come out in bucket order, which depends on the names' hashes and on
//! the table's whole history (insertion order, growth, removals that leave tombstones). To
//! write the same bytes as pnacl-freeze, this module replays that history on a model of the
//! map (LLVM 3.7 `lib/Support/StringMap.cpp`, `include/llvm/ADT/StringMap.h`; the hash is
//! Bernstein's, `HashString` in `StringExtras.h`).

/// A bucket of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bucket {
    Empty,
    Tombstone,
    /// An entry: its index in the caller's key list and its full hash.
    Item {
        key: usize,
        hash: u32,
    },
}

/// The hash LLVM 3.7 (and LLVM up to 16) uses for `StringMap` keys: h = h * 33 + byte.
pub(crate) fn bernstein(name: &[u8]) -> u32 {
    name.iter().fold(0u32, |h, &c| h.wrapping_mul(33).wrapping_add(u32::from(c)))
}

/// The bucket array of a `StringMap`, keyed by indices into the caller's list of names.
#[derive(Debug, Default)]
pub(crate) struct StringMap<'n> {
    names: Vec<&'n [u8]>,
    buckets: Vec<Bucket>,
    items: usize,
    tombstones: usize,
}

impl<'n> StringMap<'n> {
    /// An empty map (no buckets until the first insertion, as in LLVM).
    pub fn new() -> Self {
        Self::default()
    }

    /// The bucket `name` lives in, or the one an insertion would use (the first tombstone
    /// met on the probe sequence, else the empty bucket that ends it).
    fn lookup(&mut self, name: &[u8], hash: u32) -> (usize, bool) {
        if self.buckets.is_empty() {
            self.buckets = vec![Bucket::Empty; 16];
        }
        let mask = self.buckets.len() - 1;
        let mut bucket = hash as usize & mask;
        let mut probe = 1;
        let mut first_tombstone = None;
        loop {
            match self.buckets[bucket] {
                Bucket::Empty => return (first_tombstone.unwrap_or(bucket), false),
                Bucket::Tombstone => {
                    first_tombstone.get_or_insert(bucket);
                }
                Bucket::Item { key, hash: h } if h == hash && self.names[key] == name => return (bucket, true),
                Bucket::Item { .. } => {}
            }
            bucket = (bucket + probe) & mask;
            probe += 1;
        }
    }

    /// Inserts `name` (ignored if present), then grows or rehashes as LLVM does.
    pub fn insert(&mut self, name: &'n [u8]) {
        let hash = bernstein(name);
        let (bucket, found) = self.lookup(name, hash);
        if found {
            return;
        }
        if self.buckets[bucket] == Bucket::Tombstone {
            self.tombstones -= 1;
        }
        self.names.push(name);
        self.buckets[bucket] = Bucket::Item { key: self.names.len() - 1, hash };
        self.items += 1;
        self.rehash();
    }

    /// Removes `name`, leaving a tombstone, as `ValueSymbolTable::removeValueName` does.
    pub fn remove(&mut self, name: &[u8]) {
        if self.buckets.is_empty() {
            return;
        }
        let hash = bernstein(name);
        let (bucket, found) = self.lookup(name, hash);
        if found {
            self.buckets[bucket] = Bucket::Tombstone;
            self.items -= 1;
            self.tombstones += 1;
        }
    }

    /// `StringMapImpl::RehashTable`: doubles when more than 3/4 full; rebuilds in place
    /// when fewer than 1/8 of the buckets are empty (tombstones included).
    fn rehash(&mut self) {
        let size = self.buckets.len();
        let new_size = if self.items * 4 > size * 3 {
            size * 2
        } else if size - (self.items + self.tombstones) <= size / 8 {
            size
        } else {
            return;
        };
        let mut fresh = vec![Bucket::Empty; new_size];
        let mask = new_size - 1;
        for b in &self.buckets {
            if let Bucket::Item { hash, .. } = *b {
                let mut at = hash as usize & mask;
                let mut probe = 1;
                while fresh[at] != Bucket::Empty {
                    at = (at + probe) & mask;
                    probe += 1;
                }
                fresh[at] = *b;
            }
        }
        self.buckets = fresh;
        self.tombstones = 0;
    }

    /// The live names in iteration (bucket) order.
    pub fn iter(&self) -> impl Iterator<Item = &'n [u8]> + '_ {
        self.buckets.iter().filter_map(|b| match *b {
            Bucket::Item { key, .. } => Some(self.names[key]),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_order_is_hash_order_without_collisions() {
        let mut m = StringMap::new();
        for n in [b"b".as_slice(), b"a", b"c"] {
            m.insert(n);
        }
        // 'a' = 97, 'b' = 98, 'c' = 99: buckets 1, 2, 3 of 16.
        assert_eq!(m.iter().collect::<Vec<_>>(), vec![b"a".as_slice(), b"b", b"c"]);
    }

    #[test]
    fn collisions_probe_quadratically_and_tombstones_are_reused() {
        let mut m = StringMap::new();
        // "a" (97) and "q" (113) share bucket 1 of 16; the second probes to bucket 2.
        m.insert(b"a");
        m.insert(b"q");
        m.insert(b"b"); // 98 → bucket 2 taken → 3
        assert_eq!(m.iter().collect::<Vec<_>>(), vec![b"a".as_slice(), b"q", b"b"]);
        m.remove(b"a");
        m.insert(b"A"); // 65 → bucket 1, a tombstone now: reused
        assert_eq!(m.iter().collect::<Vec<_>>(), vec![b"A".as_slice(), b"q", b"b"]);
    }

    #[test]
    fn grows_past_three_quarters() {
        let names: Vec<Vec<u8>> = (0..13).map(|i| format!("n{i}").into_bytes()).collect();
        let mut m = StringMap::new();
        for n in &names {
            m.insert(n);
        }
        assert_eq!(m.buckets.len(), 32);
        assert_eq!(m.iter().count(), 13);
    }
}
