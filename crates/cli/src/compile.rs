//! `pnacl compile`: translate a pexe once and write its image (`.pnaclo`), which
//! `pnacl run` then runs without translating.

use crate::cache::Cache;
use crate::input::{self, Expect};
use crate::output::{self, Content};
use crate::report::{self, Failure};
use crate::run::{bitcode_of, read_module, report_load_error};
use crate::status;
use pnacl_codegen::Tier;
use pnacl_runtime::{Image, LoadError};
use std::path::PathBuf;

/// Arguments of `pnacl compile`.
#[derive(clap::Args, Debug)]
#[command(after_help = "The image holds the native code, its relocations, the function table's signatures and the \
                        globals' initial contents; it records the pnacl build and the processor features it was \
                        made for, and the pexe's hash, and it is sealed with the key in pnacl's cache directory \
                        ($XDG_CACHE_HOME/pnacl or ~/.cache/pnacl): `pnacl run` refuses an image made by another \
                        build, for another processor, or changed since, and one another key sealed unless given \
                        --allow-precompiled. An image is native code: whoever holds the key can run code as you \
                        (see `pnacl cache --help`).\n\n\
                        Exit status: 0, 1 for bad input, 3 for a pexe that is not ABI-clean (each violation is \
                        reported).\n\n\
                        Examples:\n  pnacl compile fannkuchredux.pexe -o fannkuchredux.pnaclo\n  \
                        pnacl run fannkuchredux.pnaclo 10")]
pub struct Args {
    /// The pexe (or PNaClAsm text, assembled first; `-` for standard input).
    pub file: PathBuf,
    /// Where to write the image (default: FILE with the extension .pnaclo; standard output
    /// for standard input).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Translate with the baseline tier: about twice as fast to translate, code up to twice
    /// as slow (Cranelift without optimisation, single-pass register allocation).
    #[arg(long)]
    pub baseline: bool,
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    report::finish("compile", compile(args))
}

fn compile(args: &Args) -> Result<i32, Failure> {
    let name = output::input_name(&args.file);
    let target_file = match &args.output {
        Some(o) => o.clone(),
        None if output::is_stdio(&args.file) => "-".into(),
        None => args.file.with_extension("pnaclo"),
    };
    output::check_target(&target_file, Content::Binary)?;
    let bitcode = bitcode_of(&args.file, input::read(&args.file, Expect::Program)?)?;
    let module = read_module(&args.file, &bitcode)?;
    // Browser programs compile too (their image records that `run` refuses them).
    let tier = if args.baseline { Tier::Baseline } else { Tier::Optimizing };
    let image = Image::compile(&module, &bitcode, tier).map_err(|e| {
        let violations = matches!(e, LoadError::NotAbiClean(_));
        let failure = report_load_error("compile", &name, &module, e);
        failure.with_status(if violations { status::VIOLATIONS } else { status::BAD_INPUT })
    })?;
    let failed = |e: String| Failure::input(&name, e);
    let key =
        Cache::open().and_then(|c| c.seal_key()).map_err(|why| failed(format!("cannot seal the image: {why}")))?;
    let target = pnacl_codegen::target_features().map_err(failed)?;
    output::write_with(&target_file, Content::Binary, |out| image.write_to(&target, &key, out))?;
    // The process ends here: freeing the IR and the image piece by piece (a large program's
    // are hundreds of thousands of allocations) would only delay that, as clang's
    // -disable-free knows.
    std::mem::forget((module, image));
    Ok(status::SUCCESS)
}
