//! `pnacl compile`: translate a pexe once and write its image (`.pnaclo`), which
//! `pnacl run` then runs without translating.

use crate::cache::{Cache, write_atomically};
use crate::run::{read_bitcode, read_module, report_load_error};
use pnacl_codegen::Tier;
use pnacl_runtime::{EXIT_LOAD_ERROR, Image};
use std::path::PathBuf;

/// Arguments of `pnacl compile`.
#[derive(clap::Args, Debug)]
#[command(after_help = "The image holds the native code, its relocations, the function table's signatures and the \
                        globals' initial contents; it records the pnacl build and the processor features it was \
                        made for, and the pexe's hash, and it is sealed with the key in pnacl's cache directory \
                        ($XDG_CACHE_HOME/pnacl or ~/.cache/pnacl): `pnacl run` refuses an image made by another \
                        build, for another processor, or changed since.\n\n\
                        Examples:\n  pnacl compile fannkuchredux.pexe -o fannkuchredux.pnaclo\n  \
                        pnacl run fannkuchredux.pnaclo -- 10")]
pub struct Args {
    /// The pexe (or PNaClAsm text, assembled first).
    pub file: PathBuf,
    /// Where to write the image (default: FILE with the extension .pnaclo).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Translate with the baseline tier: about twice as fast to translate, code up to twice
    /// as slow (Cranelift without optimisation, single-pass register allocation).
    #[arg(long)]
    pub baseline: bool,
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    let name = args.file.display().to_string();
    let output = args.output.clone().unwrap_or_else(|| args.file.with_extension("pnaclo"));
    let result = (|| {
        let bitcode = read_bitcode(&args.file)?;
        let module = read_module(&bitcode)?;
        // Browser programs compile too (their image records that `run` refuses them).
        let tier = if args.baseline { Tier::Baseline } else { Tier::Optimizing };
        let image = Image::compile(&module, &bitcode, tier).map_err(|e| report_load_error(&name, &module, e))?;
        let key = Cache::open().and_then(|c| c.seal_key())?;
        let target = pnacl_codegen::target_features()?;
        write_atomically(&output, &image.to_bytes(&target, &key))
    })();
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("pnacl compile: {name}: {e}");
            EXIT_LOAD_ERROR
        }
    }
}
