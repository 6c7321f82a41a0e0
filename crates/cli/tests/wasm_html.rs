//! What `pnacl wasm --html` writes, without a browser (`wasm_browser` runs the pages): the
//! page beside the module, naming it and the pexe with HTML-escaped text; and all files or
//! none: a pexe that is refused, or an output that cannot be written, leaves nothing behind
//! (no module, launcher, page, host file, folder or temporary file).

use pnacl_testutil::{corpus_dir, pnacl_command};
use std::path::Path;

/// The entries below `dir`, recursively, as relative paths.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir") {
            let p = e.expect("entry").path();
            out.push(p.strip_prefix(dir).expect("below").display().to_string());
            if p.is_dir() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_page_names_its_module_and_pexe_escaped() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let odd = dir.path().join("q\"<&'.pexe");
    std::fs::copy(corpus_dir().join("cli/hello_world.pexe"), &odd).expect("copy");
    let out = pnacl_command()
        .current_dir(dir.path())
        .args(["wasm", "--html", "q\"<&'.pexe", "-o", "web/app.wasm"])
        .output()
        .expect("run pnacl wasm");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let page = std::fs::read_to_string(dir.path().join("web/app.html")).expect("the page");
    assert!(
        page.contains("<body data-pnacl-module=\"app.wasm\" data-pnacl-argv0=\"q&quot;&lt;&amp;&#39;.pexe\">"),
        "{page}"
    );
    assert!(page.contains("<pre id=\"stdout\"></pre>") && page.contains("<pre id=\"stderr\"></pre>"), "{page}");
    assert!(page.contains("<script type=\"module\" src=\"pnacl-host/page.mjs\"></script>"), "{page}");
    let files = tree(&dir.path().join("web"));
    for f in
        ["app.wasm", "app.mjs", "app.html", "pnacl-host/page.mjs", "pnacl-host/browser.mjs", "pnacl-host/worker.mjs"]
    {
        assert!(files.iter().any(|x| x == f), "{f} missing from {files:?}");
    }
    // Without --html, no page.
    let out = pnacl_command()
        .current_dir(dir.path())
        .args(["wasm", "q\"<&'.pexe", "-o", "node/app.wasm"])
        .output()
        .expect("run pnacl wasm");
    assert!(out.status.success());
    assert!(!dir.path().join("node/app.html").exists());
}

/// A pexe with a vector lane index that is not a constant: the ABI verifier refuses it.
const LANE: &str = "module {
  version 1;
  types {
    count 5;
    @t0 = i32;
    @t1 = void;
    @t2 = i32 (i32, i32);
    @t3 = void (i32);
    @t4 = <4 x i32>;
  }
  define internal i32 @f0(i32, i32);
  define external void @f1(i32);
  globals {
    count 0;
  }
  valuesymtab {
    @f0 : \"lane\";
    @f1 : \"_start\";
  }
  function i32 @f0(i32 %p0, i32 %p1) {
    blocks 1;
  %b0:
    %v0 = load <4 x i32>* %p0, align 4;
    %v1 = extractelement <4 x i32> %v0, i32 %p1;
    ret i32 %v1;
  }
  function void @f1(i32 %p0) {
    blocks 1;
  %b0:
    %v0 = call i32 @f0(i32 %p0, i32 %p0);
    ret void;
  }
}
";

#[test]
fn refused_input_writes_nothing() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let src = dir.path().join("lane.pnaclasm");
    std::fs::write(&src, LANE).expect("write");
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).expect("mkdir");
    let out = pnacl_command().arg("wasm").arg("--html").arg(&src).arg("-o").arg(out_dir.join("lane.wasm")).output();
    let out = out.expect("run pnacl wasm");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("function lane (@f0)") && stderr.contains("instruction %v1: extractelement"), "{stderr}");
    assert_eq!(tree(&out_dir), Vec::<String>::new());
    // Unreadable input: status 1, nothing written.
    let out = pnacl_command().args(["wasm", "--html", "/nonexistent.pexe", "-o"]).arg(out_dir.join("x.wasm")).output();
    assert_eq!(out.expect("run").status.code(), Some(1));
    assert_eq!(tree(&out_dir), Vec::<String>::new());
}

#[test]
fn an_output_that_cannot_be_written_leaves_nothing() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let pexe = corpus_dir().join("cli/hello_world.pexe");
    // The host's folder is taken by a file: its modules cannot be written, so neither is
    // anything else.
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).expect("mkdir");
    std::fs::write(out_dir.join("pnacl-host"), "a file").expect("write");
    let out = pnacl_command().arg("wasm").arg("--html").arg(&pexe).arg("-o").arg(out_dir.join("hello.wasm")).output();
    let out = out.expect("run pnacl wasm");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(tree(&out_dir), ["pnacl-host"]);
    // The page's place is taken by a folder: nothing is written.
    let deeper = dir.path().join("new/deeper");
    std::fs::create_dir_all(deeper.join("hello.html")).expect("mkdir");
    let out = pnacl_command().arg("wasm").arg("--html").arg(&pexe).arg("-o").arg(deeper.join("hello.wasm")).output();
    let out = out.expect("run pnacl wasm");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("hello.html: exists and is not a regular file"), "{stderr}");
    assert_eq!(tree(&deeper), ["hello.html"]);
    // A name too long for the file system: not even the folders are created.
    let long = format!("fresh/sub/{}.wasm", "n".repeat(252));
    let out = pnacl_command().current_dir(dir.path()).args(["wasm", "--html"]).arg(&pexe).args(["-o", &long]).output();
    let out = out.expect("run pnacl wasm");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!dir.path().join("fresh").exists());
}
