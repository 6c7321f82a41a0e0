//! The hash maps of the model's interning tables and of the maps keyed by ids.
//!
//! The standard library's SipHash resists collision attacks on servers; here it only cost
//! time (a fifth of `pnacl freeze`'s, interning types and constants and numbering values).
//! These use rustc's FxHash (the `rustc-hash` crate): a hostile file can at worst make its
//! own reading slower. Nothing iterates them where the order would reach the output.

/// A `HashMap` hashed with FxHash.
pub type FastMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// A `HashSet` hashed with FxHash.
pub type FastSet<K> = rustc_hash::FxHashSet<K>;
