//! `pnacl simplify`: link LLVM bitcode files, run PNaCl's ABI simplification passes
//! (`pnacl-abi-simplify-preopt`, the dead-code cleanup, `-postopt`), then finalize: strip,
//! freeze and check. It never writes a pexe that fails `pnacl check`.

use crate::{output, producer};
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
    /// LLVM bitcode files (clang's `-emit-llvm -c` output), linked into one module.
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
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    match simplify(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("pnacl simplify: {e}");
            1
        }
    }
}

fn simplify(args: &Args) -> Result<(), String> {
    let passes: Vec<&dyn Pass> = match &args.passes {
        Some(names) => pipeline::by_names(names.iter().map(String::as_str))
            .map_err(|n| format!("unknown pass `{n}` (known: {})", known_passes()))?,
        None => pipeline::simplify_passes(),
    };
    for p in &args.print_after {
        if pnacl_passes::lookup(p).is_none() {
            return Err(format!("--print-after: unknown pass `{p}` (known: {})", known_passes()));
        }
    }
    let mut m = link_inputs(&args.inputs)?;
    let module_name = args.inputs[0].display().to_string();
    run_passes(&mut m, &passes, &args.print_after).map_err(|e| format!("{module_name}: {e}"))?;
    if args.emit_llvm {
        let text = print(&m, &PrintOptions { opaque_pointers: true });
        return output::write_file(&args.output, text.as_bytes())
            .map_err(|e| format!("{}: {e}", args.output.display()));
    }
    let bytes = finalize(&mut m, &module_name, args.no_verify)?;
    output::write_file(&args.output, &bytes).map_err(|e| format!("{}: {e}", args.output.display()))
}

/// Reads and links `inputs` (in order: the first defines the module's identity).
pub fn link_inputs(inputs: &[PathBuf]) -> Result<Module, String> {
    let modules = inputs
        .iter()
        .map(|p| producer::read_llvm(p).map_err(|e| format!("{}: {e}", p.display())))
        .collect::<Result<Vec<_>, _>>()?;
    pnacl_passes::link::link(modules).map_err(|e| format!("link: {e}"))
}

/// Runs `passes`, printing the module on stderr after each pass named in `print_after`.
pub fn run_passes(m: &mut Module, passes: &[&dyn Pass], print_after: &[String]) -> Result<(), String> {
    pipeline::run(m, passes, |name, m| {
        if print_after.iter().any(|p| p == name) {
            eprintln!("; *** module after {name} ***");
            eprint!("{}", print(m, &PrintOptions { opaque_pointers: true }));
        }
    })
    .map_err(|e| e.to_string())
}

/// Strips, freezes and (unless `no_verify`) checks the simplified module.
pub fn finalize(m: &mut Module, name: &str, no_verify: bool) -> Result<Vec<u8>, String> {
    pnacl_passes::strip::strip(m);
    let options = FreezeOptions::default();
    let bytes = producer::freeze_bytes(m, None, &options).map_err(|e| format!("{name}: {e}"))?;
    if !no_verify {
        let violations = producer::check_bytes(&bytes, name)?;
        if !violations.is_empty() {
            let mut msg = violations.join("\n");
            msg.push_str(&format!(
                "\n{name}: the simplified module breaks the PNaCl ABI ({} violations); nothing written",
                violations.len()
            ));
            return Err(msg);
        }
    }
    Ok(bytes)
}

fn known_passes() -> String {
    pnacl_passes::all().iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
}
