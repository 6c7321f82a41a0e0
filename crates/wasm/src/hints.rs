//! V8's compilation hints: which functions V8 compiles with its optimizing compiler
//! (TurboFan) from their first call.
//!
//! V8 first compiles every wasm function with its baseline compiler (Liftoff), and a
//! function that runs long enough is compiled again by TurboFan, for its next call: V8
//! has no on-stack replacement for wasm. So a function called once, such as a benchmark's
//! `main` with its loops inside, runs in baseline code to the end. Profiles of Google's
//! pexes under Node 20 showed it: in mandelbrot, nbody and fannkuchredux most samples sat
//! in `main`'s Liftoff code.
//!
//! The custom section `compilationHints` (read by V8 behind the flag
//! `--experimental-wasm-compilation-hints`, which the Node host sets while it compiles;
//! `module-decoder-impl.h`) gives one byte per defined function: bits 0-1 the strategy
//! (0 default, 1 lazy), bits 2-3 the first tier and bits 4-5 the top tier (0 default,
//! 2 optimized). A function that is likely to run long per call and to be called from few
//! places gets "lazy, optimized from the start"; every other function gets the default.
//! Browsers ignore the section.
//!
//! Likely to run long per call: loops nested [`MIN_LOOP_NESTING`] deep. Called from few
//! places: at most [`MAX_CALL_SITES`] direct calls in the module (a function called
//! often reaches TurboFan by itself). TurboFan costs about 1.5 ms per KB of code here
//! when the function is first called, so a function larger than [`MAX_SIZE`] keeps the
//! default, and so does the entry point, whose loops only walk the start-up block.

use crate::function::{Body, call_sites};
use crate::module::Env;
use wasm_encoder::{CustomSection, Encode};

/// The hint "compile lazily, with TurboFan from the first call".
const OPTIMIZED_FROM_FIRST_CALL: u8 = 0b10_10_01;
/// The hint "as V8 would without hints".
const DEFAULT: u8 = 0;
/// The loop nesting from which a function is taken to run long per call.
const MIN_LOOP_NESTING: u32 = 2;
/// The most direct call sites a hinted function may have.
const MAX_CALL_SITES: u32 = 2;
/// The largest body hinted, in bytes of code.
const MAX_SIZE: usize = 2048;

/// The `compilationHints` section of a module whose defined functions have `bodies` (in
/// order, from the first defined function's wasm index), `entry` is the entry point's
/// module function and `declared` functions are defined in all (helpers included).
pub(crate) fn section(env: &Env<'_>, bodies: &[Body], entry: u32, declared: u32) -> CustomSection<'static> {
    let first = env.first_defined();
    let sites = call_sites(bodies, first);
    let entry = env.function_index(entry);
    let mut data = Vec::with_capacity(declared as usize + 5);
    declared.encode(&mut data);
    for k in 0..declared {
        let hot = bodies.get(k as usize).is_some_and(|b| {
            b.loop_nesting >= MIN_LOOP_NESTING
                && sites[k as usize] <= MAX_CALL_SITES
                && b.code.len() <= MAX_SIZE
                && first + k != entry
        });
        data.push(if hot { OPTIMIZED_FROM_FIRST_CALL } else { DEFAULT });
    }
    CustomSection { name: "compilationHints".into(), data: data.into() }
}
