//! The suite `run_setjmp.rs` of `pnacl run`, each program also translated by `pnacl wasm
//! --checked` and run under Node: the same output, status and trap messages (see
//! `pnacl_testutil::wasm`).

#[path = "run_setjmp.rs"]
mod run_setjmp;
