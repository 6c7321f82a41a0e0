//! Files under `--dir`: a C program (`data/files.c`, built with `pnacl cc`) reads, seeks,
//! writes and fails to reach what lies outside its directory, the same under `pnacl run`
//! and under `pnacl wasm` and Node.

use pnacl_testutil::pnacl_command;
use pnacl_testutil::wasm::{node_command, translate};
use std::path::Path;

fn setup(dir: &Path) {
    let data = dir.join("data");
    std::fs::create_dir_all(&data).expect("make the guest's directory");
    std::fs::write(data.join("in.txt"), "hello world from a file\n").expect("write in.txt");
    std::os::unix::fs::symlink("/etc", data.join("escape")).expect("a link out of the directory");
}

#[test]
fn files_under_dir_read_write_seek_and_stay_confined() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/files.c");
    let pexe = dir.path().join("files.pexe");
    let out = pnacl_command().args(["cc", "-O2"]).arg(&source).arg("-o").arg(&pexe).output().expect("run pnacl cc");
    assert!(out.status.success(), "pnacl cc: {}", String::from_utf8_lossy(&out.stderr));
    let runs = ["native", "wasm"].map(|how| {
        let work = dir.path().join(how);
        setup(&work);
        let mount = format!("{}::/data", work.join("data").display());
        let out = if how == "native" {
            pnacl_command().args(["run", "--dir", &mount]).arg(&pexe).arg("/data").output().expect("run pnacl")
        } else {
            let launcher = translate(&pexe, dir.path(), "files", &[]);
            node_command(&launcher, &["--dir", &mount, "/data"]).output().expect("run node")
        };
        let written = std::fs::read_to_string(work.join("data/out.txt")).unwrap_or_default();
        (out, written)
    });
    let [(native, native_file), (wasm, wasm_file)] = runs;
    assert_eq!(native.status.code(), Some(0), "{}", String::from_utf8_lossy(&native.stderr));
    assert_eq!(wasm.status.code(), Some(0), "{}", String::from_utf8_lossy(&wasm.stderr));
    assert_eq!(String::from_utf8_lossy(&wasm.stdout), String::from_utf8_lossy(&native.stdout));
    assert!(wasm.stderr.is_empty(), "{}", String::from_utf8_lossy(&wasm.stderr));
    assert_eq!(wasm_file, "line 0\nline 1\nline 2\n");
    assert_eq!(wasm_file, native_file);
    let text = String::from_utf8_lossy(&wasm.stdout);
    assert!(text.contains("/etc/passwd: refused") && text.contains("escape/passwd: refused"), "{text}");
}
