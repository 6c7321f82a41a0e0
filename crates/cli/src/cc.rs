//! `pnacl cc`: C source to a pexe. clang compiles each source for `le32-unknown-nacl` to
//! LLVM bitcode (with the flags that keep intrinsics PNaCl cannot express out), the members
//! of the C library (newlib and pnacl's platform layer, [`crate::libc`]) the program needs
//! are linked in, as a linker takes members of archives, and `simplify` does the rest.

use crate::output::{self, Content};
use crate::report::{self, Diagnostic, Failure};
use crate::{archive, libc, producer, simplify, status};
use pnacl_llvm::print::{PrintOptions, print};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Arguments of `pnacl cc`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Every argument pnacl does not know is passed to clang (-O2, -DNAME, -I DIR, -std=c11, ...).\n\n\
                        Examples:\n  pnacl cc hello.c -o hello.pexe && pnacl run hello.pexe\n  \
                        pnacl cc -O2 -DN=100 main.c util.c -o prog.pexe\n  \
                        pnacl cc -O2 prog.c --emit-llvm -o prog.ll\n  \
                        pnacl cc --clang /opt/llvm/bin/clang prog.c -o prog.pexe"
)]
pub struct Args {
    /// The pexe to write (`-` for standard output); with --emit-llvm, LLVM IR text.
    /// (May also come after the sources.)
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// The clang to run (default: clang-14 on the PATH, or /usr/lib/llvm-14/bin/clang).
    #[arg(long, value_name = "PATH")]
    pub clang: Option<PathBuf>,
    /// Write the simplified module as LLVM IR text instead of a pexe.
    #[arg(long)]
    pub emit_llvm: bool,
    /// Do not link the C library (the program brings its own `_start`).
    #[arg(long)]
    pub nostdlib: bool,
    /// Write the pexe even if it breaks the PNaCl ABI.
    #[arg(long)]
    pub no_verify: bool,
    /// Compress the pexe (as `pnacl compress` does) after checking it.
    #[arg(long)]
    pub compress: bool,
    /// Keep the names of functions and global variables in the pexe's symbol table, so that
    /// `pnacl run` names the functions of a trap's backtrace. `-g` (any level but `-g0`)
    /// implies it, and also goes to clang.
    #[arg(long)]
    pub keep_names: bool,
    /// C sources (`.c`), LLVM bitcode (`.bc`) and clang options, in any order.
    #[arg(required = true, allow_hyphen_values = true, num_args = 1.., trailing_var_arg = true)]
    pub args: Vec<OsString>,
}

/// clang options whose value is the next argument.
const TAKES_VALUE: &[&str] =
    &["-I", "-D", "-U", "-include", "-isystem", "-iquote", "-idirafter", "-x", "-Xclang", "-mllvm", "-MF", "-MT"];

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    report::finish("cc", cc(args))
}

/// A failure with no file to name: `message` with `status`.
fn failure(message: impl std::fmt::Display, status: i32) -> Failure {
    Failure::new(Diagnostic::error(None, message)).with_status(status)
}

/// The command line split into inputs and the options passed to clang.
struct CommandLine {
    output: Option<PathBuf>,
    clang: Option<PathBuf>,
    emit_llvm: bool,
    nostdlib: bool,
    no_verify: bool,
    compress: bool,
    keep_names: bool,
    /// The last `-g` option asked for debug information (not `-g0`).
    debug: bool,
    sources: Vec<PathBuf>,
    bitcode: Vec<PathBuf>,
    clang_options: Vec<OsString>,
}

fn split(raw: &[OsString]) -> Result<CommandLine, String> {
    let mut line = CommandLine {
        output: None,
        clang: None,
        emit_llvm: false,
        nostdlib: false,
        no_verify: false,
        compress: false,
        keep_names: false,
        debug: false,
        sources: Vec::new(),
        bitcode: Vec::new(),
        clang_options: Vec::new(),
    };
    let mut it = raw.iter();
    while let Some(a) = it.next() {
        let s = a.to_string_lossy();
        if s == "-o" {
            line.output = Some(PathBuf::from(it.next().ok_or("`-o` needs a file name")?));
            continue;
        }
        // pnacl's own options may come after the sources too.
        match s.as_ref() {
            "--emit-llvm" => line.emit_llvm = true,
            "--nostdlib" => line.nostdlib = true,
            "--no-verify" => line.no_verify = true,
            "--compress" => line.compress = true,
            "--keep-names" => line.keep_names = true,
            "--clang" => line.clang = Some(PathBuf::from(it.next().ok_or("`--clang` needs a path")?)),
            _ => {}
        }
        if matches!(
            s.as_ref(),
            "--emit-llvm" | "--nostdlib" | "--no-verify" | "--compress" | "--keep-names" | "--clang"
        ) {
            continue;
        }
        // Debug information asked of clang: the pexe cannot carry it, but its names it can.
        if is_debug_flag(&s) {
            line.debug = s != "-g0";
        }
        if s == "-c" || s == "-S" || s == "-emit-llvm" {
            return Err(format!("`{s}` is pnacl's to give: pnacl cc always writes a pexe to its -o"));
        }
        if s.starts_with('-') {
            line.clang_options.push(a.clone());
            if TAKES_VALUE.contains(&s.as_ref()) {
                let v = it.next().ok_or_else(|| format!("`{s}` needs a value"))?;
                line.clang_options.push(v.clone());
            }
        } else if s.ends_with(".bc") {
            line.bitcode.push(PathBuf::from(a));
        } else {
            line.sources.push(PathBuf::from(a));
        }
    }
    if line.sources.is_empty() && line.bitcode.is_empty() {
        return Err("no input files".into());
    }
    Ok(line)
}

/// True for clang's options asking for (`-g`, `-g2`, `-ggdb`, `-gdwarf-4`,
/// `-gline-tables-only`) or against (`-g0`) debug information.
fn is_debug_flag(s: &str) -> bool {
    if s.starts_with("-gline-") {
        return true;
    }
    s == "-g"
        || s.starts_with("-gdwarf")
        || s.starts_with("-ggdb")
        || (s.len() == 3 && s.starts_with("-g") && s.as_bytes()[2].is_ascii_digit())
}

/// clang-14 on the PATH, or in LLVM 14's directory.
fn find_clang(asked: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(p) = asked {
        return Ok(p.to_path_buf());
    }
    let on_path = std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|d| d.join("clang-14"))
        .find(|p| p.is_file());
    on_path.or_else(|| Some(PathBuf::from("/usr/lib/llvm-14/bin/clang")).filter(|p| p.is_file())).ok_or_else(|| {
        "clang-14 is not installed (it still targets le32-unknown-nacl): on Debian or Ubuntu, \
         `apt-get install clang-14`; or name another clang with --clang PATH"
            .to_string()
    })
}

fn cc(args: &Args) -> Result<i32, Failure> {
    let line = split(&args.args).map_err(|e| failure(e, status::USAGE))?;
    let output = args
        .output
        .clone()
        .or(line.output.clone())
        .ok_or_else(|| failure("no output file: give -o FILE", status::USAGE))?;
    let emit_llvm = args.emit_llvm || line.emit_llvm;
    output::check_target(&output, if emit_llvm { Content::Text } else { Content::Binary })?;
    let bad_input = |e: String| failure(e, status::BAD_INPUT);
    let clang = find_clang(args.clang.as_deref().or(line.clang.as_deref())).map_err(bad_input)?;
    let lib = if args.nostdlib || line.nostdlib { None } else { Some(libc::build(&clang).map_err(bad_input)?) };
    let work = tempfile::tempdir().map_err(|e| bad_input(format!("cannot create a temporary directory: {e}")))?;
    let mut user = Vec::new();
    for (k, src) in line.sources.iter().enumerate() {
        let out = work.path().join(format!("{k}.bc"));
        compile(&clang, src, &line.clang_options, lib.as_ref().map_or(&[][..], |l| &l.include[..]), &out)?;
        user.push(
            producer::read_llvm(&out).map_err(|f| Failure::input(&src.display().to_string(), f.diagnostic.message))?,
        );
    }
    for bc in &line.bitcode {
        user.push(producer::read_llvm(bc)?);
    }
    let mut modules = user;
    if let Some(lib) = &lib {
        let archives = lib.archives.iter().map(|p| archive::Archive::open(p)).collect::<Result<Vec<_>, _>>();
        let picked = archives.and_then(|a| archive::pick(&modules, &["_start"], &a)).map_err(bad_input)?;
        modules.extend(picked);
    }
    let mut m = simplify::link(modules)?;
    let name = line.sources.first().or(line.bitcode.first()).expect("an input").display().to_string();
    simplify::run_passes(&mut m, &pnacl_passes::pipeline::simplify_passes(), &[])
        .map_err(|e| Failure::input(&name, e))?;
    if emit_llvm {
        let text = print(&m, &PrintOptions { opaque_pointers: true });
        output::write(&output, Content::Text, text.as_bytes())?;
        return Ok(status::SUCCESS);
    }
    let keep_names = args.keep_names || line.keep_names || line.debug;
    let bytes = simplify::finalize("cc", &mut m, &name, args.no_verify || line.no_verify, keep_names)?;
    let bytes = if args.compress || line.compress { producer::compress_bytes(&bytes, &name)? } else { bytes };
    output::write(&output, Content::Binary, &bytes)?;
    Ok(status::SUCCESS)
}

/// Compiles one source to bitcode.
fn compile(clang: &Path, src: &Path, options: &[OsString], include: &[PathBuf], out: &Path) -> Result<(), Failure> {
    let mut cmd = Command::new(clang);
    // The user's options first: a later `-O2` turns the vectorizers back on, so pnacl's
    // flags (which have no optimisation level) come after them.
    cmd.args(options);
    cmd.args(libc::clang_flags());
    for dir in include {
        cmd.arg("-isystem").arg(dir);
    }
    cmd.arg(src).arg("-o").arg(out);
    let name = src.display().to_string();
    let status = cmd.status().map_err(|e| Failure::input(&name, format!("{}: {e}", clang.display())))?;
    if !status.success() {
        return Err(Failure::input(&name, format!("clang failed ({status})")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::is_debug_flag;

    #[test]
    fn debug_flags_are_recognised() {
        for f in ["-g", "-g0", "-g1", "-g3", "-ggdb", "-ggdb3", "-gdwarf-4", "-gline-tables-only"] {
            assert!(is_debug_flag(f), "{f}");
        }
        for f in ["-gc", "-gsplit-dwarf-x", "-O2", "-grecord", "-G0", "-g12"] {
            assert!(!is_debug_flag(f), "{f}");
        }
    }
}
