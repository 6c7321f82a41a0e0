//! `pnacl compile`, images (`.pnaclo`) and the translation cache of `pnacl run`: running
//! an image gives what running its pexe gives (and so does the baseline tier); stale, foreign and changed images are
//! refused; broken cache entries are rebuilt; concurrent runs share one entry.
//!
//! Every command here gets a cache directory of its own (`XDG_CACHE_HOME` in a temporary
//! directory), never the user's.

use pnacl_testutil::{corpus_dir, pnacl_binary, runs};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `pnacl ARGS` in `dir`, with the cache under `cache_home`.
fn pnacl(cache_home: &Path, dir: &Path, args: &[&str]) -> Output {
    Command::new(pnacl_binary())
        .env("XDG_CACHE_HOME", cache_home)
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run pnacl")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The cached images of a cache home.
fn entries(cache_home: &Path) -> Vec<PathBuf> {
    let dir = cache_home.join("pnacl/images");
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(dir).map(|d| d.map(|e| e.unwrap().path()).collect()).unwrap_or_default();
    v.sort();
    v
}

#[test]
fn compile_then_run_equals_run_for_every_run_case() {
    let cases: Vec<_> = runs().into_iter().filter(|r| r.role == "test").collect();
    assert!(cases.len() >= 17, "RUNS.tsv has {} test rows", cases.len());
    let home = tempfile::tempdir().unwrap();
    // Images are written where the pexes are named from, under the pexes' own names, so
    // that the guest sees the same argv[0] in both runs.
    let images = tempfile::tempdir().unwrap();
    let corpus = corpus_dir();
    let mut failures = Vec::new();
    for case in &cases {
        let image = images.path().join(&case.file);
        std::fs::create_dir_all(image.parent().unwrap()).unwrap();
        if !image.exists() {
            let out = pnacl(home.path(), &corpus, &["compile", &case.file, "-o", image.to_str().unwrap()]);
            assert!(out.status.success(), "compile {}: {}", case.file, text(&out.stderr));
        }
        let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
        let run = |dir: &Path, flags: &[&str]| {
            let mut a = vec!["run"];
            a.extend(flags);
            a.push(&case.file);
            a.push("--");
            a.extend(&args);
            pnacl(home.path(), dir, &a)
        };
        let direct = run(&corpus, &["--no-cache"]);
        let compiled = run(images.path(), &[]);
        let name = format!("{} {}", case.file, case.args.join(" "));
        assert_eq!(direct.status.code(), Some(case.expected_exit), "{name}: {}", text(&direct.stderr));
        // The baseline tier gives the same too.
        let baseline = run(&corpus, &["--no-cache", "--baseline"]);
        assert_eq!(
            (baseline.status.code(), &baseline.stdout, &baseline.stderr),
            (direct.status.code(), &direct.stdout, &direct.stderr),
            "{name}: baseline tier"
        );
        if (compiled.status.code(), &compiled.stdout, &compiled.stderr)
            != (direct.status.code(), &direct.stdout, &direct.stderr)
        {
            failures.push(format!(
                "{name}: the image gives status {:?} and {} bytes of output (stderr {:?}); the pexe {:?} and {} bytes",
                compiled.status.code(),
                compiled.stdout.len(),
                text(&compiled.stderr),
                direct.status.code(),
                direct.stdout.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // --no-cache cached nothing.
    assert!(entries(home.path()).is_empty());
}

/// Compiles `cli/fact.pexe` into `dir/fact.pnaclo` with the cache under `home`.
fn compile_fact(home: &Path, dir: &Path) -> PathBuf {
    let image = dir.join("fact.pnaclo");
    let out = pnacl(home, &corpus_dir(), &["compile", "cli/fact.pexe", "-o", image.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    image
}

/// Runs an image with two guest arguments: fact exits with 3! = 6.
fn run_fact(home: &Path, image: &Path) -> Output {
    pnacl(home, &corpus_dir(), &["run", image.to_str().unwrap(), "--", "a", "b"])
}

/// A string field of the header starts after the magic, the format version and the
/// fields before it (each a u32 length and bytes): its offset and length.
fn header_field(bytes: &[u8], index: usize) -> (usize, usize) {
    let mut at = 12;
    for _ in 0..index {
        at += 4 + u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    }
    (at + 4, u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize)
}

/// Seals `bytes` again (its last 32 bytes) with the key of the cache under `home`, as pnacl
/// would: a file that differs only in what it says, not in being genuine.
fn reseal(home: &Path, bytes: &mut [u8]) {
    let key: [u8; 32] = std::fs::read(home.join("pnacl/key")).unwrap().try_into().unwrap();
    let body = bytes.len() - 32;
    let seal = blake3::keyed_hash(&key, &bytes[..body]);
    bytes[body..].copy_from_slice(seal.as_bytes());
}

#[test]
fn stale_foreign_and_changed_images_are_refused() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let image = compile_fact(home.path(), dir.path());
    let out = run_fact(home.path(), &image);
    assert_eq!(out.status.code(), Some(6), "{}", text(&out.stderr));
    let good = std::fs::read(&image).unwrap();
    let refused = |bytes: &[u8], name: &str, message: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let out = run_fact(home.path(), &path);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(125), "{name}: {stderr}");
        assert!(
            stderr.starts_with(&format!("pnacl run: {}: ", path.display())) && stderr.contains(message),
            "{name}: {stderr}"
        );
        assert!(out.stdout.is_empty());
    };
    // Another build of pnacl (its build id changed), sealed as genuine.
    let mut stale = good.clone();
    let (at, len) = header_field(&stale, 1);
    stale[at..at + len].fill(b'0');
    reseal(home.path(), &mut stale);
    refused(&stale, "stale.pnaclo", "stale: made by pnacl ");
    // Another processor's features, sealed as genuine.
    let mut foreign = good.clone();
    let (at, _) = header_field(&foreign, 2);
    foreign[at] ^= 0x20;
    reseal(home.path(), &mut foreign);
    refused(&foreign, "foreign.pnaclo", "made for another processor");
    // One byte of code changed, or the seal, or the file cut short: not what pnacl wrote.
    for (name, cut) in [("code", None), ("seal", None), ("short", Some(good.len() / 2))] {
        let mut changed = good.clone();
        match (name, cut) {
            ("code", _) => {
                let mid = changed.len() / 2;
                changed[mid] ^= 1;
            }
            ("seal", _) => *changed.last_mut().unwrap() ^= 1,
            (_, Some(n)) => changed.truncate(n),
            _ => unreachable!(),
        }
        refused(&changed, &format!("{name}.pnaclo"), "its seal does not match");
    }
    // Sealed with another key (another user's pnacl).
    let other = tempfile::tempdir().unwrap();
    let path = dir.path().join("other_key.pnaclo");
    std::fs::write(&path, &good).unwrap();
    let out = run_fact(other.path(), &path);
    assert_eq!(out.status.code(), Some(125));
    assert!(text(&out.stderr).contains("its seal does not match"), "{}", text(&out.stderr));
    // A sealed file whose contents are out of range is refused after the seal: a function
    // table of another length.
    let mut odd = good.clone();
    let (at, len) = header_field(&odd, 2);
    let table_len_at = at + len + 32 + 8 + 1 + 4;
    odd[table_len_at] ^= 1;
    reseal(home.path(), &mut odd);
    refused(&odd, "odd.pnaclo", "malformed image: ");
}

#[test]
fn a_truncated_cache_entry_is_rebuilt() {
    let home = tempfile::tempdir().unwrap();
    let corpus = corpus_dir();
    let run = || pnacl(home.path(), &corpus, &["run", "--stats", "cli/fact.pexe", "--", "a", "b", "c"]);
    let first = run();
    assert_eq!(first.status.code(), Some(24), "{}", text(&first.stderr));
    let cached = entries(home.path());
    assert_eq!(cached.len(), 1);
    let whole = std::fs::read(&cached[0]).unwrap();
    std::fs::write(&cached[0], &whole[..whole.len() / 3]).unwrap();
    let second = run();
    assert_eq!(second.status.code(), Some(24), "{}", text(&second.stderr));
    assert!(text(&second.stderr).contains("cached translation refused (its seal does not match"));
    assert_eq!(entries(home.path()), cached, "the entry is replaced, not added to");
    assert_eq!(std::fs::read(&cached[0]).unwrap().len(), whole.len());
    let third = run();
    assert_eq!(third.status.code(), Some(24));
    assert!(text(&third.stderr).contains("pnacl: stats: translation loaded"), "{}", text(&third.stderr));
}

#[test]
fn concurrent_cold_runs_both_succeed_and_leave_one_entry() {
    let home = tempfile::tempdir().unwrap();
    let corpus = corpus_dir();
    let spawn = || {
        Command::new(pnacl_binary())
            .env("XDG_CACHE_HOME", home.path())
            .current_dir(&corpus)
            .args(["run", "cli/fannkuchredux.pexe", "--", "7"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn pnacl")
    };
    let expected = std::fs::read(corpus.join("expected/fannkuchredux.7.out")).unwrap();
    for round in 0..3 {
        let (a, b) = (spawn(), spawn());
        for child in [a, b] {
            let out = child.wait_with_output().unwrap();
            assert!(out.status.success(), "round {round}: {}", text(&out.stderr));
            assert_eq!(out.stdout, expected, "round {round}");
            assert!(out.stderr.is_empty(), "round {round}: {}", text(&out.stderr));
        }
        // One entry, no temporary files left; and it loads.
        let files: Vec<PathBuf> =
            std::fs::read_dir(home.path().join("pnacl/images")).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(files.len(), 1, "round {round}: {files:?}");
        assert_eq!(files[0].extension().and_then(|e| e.to_str()), Some("pnaclo"));
        let out = pnacl(home.path(), &corpus, &["run", "--stats", "cli/fannkuchredux.pexe", "--", "7"]);
        assert!(text(&out.stderr).contains("pnacl: stats: translation loaded"), "{}", text(&out.stderr));
        // The next round starts cold again.
        std::fs::remove_file(&files[0]).unwrap();
    }
}

#[test]
fn cache_info_and_clean() {
    let home = tempfile::tempdir().unwrap();
    let corpus = corpus_dir();
    for args in [["run", "cli/fact.pexe"], ["run", "cli/simple.pexe"]] {
        pnacl(home.path(), &corpus, &args);
    }
    let info = pnacl(home.path(), &corpus, &["cache", "info"]);
    assert!(info.status.success());
    let stdout = text(&info.stdout);
    assert!(stdout.contains(&format!("cache: {}", home.path().join("pnacl").display())), "{stdout}");
    assert!(stdout.contains("translations: 2 ("), "{stdout}");
    let clean = pnacl(home.path(), &corpus, &["cache", "clean"]);
    assert!(clean.status.success());
    assert!(text(&clean.stdout).starts_with("removed 2 translations"), "{}", text(&clean.stdout));
    assert!(entries(home.path()).is_empty());
    // The key stays, so images compiled before still run.
    assert!(home.path().join("pnacl/key").is_file());
}

#[test]
fn browser_pexes_compile_and_their_images_are_refused() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let image = dir.path().join("hello.pnaclo");
    let out =
        pnacl(home.path(), &corpus_dir(), &["compile", "ppapi/hello_tutorial.pexe", "-o", image.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = pnacl(home.path(), &corpus_dir(), &["run", image.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(126), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("browser (PPAPI) application"));
}
