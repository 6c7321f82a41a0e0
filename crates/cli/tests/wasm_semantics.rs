//! The integer semantics suite of `pnacl run` (`run_semantics.rs`), each program also
//! translated by `pnacl wasm --checked` and run under Node: the same output, status and
//! trap messages (see `pnacl_testutil::wasm`).

#[path = "run_semantics.rs"]
mod run_semantics;
