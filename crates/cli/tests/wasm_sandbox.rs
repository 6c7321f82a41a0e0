//! The suite `run_sandbox.rs` of `pnacl run`, each program run without options also
//! translated by `pnacl wasm --checked` and run under Node: the same status and trap
//! messages (see `pnacl_testutil::wasm`, which lists the programs whose behaviour differs).

#[path = "run_sandbox.rs"]
mod run_sandbox;
