//! `pnacl cc`: C source to a pexe, used as a C compiler is. clang compiles each source for
//! `le32-unknown-nacl` to LLVM bitcode (with the flags that keep intrinsics PNaCl cannot
//! express out): with `-c` that bitcode is the object written; otherwise the objects,
//! archives and sources given are linked with the members of the C library (newlib and
//! pnacl's platform layer, [`crate::libc`]) they need, as a linker takes members of
//! archives, and `simplify` does the rest.

mod command_line;
mod inputs;

use crate::output::{self, Content};
use crate::report::{self, Diagnostic, Failure};
use crate::{archive, libc, producer, simplify, status};
use command_line::{CommandLine, Mode, has_option, split, wants_dependencies};
use inputs::Kind;
use pnacl_llvm::Module;
use pnacl_llvm::print::{PrintOptions, print};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Arguments of `pnacl cc`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Used as cc is: -c writes an LLVM bitcode object of each source (a.c to a.o, or -o FILE \
                  for one source), -E the preprocessed source (-M, -MM: its dependencies); otherwise the \
                  sources, objects (.o, .bc) and \
                  archives (.a; -lNAME finds libNAME.a in the -L directories) given are linked with the C \
                  library into a pexe (-o FILE, a.out by default). Archive members are taken as a linker \
                  takes them: those defining a symbol still undefined. -lm, -lc, -lpthread, -lrt and -ldl \
                  are part of the C library, always linked. Every symbol nothing defines is reported with \
                  the files that use it, every symbol two files define with those files, and nothing is \
                  written.\n\n\
                  Every other option goes to clang (-O2, -DNAME, -I DIR, -std=c11, -Wall, -MD, -MMD, -MF \
                  FILE, -MT, -MP, ...); -fPIC, -static, -s, -pipe and -pthread are accepted and mean nothing \
                  for a pexe; linker options (-Wl,...) are ignored with a warning.\n\n\
                  Examples:\n  \
                  pnacl cc hello.c -o hello.pexe && pnacl run hello.pexe\n  \
                  pnacl cc -O2 -DN=100 main.c util.c -o prog.pexe\n  \
                  pnacl cc -O2 -c util.c && pnacl ar rcs libutil.a util.o\n  \
                  pnacl cc -O2 main.c -L. -lutil -lm -o prog.pexe\n  \
                  make CC='pnacl cc' AR='pnacl ar'\n  \
                  pnacl cc -O2 prog.c --emit-llvm -o prog.ll\n  \
                  pnacl cc --clang /opt/llvm/bin/clang prog.c -o prog.pexe")]
pub struct Args {
    /// The file to write (`-` for standard output): the pexe (`a.out` if not given); with
    /// --emit-llvm, LLVM IR text; with -c, the object of the one source. (May also come
    /// after the sources.)
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// The clang to run (default: clang-14 on the PATH, or /usr/lib/llvm-14/bin/clang).
    #[arg(long, value_name = "PATH")]
    pub clang: Option<PathBuf>,
    /// Write the simplified module as LLVM IR text instead of a pexe.
    #[arg(long)]
    pub emit_llvm: bool,
    /// Do not link the C library, nor compile with its headers (the program brings its own
    /// `_start`).
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
    /// C sources, LLVM bitcode objects (`.o`, `.bc`), archives (`.a`), `-c`, `-E`, `-L DIR`,
    /// `-lNAME` and clang options, in any order.
    #[arg(required = true, allow_hyphen_values = true, num_args = 1.., trailing_var_arg = true)]
    pub args: Vec<OsString>,
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    report::finish("cc", cc(args))
}

/// A failure with no file to name: `message` with `status`.
fn failure(message: impl std::fmt::Display, status: i32) -> Failure {
    Failure::new(Diagnostic::error(None, message)).with_status(status)
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
    let mut line = split(&args.args).map_err(|e| failure(e, status::USAGE))?;
    line.output = args.output.clone().or(line.output);
    line.emit_llvm |= args.emit_llvm;
    line.nostdlib |= args.nostdlib;
    line.no_verify |= args.no_verify;
    line.compress |= args.compress;
    line.keep_names |= args.keep_names || line.debug;
    line.clang = args.clang.clone().or(line.clang);
    let clang = find_clang(line.clang.as_deref()).map_err(|e| failure(e, status::BAD_INPUT))?;
    match line.mode {
        Mode::Compile => compile_objects(&line, &clang),
        Mode::Preprocess => preprocess(&line, &clang),
        Mode::Link => link_program(&line, &clang),
    }
}

/// The C library, unless `--nostdlib`.
fn library(line: &CommandLine, clang: &Path) -> Result<Option<libc::Built>, Failure> {
    if line.nostdlib {
        return Ok(None);
    }
    libc::build(clang).map(Some).map_err(|e| failure(e, status::BAD_INPUT))
}

/// A temporary directory for clang's output.
fn work_dir() -> Result<tempfile::TempDir, Failure> {
    tempfile::tempdir().map_err(|e| failure(format!("cannot create a temporary directory: {e}"), status::BAD_INPUT))
}

/// `-c`: each source compiled to an object, `SOURCE.o` in the current directory or `-o`'s
/// file for one source. Objects and archives given are not used, as cc says.
fn compile_objects(line: &CommandLine, clang: &Path) -> Result<i32, Failure> {
    let mut sources = Vec::new();
    for input in &line.inputs {
        let (name, source) = match input {
            command_line::Input::File(path) => {
                let kind = inputs::kind(path).map_err(|e| failure(e, status::BAD_INPUT))?;
                (path.display().to_string(), (kind == Kind::Source).then_some(path))
            }
            command_line::Input::Library(name) => (format!("-l{name}"), None),
        };
        match source {
            Some(path) => sources.push(path.clone()),
            None => report::emit("cc", &Diagnostic::error(Some(&name), "linker input unused because of -c").warning()),
        }
    }
    if line.output.is_some() && sources.len() > 1 {
        return Err(failure(
            format!(
                "-o names one object, but -c was given {} sources (leave -o out: each gets its own)",
                sources.len()
            ),
            status::USAGE,
        ));
    }
    if let Some(out) = &line.output {
        output::check_target(out, Content::Binary)?;
    }
    let lib = library(line, clang)?;
    let work = work_dir()?;
    for (k, src) in sources.iter().enumerate() {
        let out = line.output.clone().unwrap_or_else(|| object_name(src));
        let tmp = work.path().join(format!("{k}.o"));
        let deps = dependency_options(&line.clang_options, &out, &out.with_extension("d"));
        compile(clang, src, &line.clang_options, &deps, include(&lib), &tmp)?;
        let bytes = std::fs::read(&tmp).map_err(|e| Failure::input(&src.display().to_string(), e))?;
        output::write(&out, Content::Binary, &bytes)?;
    }
    Ok(status::SUCCESS)
}

/// `SOURCE.o` in the current directory, as cc names the object of `-c SOURCE`.
fn object_name(src: &Path) -> PathBuf {
    let stem = src.file_stem().map_or_else(|| "a".into(), |s| s.to_os_string());
    PathBuf::from(stem).with_extension("o")
}

/// `-E`: the sources preprocessed, with pnacl's target and headers, to `-o` or standard
/// output.
fn preprocess(line: &CommandLine, clang: &Path) -> Result<i32, Failure> {
    let lib = library(line, clang)?;
    let mut cmd = Command::new(clang);
    cmd.args(&line.clang_options);
    cmd.args(libc::clang_flags().into_iter().filter(|f| !matches!(*f, "-c" | "-emit-llvm")));
    cmd.arg("-E");
    for dir in include(&lib) {
        cmd.arg("-isystem").arg(dir);
    }
    for input in &line.inputs {
        match input {
            command_line::Input::File(p) => cmd.arg(p),
            command_line::Input::Library(_) => continue,
        };
    }
    if let Some(out) = &line.output {
        cmd.arg("-o").arg(out);
    }
    let run = cmd.status().map_err(|e| failure(format!("{}: {e}", clang.display()), status::BAD_INPUT))?;
    if !run.success() {
        return Err(failure(format!("clang failed ({run})"), status::BAD_INPUT));
    }
    Ok(status::SUCCESS)
}

/// The dependency options clang needs when the command line asks for a dependency file
/// (`-MD`, `-MMD`) of an object clang writes to a temporary file: the file (`-MF`,
/// default `deps`) and the target (`-MT`, default `object`), which clang would otherwise
/// derive from the temporary file's name.
fn dependency_options(options: &[OsString], object: &Path, deps: &Path) -> Vec<OsString> {
    let mut extra = Vec::new();
    if !wants_dependencies(options) {
        return extra;
    }
    if !has_option(options, "-MF") {
        extra.extend([OsString::from("-MF"), deps.as_os_str().to_os_string()]);
    }
    if !has_option(options, "-MT") && !has_option(options, "-MQ") {
        extra.extend([OsString::from("-MT"), object.as_os_str().to_os_string()]);
    }
    extra
}

fn include(lib: &Option<libc::Built>) -> &[PathBuf] {
    lib.as_ref().map_or(&[][..], |l| &l.include[..])
}

/// Sources, objects and archives linked with the C library into a pexe.
fn link_program(line: &CommandLine, clang: &Path) -> Result<i32, Failure> {
    let output = line.output.clone().unwrap_or_else(|| PathBuf::from("a.out"));
    output::check_target(&output, if line.emit_llvm { Content::Text } else { Content::Binary })?;
    if !line.linker_options.is_empty() {
        let message = format!("linker options ignored (a pexe is linked by pnacl): {}", line.linker_options.join(" "));
        report::emit("cc", &Diagnostic::error(None, message).warning());
    }
    let bad_input = |e: String| failure(e, status::BAD_INPUT);
    let files = inputs::files(&line.inputs, &line.library_dirs).map_err(bad_input)?;
    let lib = library(line, clang)?;
    let work = work_dir()?;
    let mut modules: Vec<(String, Module)> = Vec::new();
    let mut archives = Vec::new();
    for (k, (path, kind)) in files.iter().enumerate() {
        let name = path.display().to_string();
        match kind {
            Kind::Source => {
                let out = work.path().join(format!("{k}.bc"));
                let deps = dependency_options(&line.clang_options, &output, &object_name(path).with_extension("d"));
                compile(clang, path, &line.clang_options, &deps, include(&lib), &out)?;
                let m = producer::read_llvm(&out).map_err(|f| Failure::input(&name, f.diagnostic.message))?;
                modules.push((name, m));
            }
            Kind::Bitcode => modules.push((name, producer::read_llvm(path)?)),
            Kind::Archive => archives.push(archive::Archive::open(path).map_err(bad_input)?),
        }
    }
    if let Some(lib) = &lib {
        for p in &lib.archives {
            archives.push(archive::Archive::open(p).map_err(bad_input)?);
        }
    }
    let picked = archive::pick(modules.iter().map(|(_, m)| m), &["_start"], &archives).map_err(bad_input)?;
    modules.extend(picked);
    let Some((name, _)) = modules.first() else {
        return Err(failure("nothing to link: the archives given define nothing the program needs", status::BAD_INPUT));
    };
    let name = name.clone();
    report_unresolved(&modules)?;
    let mut m = simplify::link(modules.into_iter().map(|(_, m)| m).collect())?;
    simplify::run_passes(&mut m, &pnacl_passes::pipeline::simplify_passes(), &[])
        .map_err(|e| Failure::input(&name, e))?;
    if line.emit_llvm {
        let text = print(&m, &PrintOptions { opaque_pointers: true });
        output::write(&output, Content::Text, text.as_bytes())?;
        return Ok(status::SUCCESS);
    }
    let bytes = simplify::finalize("cc", &mut m, &name, line.no_verify, line.keep_names)?;
    let bytes = if line.compress { producer::compress_bytes(&bytes, &name)? } else { bytes };
    output::write(&output, Content::Binary, &bytes)?;
    Ok(status::SUCCESS)
}

/// Fails if a symbol is used and nothing defines it, or if two files define it, after
/// reporting every such symbol with the files that use or define it (the last one is the
/// failure's).
fn report_unresolved(modules: &[(String, Module)]) -> Result<(), Failure> {
    let mut problems = inputs::defined_twice(modules);
    problems.extend(inputs::undefined(modules).iter().map(ToString::to_string));
    let Some(last) = problems.pop() else { return Ok(()) };
    for p in &problems {
        report::emit("cc", &Diagnostic::error(None, p));
    }
    Err(failure(last, status::BAD_INPUT))
}

/// Compiles one source to bitcode: the user's options, then `extra`, pnacl's flags and
/// the C library's headers.
fn compile(
    clang: &Path,
    src: &Path,
    options: &[OsString],
    extra: &[OsString],
    include: &[PathBuf],
    out: &Path,
) -> Result<(), Failure> {
    let mut cmd = Command::new(clang);
    // The user's options first: a later `-O2` turns the vectorizers back on, so pnacl's
    // flags (which have no optimisation level) come after them.
    cmd.args(options);
    cmd.args(extra);
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
