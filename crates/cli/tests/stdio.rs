//! Inputs and outputs as every subcommand treats them, through the real binary: `-` for
//! standard input and output, no binary output on a terminal, a closed pipe, Ctrl-C while an
//! output file is written, and what `dis -o` leaves behind.

use pnacl_testutil::{corpus_dir, pnacl_command};
use std::ffi::OsString;
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples").join(name)
}

/// `examples/factorial.pnaclasm` assembled into `dir`.
fn factorial(dir: &Path) -> PathBuf {
    let pexe = dir.join("factorial.pexe");
    let o = pnacl_command().arg("asm").arg(example("factorial.pnaclasm")).arg("-o").arg(&pexe).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    pexe
}

/// Runs pnacl with `args`, `stdin` as standard input.
fn with_stdin(args: &[OsString], stdin: &[u8]) -> Output {
    let mut child =
        pnacl_command().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    let bytes = stdin.to_vec();
    // Written from another thread: the command may write before it has read everything.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

/// One subcommand that reads a file and writes one: its arguments, with `IN` and `OUT` for
/// the input and output file.
struct Writer {
    args: &'static [&'static str],
    input: PathBuf,
}

fn writers(dir: &Path) -> Vec<Writer> {
    let pexe = factorial(dir);
    let llvm = corpus_dir().join("llvm");
    vec![
        Writer { args: &["asm", "IN", "-o", "OUT"], input: example("factorial.pnaclasm") },
        Writer { args: &["compile", "IN", "-o", "OUT"], input: pexe.clone() },
        Writer { args: &["compress", "IN", "-o", "OUT"], input: pexe.clone() },
        Writer { args: &["dis", "IN", "-o", "OUT"], input: pexe.clone() },
        Writer { args: &["finalize", "IN", "-o", "OUT"], input: llvm.join("part2_unstripped.bc") },
        Writer { args: &["freeze", "IN", "-o", "OUT"], input: llvm.join("Main.bc") },
        Writer { args: &["rewrite", "--abbrevs", "none", "IN", "-o", "OUT"], input: pexe.clone() },
        Writer { args: &["simplify", "IN", "-o", "OUT"], input: llvm.join("part2_unstripped.bc") },
        Writer { args: &["thaw", "IN", "-o", "OUT"], input: pexe },
    ]
}

fn fill(args: &[&str], input: &Path, output: &Path) -> Vec<OsString> {
    args.iter()
        .map(|&a| match a {
            "IN" => input.as_os_str().to_owned(),
            "OUT" => output.as_os_str().to_owned(),
            a => a.into(),
        })
        .collect()
}

/// `pnacl X - -o -` writes to standard output what `pnacl X IN -o FILE` writes to FILE.
#[test]
fn dash_is_standard_input_and_output_for_every_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    for w in writers(dir.path()) {
        let file = dir.path().join("out");
        let o = pnacl_command().args(fill(w.args, &w.input, &file)).output().unwrap();
        assert!(o.status.success(), "{:?}: {}", w.args, String::from_utf8_lossy(&o.stderr));
        let piped = with_stdin(&fill(w.args, Path::new("-"), Path::new("-")), &std::fs::read(&w.input).unwrap());
        assert!(piped.status.success(), "{:?} with -: {}", w.args, String::from_utf8_lossy(&piped.stderr));
        assert!(!piped.stdout.is_empty(), "{:?}", w.args);
        if w.args[0] == "compile" {
            // Images are not byte-for-byte reproducible: the one from standard output runs.
            std::fs::write(&file, &piped.stdout).unwrap();
            let o = pnacl_command().arg("run").arg(&file).args(["a", "b", "c"]).output().unwrap();
            assert_eq!(o.status.code(), Some(24), "{}", String::from_utf8_lossy(&o.stderr));
        } else {
            let same = piped.stdout == std::fs::read(&file).unwrap();
            assert!(same, "{:?}: standard output differs from the file", w.args);
        }
        std::fs::remove_file(&file).unwrap();
    }
    // The readers: the same report for the file and for standard input.
    let pexe = factorial(dir.path());
    let bytes = std::fs::read(&pexe).unwrap();
    for args in [&["analyze"][..], &["check", "--json"], &["dis", "--format", "tbc"]] {
        let mut named = os(args);
        named.push(pexe.as_os_str().to_owned());
        let from_file = pnacl_command().args(&named).output().unwrap();
        let mut dashed = os(args);
        dashed.push("-".into());
        let from_stdin = with_stdin(&dashed, &bytes);
        assert_eq!(from_file.status.code(), from_stdin.status.code(), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&from_file.stdout).replace(&pexe.display().to_string(), "<stdin>"),
            String::from_utf8_lossy(&from_stdin.stdout),
            "{args:?}"
        );
    }
    // A pexe to run from standard input: argc is 4, and the guest exits with 4! = 24.
    let o = with_stdin(&os(&["run", "-", "a", "b", "c"]), &bytes);
    assert_eq!(o.status.code(), Some(24), "{}", String::from_utf8_lossy(&o.stderr));
}

/// A pseudo-terminal: the master side and a `Stdio` for the slave side.
fn pty() -> (std::fs::File, Stdio) {
    use std::os::fd::FromRawFd;
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two new descriptors, owned here from now on.
    let r = unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), std::ptr::null()) };
    assert_eq!(r, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened and are not owned elsewhere.
    unsafe { (std::fs::File::from_raw_fd(master), Stdio::from(std::os::fd::OwnedFd::from_raw_fd(slave))) }
}

#[test]
fn binary_output_is_refused_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    for w in writers(dir.path()).iter().filter(|w| !["dis", "thaw"].contains(&w.args[0])) {
        let (master, slave) = pty();
        let o = pnacl_command().args(fill(w.args, &w.input, Path::new("-"))).stdout(slave).output().unwrap();
        drop(master);
        assert_eq!(o.status.code(), Some(2), "{:?}: {}", w.args, String::from_utf8_lossy(&o.stderr));
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            format!(
                "pnacl {}: <stdout>: binary output is not written to a terminal; use -o FILE, or redirect \
                 standard output\n",
                w.args[0]
            )
        );
    }
    // Text goes to a terminal as to anything else.
    let (mut master, slave) = pty();
    let pexe = factorial(dir.path());
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = std::io::Read::read_to_end(&mut master, &mut text); // ends with EIO at hang-up
        text
    });
    let o = pnacl_command().arg("dis").arg(&pexe).stdout(slave).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&reader.join().unwrap()).contains("module {"));
}

/// `pnacl dis big.pexe | head`: every subcommand writing to a pipe nobody reads ends at once
/// by SIGPIPE (status 141 in the shell), with nothing on standard error.
#[test]
fn a_closed_pipe_ends_every_subcommand_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let mut cases: Vec<Vec<OsString>> =
        writers(dir.path()).iter().map(|w| fill(w.args, &w.input, Path::new("-"))).collect();
    let pexe = factorial(dir.path());
    cases.push(vec!["analyze".into(), pexe.clone().into()]);
    cases.push(vec!["check".into(), "--json".into(), pexe.into()]);
    cases.push(os(&["cache", "info"]));
    cases.push(vec!["run".into(), example("hello_world.pnaclasm").into()]);
    pnacl_testutil::llvm_tool("clang", 14);
    let c = dir.path().join("three.c");
    std::fs::write(&c, "int main(void) { return 3; }\n").unwrap();
    cases.push(vec!["cc".into(), c.into(), "-o".into(), "-".into()]);
    let mut subcommands: Vec<&str> = cases.iter().map(|c| c[0].to_str().unwrap()).collect();
    subcommands.sort();
    assert_eq!(subcommands.len(), 14, "every subcommand that writes to standard output: {subcommands:?}");
    for args in &cases {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let o = pnacl_command().args(args).stdout(writer).output().unwrap();
        assert_eq!(
            o.status.signal(),
            Some(libc::SIGPIPE),
            "{args:?}: {:?} {}",
            o.status,
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(o.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    }
}

/// The files in `dir` whose names start with `.pnacl-`: temporary output files.
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(".pnacl-"))
        .collect()
}

/// Ctrl-C (or SIGTERM) while `dis -o` writes a large listing: the process ends by the
/// signal, the temporary file is gone and the file it would have replaced is intact.
#[test]
fn a_signal_during_an_output_file_removes_the_temporary_file() {
    let big = corpus_dir().join("ppapi/supernet_api.pexe");
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.lst");
        std::fs::write(&out, "precious").unwrap();
        // The signal must arrive while the listing is written: an attempt where the command
        // finished first proves nothing and is made again.
        let mut caught = false;
        for _ in 0..20 {
            let mut child =
                pnacl_command().arg("dis").arg(&big).arg("-o").arg(&out).stderr(Stdio::piped()).spawn().unwrap();
            while temporaries(dir.path()).is_empty() && child.try_wait().unwrap().is_none() {
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
            // SAFETY: signals the child started above.
            unsafe { libc::kill(child.id() as i32, signal) };
            let o = child.wait_with_output().unwrap();
            if o.status.success() {
                std::fs::write(&out, "precious").unwrap();
                continue;
            }
            assert_eq!(o.status.signal(), Some(signal), "{:?}: {}", o.status, String::from_utf8_lossy(&o.stderr));
            assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
            caught = true;
            break;
        }
        assert!(caught, "signal {signal} never arrived while the listing was written");
        assert_eq!(temporaries(dir.path()), Vec::<PathBuf>::new(), "signal {signal}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious");
    }
}

#[test]
fn dis_keeps_an_existing_output_when_the_input_cannot_be_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.lst");
    std::fs::write(&out, "precious").unwrap();
    let missing = dir.path().join("missing.pexe");
    let o = pnacl_command().arg("dis").arg(&missing).arg("-o").arg(&out).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!("pnacl dis: {}: No such file or directory (os error 2)\n", missing.display())
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious");
    assert_eq!(temporaries(dir.path()), Vec::<PathBuf>::new());
}

/// The listing of a malformed pexe is the useful output: it is written, up to and with the
/// error, and the exit status says the input is bad.
#[test]
fn dis_writes_the_listing_of_a_malformed_pexe() {
    let dir = tempfile::tempdir().unwrap();
    // Textual records of a module whose only type is `i33`, which PNaCl does not have.
    let records = "65535,8,2;\n1,1;\n65535,17,2;\n1,1;\n7,33;\n65534;\n65534;\n";
    let bad = dir.path().join("bad.pexe");
    let asm = with_stdin(
        &[OsString::from("asm"), "--records".into(), "-".into(), "-o".into(), bad.clone().into()],
        records.as_bytes(),
    );
    assert!(asm.status.success(), "{}", String::from_utf8_lossy(&asm.stderr));
    let out = dir.path().join("out.lst");
    std::fs::write(&out, "old").unwrap();
    let o = pnacl_command().arg("dis").arg(&bad).arg("-o").arg(&out).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    let listing = std::fs::read_to_string(&out).unwrap();
    assert!(listing.contains("module {") && listing.contains("<7, 33>") && listing.contains("Error("), "{listing}");
    assert_eq!(temporaries(dir.path()), Vec::<PathBuf>::new());
}

/// An output that cannot be created is reported by its own name: the temporary file's name
/// never appears.
#[test]
fn the_temporary_file_is_never_named() {
    let dir = tempfile::tempdir().unwrap();
    let pexe = factorial(dir.path());
    let out = dir.path().join("no/such/dir/out.lst");
    let o = pnacl_command().arg("dis").arg(&pexe).arg("-o").arg(&out).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        err,
        format!(
            "pnacl dis: {}: cannot create a file in {}: No such file or directory (os error 2)\n",
            out.display(),
            out.parent().unwrap().display()
        )
    );
}
