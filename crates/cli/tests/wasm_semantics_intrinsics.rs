//! The suite `run_semantics_intrinsics.rs` of `pnacl run`, each program also translated by
//! `pnacl wasm --checked` and run under Node: the same output, status and trap messages
//! (see `pnacl_testutil::wasm`).

#[path = "run_semantics_intrinsics.rs"]
mod run_semantics_intrinsics;
