//! `pnacl cc`'s command line as a C compiler's: what it is asked to do (`-c`, `-E`, or
//! link), its inputs in order (sources, bitcode objects, archives, `-l` libraries), the
//! linker's options (`-L`, `-l`) and everything else, which goes to clang.

use std::ffi::OsString;
use std::path::PathBuf;

/// clang options whose value is the next argument.
const TAKES_VALUE: &[&str] = &[
    "-I",
    "-D",
    "-U",
    "-include",
    "-imacros",
    "-isystem",
    "-iquote",
    "-idirafter",
    "-x",
    "-Xclang",
    "-mllvm",
    "-MF",
    "-MT",
    "-MQ",
];

/// Options that mean something only to a native compiler or linker and nothing to a pexe
/// (position-independent code, static or stripped linking, pipes between the passes):
/// accepted and dropped, so that makefiles written for `cc` work unchanged.
const IGNORED: &[&str] =
    &["-fPIC", "-fpic", "-fPIE", "-fpie", "-pie", "-no-pie", "-static", "-s", "-rdynamic", "-pipe", "-pthread"];

/// Libraries that are part of the C library `pnacl cc` always links (newlib's libc and
/// libm, pnacl's pthread): `-lm` and the like are accepted quietly.
pub const BUILT_IN_LIBRARIES: &[&str] = &["c", "m", "pthread", "rt", "dl"];

/// What the command is asked to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A pexe from everything (the default).
    Link,
    /// An LLVM bitcode object (`.o`) of each source (`-c`).
    Compile,
    /// The preprocessed source (`-E`), or its dependencies (`-M`, `-MM`), to standard
    /// output or `-o`.
    Preprocess,
}

/// One input, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A file: C source, an LLVM bitcode object, or an archive (told apart by its contents).
    File(PathBuf),
    /// `-lNAME`: `libNAME.a` in a `-L` directory.
    Library(String),
}

/// The command line split into inputs and the options passed to clang.
#[derive(Debug)]
pub struct CommandLine {
    pub mode: Mode,
    pub output: Option<PathBuf>,
    pub clang: Option<PathBuf>,
    pub emit_llvm: bool,
    pub nostdlib: bool,
    pub no_verify: bool,
    pub compress: bool,
    pub keep_names: bool,
    /// The last `-g` option asked for debug information (not `-g0`).
    pub debug: bool,
    pub inputs: Vec<Input>,
    /// `-L` directories, in order.
    pub library_dirs: Vec<PathBuf>,
    pub clang_options: Vec<OsString>,
    /// Options given to the linker (`-Wl,...`, `-Xlinker`), which pnacl has none of.
    pub linker_options: Vec<String>,
}

/// Splits the command line; an error is a usage error.
pub fn split(raw: &[OsString]) -> Result<CommandLine, String> {
    let mut line = CommandLine {
        mode: Mode::Link,
        output: None,
        clang: None,
        emit_llvm: false,
        nostdlib: false,
        no_verify: false,
        compress: false,
        keep_names: false,
        debug: false,
        inputs: Vec::new(),
        library_dirs: Vec::new(),
        clang_options: Vec::new(),
        linker_options: Vec::new(),
    };
    let mut it = raw.iter();
    while let Some(a) = it.next() {
        let s = a.to_string_lossy();
        let mut value = |what: &str| -> Result<OsString, String> {
            it.next().cloned().ok_or_else(|| format!("`{what}` needs a value"))
        };
        match s.as_ref() {
            "-o" => line.output = Some(PathBuf::from(value("-o")?)),
            // pnacl's own options may come after the sources too.
            "--emit-llvm" => line.emit_llvm = true,
            "--nostdlib" | "-nostdlib" => line.nostdlib = true,
            "--no-verify" => line.no_verify = true,
            "--compress" => line.compress = true,
            "--keep-names" => line.keep_names = true,
            "--clang" => line.clang = Some(PathBuf::from(value("--clang")?)),
            "-c" => line.mode = Mode::Compile,
            "-E" => line.mode = Mode::Preprocess,
            // Dependencies alone, instead of the object: clang's -M and -MM imply -E.
            "-M" | "-MM" => {
                line.mode = Mode::Preprocess;
                line.clang_options.push(a.clone());
            }
            "-L" => line.library_dirs.push(PathBuf::from(value("-L")?)),
            "-l" => line.inputs.push(Input::Library(value("-l")?.to_string_lossy().into_owned())),
            "-Xlinker" => line.linker_options.push(value("-Xlinker")?.to_string_lossy().into_owned()),
            "-S" | "-emit-llvm" => {
                return Err(format!(
                    "`{s}` is pnacl's to give: pnacl cc writes a pexe, or with -c a bitcode object \
                     (--emit-llvm writes the pexe's module as LLVM IR)"
                ));
            }
            "-shared" => return Err("pnacl cc makes pexes, which have no shared libraries: `-shared`".into()),
            _ if IGNORED.contains(&s.as_ref()) => {}
            _ if s.starts_with("-o") => line.output = Some(PathBuf::from(&s[2..])),
            _ if s.starts_with("-L") => line.library_dirs.push(PathBuf::from(&s[2..])),
            _ if s.starts_with("-l") => line.inputs.push(Input::Library(s[2..].to_string())),
            _ if s.starts_with("-Wl,") => line.linker_options.extend(s[4..].split(',').map(String::from)),
            _ if s.starts_with('-') && s.len() > 1 => {
                // Debug information asked of clang: the pexe cannot carry it, but its names it can.
                if is_debug_flag(&s) {
                    line.debug = s != "-g0";
                }
                line.clang_options.push(a.clone());
                if TAKES_VALUE.contains(&s.as_ref()) {
                    line.clang_options.push(value(&s)?);
                }
            }
            _ => line.inputs.push(Input::File(PathBuf::from(a))),
        }
    }
    if line.inputs.is_empty() {
        return Err("no input files".into());
    }
    Ok(line)
}

/// True for clang's options asking for (`-g`, `-g2`, `-ggdb`, `-gdwarf-4`,
/// `-gline-tables-only`) or against (`-g0`) debug information.
pub fn is_debug_flag(s: &str) -> bool {
    if s.starts_with("-gline-") {
        return true;
    }
    s == "-g"
        || s.starts_with("-gdwarf")
        || s.starts_with("-ggdb")
        || (s.len() == 3 && s.starts_with("-g") && s.as_bytes()[2].is_ascii_digit())
}

/// Whether the options ask clang for a dependency file as a side effect (`-MD`, `-MMD`).
pub fn wants_dependencies(options: &[OsString]) -> bool {
    options.iter().any(|o| o == "-MD" || o == "-MMD")
}

/// Whether `option` (`-MF`, `-MT`, ...) is among `options`, separate or joined to its value.
pub fn has_option(options: &[OsString], option: &str) -> bool {
    options.iter().any(|o| o.to_string_lossy().starts_with(option))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(args: &str) -> CommandLine {
        split(&args.split_whitespace().map(OsString::from).collect::<Vec<_>>()).expect("a valid command line")
    }

    #[test]
    fn debug_flags_are_recognised() {
        for f in ["-g", "-g0", "-g1", "-g3", "-ggdb", "-ggdb3", "-gdwarf-4", "-gline-tables-only"] {
            assert!(is_debug_flag(f), "{f}");
        }
        for f in ["-gc", "-gsplit-dwarf-x", "-O2", "-grecord", "-G0", "-g12"] {
            assert!(!is_debug_flag(f), "{f}");
        }
    }

    #[test]
    fn a_compilers_command_line_is_split_as_cc_splits_it() {
        let l = line("-c -O2 -Wall -std=c99 -fPIC -MMD -MF a.d -I inc -DX=1 a.c -oa.o");
        assert_eq!(l.mode, Mode::Compile);
        assert_eq!(l.output, Some(PathBuf::from("a.o")));
        assert_eq!(l.inputs, vec![Input::File("a.c".into())]);
        let clang: Vec<_> = l.clang_options.iter().map(|o| o.to_string_lossy().into_owned()).collect();
        assert_eq!(clang, ["-O2", "-Wall", "-std=c99", "-MMD", "-MF", "a.d", "-I", "inc", "-DX=1"]);
        assert!(wants_dependencies(&l.clang_options) && has_option(&l.clang_options, "-MF"));

        let l = line("main.o -L lib -Lother -lz -l m util.a -Wl,-O1,--as-needed -o app");
        assert_eq!(l.mode, Mode::Link);
        assert_eq!(
            l.inputs,
            vec![
                Input::File("main.o".into()),
                Input::Library("z".into()),
                Input::Library("m".into()),
                Input::File("util.a".into())
            ]
        );
        assert_eq!(l.library_dirs, [PathBuf::from("lib"), PathBuf::from("other")]);
        assert_eq!(l.linker_options, ["-O1", "--as-needed"]);
    }

    #[test]
    fn what_pnacl_cannot_do_is_a_usage_error() {
        for bad in ["-S a.c", "-shared a.o -o x.so", "-O2", "a.c -o", "-I"] {
            let args: Vec<OsString> = bad.split_whitespace().map(OsString::from).collect();
            assert!(split(&args).is_err(), "{bad}");
        }
    }
}
