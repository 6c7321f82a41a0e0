//! The harness the IR tests share: reading `tests/ir/*.ll`, assembling them with LLVM 14,
//! running passes on pnacl's model, printing, and checking the text with LLVM's tools.

#![allow(dead_code)]

use pnacl_llvm::Module;
use pnacl_llvm::print::{PrintOptions, print};
use pnacl_passes::{Pass, pipeline};
use pnacl_testutil::llvm_tool;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One test input: a `.ll` file and what its header lines ask for.
pub struct Case {
    /// The file.
    pub path: PathBuf,
    /// Its name without the directory (how failures are reported).
    pub name: String,
    /// The text.
    pub text: String,
    /// `; PASSES: a, b`: the passes to run, in order.
    pub passes: Vec<String>,
    /// `; ERROR: text`: the passes must refuse, with a message containing each of these.
    pub errors: Vec<String>,
}

/// The test inputs directory.
pub fn ir_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ir")
}

/// Every `tests/ir/*.ll`, sorted by name. Panics on a file without a `; PASSES:` line.
pub fn cases() -> Vec<Case> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(ir_dir())
        .expect("tests/ir exists")
        .map(|e| e.expect("readable directory").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable test input");
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let header = |key: &str| -> Vec<String> {
                text.lines().filter_map(|l| l.strip_prefix(key)).map(|v| v.trim().to_string()).collect()
            };
            let passes: Vec<String> = header("; PASSES:")
                .iter()
                .flat_map(|l| l.split(',').map(|p| p.trim().to_string()).collect::<Vec<_>>())
                .filter(|p| !p.is_empty())
                .collect();
            assert!(!passes.is_empty(), "{name}: no `; PASSES:` header line");
            let errors = header("; ERROR:");
            Case { path, name, text, passes, errors }
        })
        .collect()
}

/// Runs `cmd` with `input` on stdin; its stdout, or an error with its stderr.
pub fn run_tool(cmd: Command, input: &[u8]) -> Result<Vec<u8>, String> {
    let program = cmd.get_program().to_owned();
    let out = run_tool_output(cmd, input)?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!("{program:?} failed ({}):\n{}", out.status, String::from_utf8_lossy(&out.stderr)))
    }
}

/// Runs `cmd` with `input` on stdin; its whole output, whatever its exit status.
pub fn run_tool_output(mut cmd: Command, input: &[u8]) -> Result<std::process::Output, String> {
    use std::io::Write;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().map_err(|e| format!("{cmd:?}: {e}"))?;
    writer.join().unwrap().map_err(|e| format!("{cmd:?}: writing stdin: {e}"))?;
    Ok(out)
}

/// `text` assembled to bitcode by llvm-as-14.
pub fn assemble(text: &str) -> Result<Vec<u8>, String> {
    let mut cmd = Command::new(llvm_tool("llvm-as", 14));
    cmd.args(["-o", "-", "-"]);
    run_tool(cmd, text.as_bytes())
}

/// `text` assembled by llvm-as-14 and read into pnacl's model.
pub fn load(text: &str) -> Result<Module, String> {
    let bc = assemble(text)?;
    pnacl_llvm::read(&bc).map_err(|e| format!("pnacl_llvm::read: {e}"))
}

/// The passes named, or the unknown name.
pub fn passes(names: &[String]) -> Result<Vec<&'static dyn Pass>, String> {
    pipeline::by_names(names.iter().map(String::as_str)).map_err(|n| format!("unknown pass `{n}`"))
}

/// Runs `passes` on `m`; the error's text when one refuses.
pub fn run(m: &mut Module, passes: &[&dyn Pass]) -> Result<(), String> {
    pipeline::run(m, passes, |_, _| {}).map_err(|e| e.to_string())
}

/// The module printed as LLVM 14 (typed-pointer) IR.
pub fn print_typed(m: &Module) -> String {
    print(m, &PrintOptions { opaque_pointers: false })
}

/// Checks `text` is IR that LLVM 14 accepts: `opt-14 -passes=verify` assembles and verifies.
pub fn verify(text: &str) -> Result<(), String> {
    let mut cmd = Command::new(llvm_tool("opt", 14));
    cmd.args(["-passes=verify", "-disable-output", "-"]);
    run_tool(cmd, text.as_bytes()).map(drop)
}

/// Checks `output` against the `CHECK` lines of the test file `check_file` with FileCheck-14.
pub fn filecheck(check_file: &Path, output: &str) -> Result<(), String> {
    let mut cmd = Command::new(llvm_tool("FileCheck", 14));
    cmd.arg(check_file).arg("--dump-input=never");
    run_tool(cmd, output.as_bytes()).map(drop)
}

/// Runs `text`'s `@main` with lli-14 on the host (the `le32` triple and its 32-bit pointers
/// have no JIT, so the target lines go: fine for the integer-only tests that run); its exit
/// status and output.
pub fn execute(text: &str) -> Result<(Option<i32>, Vec<u8>), String> {
    use std::io::Write;
    let text: String = text.lines().filter(|l| !l.starts_with("target ")).flat_map(|l| [l, "\n"]).collect();
    let mut child = Command::new(llvm_tool("lli", 14))
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run lli-14: {e}"))?;
    child.stdin.take().unwrap().write_all(text.as_bytes()).map_err(|e| format!("lli-14: {e}"))?;
    let out = child.wait_with_output().map_err(|e| format!("lli-14: {e}"))?;
    if !out.stderr.is_empty() {
        return Err(format!("lli-14: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok((out.status.code(), out.stdout))
}
