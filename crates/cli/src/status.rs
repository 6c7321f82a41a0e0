//! The exit statuses of `pnacl`, one meaning each, the same for every subcommand.
//!
//! `pnacl run` ends with its guest's own status when the guest runs, so its own failures
//! use statuses at the top of the range, as `env`, `nohup` and container runners do.

/// Success.
pub const SUCCESS: i32 = 0;
/// Bad input: a file that cannot be read, is malformed or does not assemble, or an output
/// that cannot be written.
pub const BAD_INPUT: i32 = 1;
/// Usage error: the command line is wrong (clap's own status for its errors).
pub const USAGE: i32 = 2;
/// Check violations: the input reads, but breaks the PNaCl ABI (`check`; `finalize`,
/// `simplify`, `cc` and `compile` refuse to write such a pexe).
pub const VIOLATIONS: i32 = 3;
/// Internal error: pnacl's own output does not read back as it should (a bug in pnacl).
pub const INTERNAL: i32 = 4;
/// `pnacl run`: the pexe cannot be loaded (unreadable, not ABI-clean, no `_start`, an image
/// that is stale, for another processor or changed).
pub const LOAD_ERROR: i32 = pnacl_runtime::EXIT_LOAD_ERROR;
/// `pnacl run`: unsupported, a browser (PPAPI) pexe.
pub const UNSUPPORTED: i32 = pnacl_runtime::EXIT_UNSUPPORTED;
/// `pnacl run`: the guest trapped (the runtime ends the process with it).
#[cfg(test)]
pub const TRAP: i32 = pnacl_runtime::EXIT_TRAP;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_distinct() {
        let all = [SUCCESS, BAD_INPUT, USAGE, VIOLATIONS, INTERNAL, LOAD_ERROR, UNSUPPORTED, TRAP];
        for (i, a) in all.iter().enumerate() {
            assert!(!all[i + 1..].contains(a), "{a} twice");
        }
    }
}
