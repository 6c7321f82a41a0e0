//! `pnacl simplify`: link LLVM bitcode files, run PNaCl's ABI simplification passes
//! (`pnacl-abi-simplify-preopt`, the dead-code cleanup, `-postopt`), then finalize: strip,
//! freeze and check. It never writes a pexe that fails `pnacl check`.

use crate::output::{self, Content};
use crate::report::{self, Diagnostic, Failure};
use crate::{producer, status};
use pnacl_convert::freeze::FreezeOptions;
use pnacl_llvm::Module;
use pnacl_llvm::print::{PrintOptions, print};
use pnacl_passes::{Pass, pipeline};
use std::path::PathBuf;

/// Arguments of `pnacl simplify`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  pnacl simplify prog.bc libc.bc -o prog.pexe\n  \
                        pnacl simplify prog.bc --emit-llvm -o prog.ll\n  \
                        pnacl simplify prog.bc --passes expand-varargs,expand-gep --emit-llvm -o -\n  \
                        pnacl simplify prog.bc --print-after expand-struct-regs -o prog.pexe")]
pub struct Args {
    /// LLVM bitcode files (clang's `-emit-llvm -c` output), linked into one module (`-`
    /// for standard input).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The pexe (or, with --emit-llvm, the LLVM IR text) to write; `-` for standard output.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Write the simplified module as LLVM IR text (opaque pointers) instead of a pexe.
    #[arg(long)]
    pub emit_llvm: bool,
    /// Print the module as LLVM IR on standard error after the named pass (repeatable).
    #[arg(long, value_name = "PASS")]
    pub print_after: Vec<String>,
    /// Run only these passes, comma-separated, in order, instead of the whole pipeline
    /// (no linking-time internalization unless listed; the result is still finalized).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub passes: Option<Vec<String>>,
    /// Write the pexe even if it breaks the PNaCl ABI.
    #[arg(long)]
    pub no_verify: bool,
    /// Compress the pexe (as `pnacl compress` does) after checking it.
    #[arg(long)]
    pub compress: bool,
    /// Keep the names of functions and global variables in the pexe's symbol table (as
    /// `pnacl-finalize --no-strip-syms` did), so that `pnacl run` names functions in traps.
    #[arg(long, visible_alias = "no-strip-syms")]
    pub keep_names: bool,
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    report::finish("simplify", simplify(args))
}

fn simplify(args: &Args) -> Result<i32, Failure> {
    let usage = |message: String| Failure::new(Diagnostic::error(None, message)).with_status(status::USAGE);
    let passes: Vec<&dyn Pass> = match &args.passes {
        Some(names) => pipeline::by_names(names.iter().map(String::as_str))
            .map_err(|n| usage(format!("unknown pass `{n}` (known: {})", known_passes())))?,
        None => pipeline::simplify_passes(),
    };
    for p in &args.print_after {
        if pnacl_passes::lookup(p).is_none() {
            return Err(usage(format!("--print-after: unknown pass `{p}` (known: {})", known_passes())));
        }
    }
    let content = if args.emit_llvm { Content::Text } else { Content::Binary };
    output::check_target(&args.output, content)?;
    let mut m = link_inputs(&args.inputs)?;
    let module_name = output::input_name(&args.inputs[0]);
    let had_start = defines_start(&m);
    run_passes(&mut m, &passes, &args.print_after).map_err(|e| Failure::input(&module_name, e))?;
    if !had_start && !args.emit_llvm && m.functions.is_empty() {
        return Err(Failure::input(
            &module_name,
            "nothing defines `_start`, the entry point and only symbol a pexe exports, so every function \
             was removed as unused (link the module that defines it; `pnacl cc` links pnacl's C library, \
             which does)",
        ));
    }
    if args.emit_llvm {
        let text = print(&m, &PrintOptions { opaque_pointers: true });
        output::write(&args.output, Content::Text, text.as_bytes())?;
        return Ok(status::SUCCESS);
    }
    let bytes = finalize("simplify", &mut m, &module_name, args.no_verify, args.keep_names)?;
    let bytes = if args.compress { producer::compress_bytes(&bytes, &module_name)? } else { bytes };
    output::write(&args.output, Content::Binary, &bytes)?;
    Ok(status::SUCCESS)
}

/// Reads and links `inputs` (in order: the first defines the module's identity).
pub fn link_inputs(inputs: &[PathBuf]) -> Result<Module, Failure> {
    let modules = inputs.iter().map(|p| producer::read_llvm(p)).collect::<Result<Vec<_>, _>>()?;
    link(modules)
}

/// Links `modules` into one, and fits the start-up code's call of `main` to the `main`
/// defined ([`pnacl_passes::call_main`]).
pub fn link(modules: Vec<Module>) -> Result<Module, Failure> {
    let mut m =
        pnacl_passes::link::link(modules).map_err(|e| Failure::new(Diagnostic::error(None, format!("link: {e}"))))?;
    pnacl_passes::call_main::fit_calls_to_main(&mut m);
    Ok(m)
}

/// Runs `passes`, printing the module on stderr after each pass named in `print_after`.
pub fn run_passes(m: &mut Module, passes: &[&dyn Pass], print_after: &[String]) -> Result<(), String> {
    pipeline::run(m, passes, |name, m| {
        if print_after.iter().any(|p| p == name) {
            report::eprint_line(&format!("; *** module after {name} ***"));
            report::eprint(&print(m, &PrintOptions { opaque_pointers: true }));
        }
    })
    .map_err(|e| e.to_string())
}

/// Strips (all names, or with `keep_names` all but those of functions and global
/// variables), freezes and (unless `no_verify`) checks the simplified module made from `name`,
/// for `command`; a pexe that would break the ABI fails with
/// [`crate::status::VIOLATIONS`], each violation reported.
///
/// The type table is ordered as the SDKs' `pnacl-finalize` ordered it (the 2015 writer,
/// whose order the Pepper 49 SDK's part2 pexe has): elided casts count nothing. A pexe
/// keeps no cast, so with this rule the module `pnacl thaw` gives back freezes into the
/// same pexe; with the last writer's rule, the casts the passes left (one `ptrtoint` per
/// use of an `alloca`) would be counted, and thaw's cannot be the same ones.
pub fn finalize(
    command: &str,
    m: &mut Module,
    name: &str,
    no_verify: bool,
    keep_names: bool,
) -> Result<Vec<u8>, Failure> {
    if !no_verify {
        pnacl_convert::freeze::respell_intrinsics(m);
        refuse_foreign_intrinsics(m).map_err(|e| Failure::input(name, e))?;
    }
    // Stripping removes the names a refusal would be reported with: keep them for that.
    let named = m.clone();
    if keep_names {
        pnacl_passes::strip::strip_keeping_names(m);
    } else {
        pnacl_passes::strip::strip(m);
    }
    let options = FreezeOptions { writer: pnacl_convert::freeze::Writer::Pnacl2015, ..FreezeOptions::default() };
    let bytes = producer::freeze_bytes(m, None, &options).map_err(|e| {
        let mut named = named;
        let named_error = producer::freeze_bytes(&mut named, None, &options).err();
        Failure::input(name, named_error.unwrap_or(e))
    })?;
    if !no_verify {
        producer::check_bytes(command, &bytes, name)?;
    }
    Ok(bytes)
}

/// True if `m` defines a function named `_start`.
fn defines_start(m: &Module) -> bool {
    m.functions.iter().any(|f| f.props.name == "_start" && !f.is_declaration())
}

fn known_passes() -> String {
    pnacl_passes::all().iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
}

/// Refuses a call to a function nothing defines, or to an LLVM intrinsic that PNaCl does
/// not have (the passes expand every one they know): `pnacl check` would refuse both later,
/// without naming the caller.
fn refuse_foreign_intrinsics(m: &Module) -> Result<(), String> {
    for caller in &m.functions {
        for (_, id) in caller.layout() {
            let pnacl_llvm::ir::InstKind::Call { callee, .. } = &caller.inst(id).kind else { continue };
            let Some(f) = m.as_function(*callee) else { continue };
            let name = &m.functions[f.0 as usize].props.name;
            if !name.starts_with("llvm.") && m.functions[f.0 as usize].is_declaration() {
                return Err(format!(
                    "function @{}: calls @{name}, which no input defines (and pnacl's C library does not have it)",
                    caller.props.name
                ));
            }
            if name.starts_with("llvm.") && pnacl_bitcode::abi::intrinsic(name.as_bytes()).is_none() {
                return Err(format!(
                    "function @{}: call to @{name}: this intrinsic is not part of PNaCl and no pass expands it",
                    caller.props.name
                ));
            }
        }
    }
    Ok(())
}
