//! The suite `run_unroll.rs` of `pnacl run` (loops the optimizing tier unrolls), each
//! program also translated by `pnacl wasm --checked` and run under Node (see
//! `pnacl_testutil::wasm`).

#[path = "run_unroll.rs"]
mod run_unroll;
