//! The module's `pnacl` custom section: what the JavaScript host needs to know about it,
//! as a JSON object.
//!
//! - `format`: 1.
//! - `functions`: the number of module functions; the IRT's functions follow them in the
//!   table, in import order.
//! - `entry`: the entry point's name; `shared`: the memory is shared (the program may
//!   start threads); `browser`: a browser (PPAPI) program.
//! - `initial_pages`, `maximum_pages`: the memory's limits (64 KiB pages).
//! - `data_end`, `stack_bottom`, `stack_top`: the end of the globals and the main
//!   thread's stack; the heap starts at `stack_top`.
//! - `traps`: the helper functions that trap, by function index, with the message of
//!   their trap (the function named in it is their caller).
//! - `transparent`: helper functions whose traps keep wasm's message but name their
//!   caller.

use crate::module::{Env, Helper};
use std::fmt::Write;

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The metadata of a module.
pub(crate) fn metadata(env: &Env<'_>, entry: u32) -> String {
    let (shared, browser) = (env.shared, env.browser);
    let l = &env.layout;
    let mut traps = Vec::new();
    for h in Helper::ALL {
        if let Some(m) = h.trap_message() {
            traps.push(format!("\"{}\":{}", env.helper(h), json_string(m)));
        }
    }
    let mut transparent: Vec<String> =
        Helper::ALL.iter().filter(|h| h.is_transparent()).map(|&h| env.helper(h).to_string()).collect();
    // The adapters, whose call_indirect traps are their callers'.
    transparent.extend(env.adapters.iter().map(|(_, index)| index.to_string()));
    format!(
        "{{\"format\":1,\"functions\":{},\"entry\":{},\"shared\":{shared},\"browser\":{browser},\
         \"initial_pages\":{},\"maximum_pages\":{},\"data_end\":{},\"stack_bottom\":{},\"stack_top\":{},\
         \"traps\":{{{}}},\"transparent\":[{}]}}",
        env.m.functions.len(),
        json_string(&env.names[entry as usize]),
        env.initial_pages(),
        env.maximum_pages(),
        l.data_end,
        l.stack_bottom,
        l.stack_top,
        traps.join(","),
        transparent.join(",")
    )
}
