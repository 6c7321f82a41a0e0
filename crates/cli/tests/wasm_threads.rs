//! The suite `run_threads.rs` of `pnacl run`, each program also translated by `pnacl wasm
//! --checked` and run under Node: the same output, status and trap messages (see
//! `pnacl_testutil::wasm`).

#[path = "run_threads.rs"]
mod run_threads;
