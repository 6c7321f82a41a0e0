//! The translation cache is trusted as ssh trusts `~/.ssh` (issue 32): a cache directory
//! another user owns or can write, a key others can read, a directory above it others can
//! write, an entry that is a symbolic link, a FIFO or another user's file: none of them
//! makes `pnacl run` load code. A planted image (a valid image of another program, sealed
//! with the cache's key and named as `cli/fact.pexe`'s entry) shows it: fact exits with
//! 3! = 6 for two arguments, the planted program with 42.
//!
//! Files owned by another user are made with `chown`, as root (the tests then fail, saying
//! so, when not run as root). Every command gets a cache home of its own.

mod support;

use pnacl_runtime::Image;
use pnacl_testutil::corpus_dir;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;
use support::{example, give_away, pnacl, run_within, text};

/// `pnacl run --stats cli/fact.pexe a b` with the cache under `home`: exit status 6.
fn run_fact(home: &Path) -> Output {
    pnacl(home).current_dir(corpus_dir()).args(["run", "--stats", "cli/fact.pexe", "--", "a", "b"]).output().unwrap()
}

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A cache under `home` whose entry for `cli/fact.pexe` is a planted image: the image of
/// `examples/main_without_parameters.pnaclasm` (exit status 42), claiming fact's hash and
/// sealed with the cache's key. Returns the entry's path. Checks that the plant works
/// while the cache is trusted, so that the refusals below are what stops it.
fn planted_cache(home: &Path) -> PathBuf {
    let first = run_fact(home);
    assert_eq!(first.status.code(), Some(6), "{}", text(&first.stderr));
    let images = home.join("pnacl/images");
    let entries: Vec<PathBuf> = std::fs::read_dir(&images).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    let entry = entries[0].clone();
    let dir = tempfile::tempdir().unwrap();
    let image = dir.path().join("other.pnaclo");
    let out = pnacl(home)
        .args(["compile", example("main_without_parameters.pnaclasm").to_str().unwrap(), "-o"])
        .arg(&image)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let key: [u8; 32] = std::fs::read(home.join("pnacl/key")).unwrap().try_into().unwrap();
    let bytes = std::fs::read(&image).unwrap();
    let target = Image::header(&bytes).unwrap().target;
    let mut other = Image::from_bytes(&bytes, &target, &key).unwrap();
    other.pexe_hash = *blake3::hash(&std::fs::read(corpus_dir().join("cli/fact.pexe")).unwrap()).as_bytes();
    std::fs::write(&entry, other.to_bytes(&target, &key)).unwrap();
    let planted = run_fact(home);
    assert_eq!(planted.status.code(), Some(42), "the plant is loaded from a trusted cache: {}", text(&planted.stderr));
    entry
}

/// fact ran as itself, with the cache left alone, and one warning saying why.
fn refused(out: &Output, why: &str) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(6), "the planted image ran: {stderr}");
    let warning = format!("pnacl run: warning: {why}; running without the cache\n");
    assert!(stderr.starts_with(&warning), "expected `{warning}`, got: {stderr}");
    assert_eq!(stderr.matches("warning").count(), 1, "{stderr}");
    assert!(stderr.contains("pnacl: stats: translation ") && !stderr.contains("translation loaded"), "{stderr}");
}

#[test]
fn a_cache_another_user_owns_is_not_used() {
    let home = tempfile::tempdir().unwrap();
    let entry = planted_cache(home.path());
    let planted = std::fs::read(&entry).unwrap();
    give_away(&home.path().join("pnacl"));
    let cache = home.path().join("pnacl");
    refused(&run_fact(home.path()), &format!("{} is owned by uid 12345, not by you (uid 0)", cache.display()));
    assert_eq!(std::fs::read(&entry).unwrap(), planted, "nothing is written into it");
}

#[test]
fn a_cache_others_can_write_or_read_the_key_of_is_not_used() {
    let home = tempfile::tempdir().unwrap();
    planted_cache(home.path());
    let cache = home.path().join("pnacl");
    set_mode(&cache, 0o777);
    refused(&run_fact(home.path()), &format!("{} is writable by other users (mode 777)", cache.display()));
    set_mode(&cache, 0o700);
    set_mode(&cache.join("images"), 0o775);
    let images = cache.join("images");
    refused(&run_fact(home.path()), &format!("{} is writable by other users (mode 775)", images.display()));
    set_mode(&images, 0o755);
    set_mode(&cache.join("key"), 0o644);
    let key = cache.join("key");
    refused(&run_fact(home.path()), &format!("{} is accessible to other users (mode 644)", key.display()));
    set_mode(&key, 0o600);
    // A directory above the cache that others can write (not sticky, as /tmp is): they
    // could rename the cache away and put theirs in its place.
    set_mode(home.path(), 0o777);
    let above = std::fs::canonicalize(home.path()).unwrap();
    refused(
        &run_fact(home.path()),
        &format!(
            "{} (above {}) is writable by other users (mode 777), who could replace what is in it",
            above.display(),
            cache.display()
        ),
    );
    set_mode(home.path(), 0o700);
    assert_eq!(run_fact(home.path()).status.code(), Some(42), "trusted again, the plant runs");
}

#[test]
fn cache_entries_are_regular_files_of_the_user() {
    let home = tempfile::tempdir().unwrap();
    let entry = planted_cache(home.path());
    let elsewhere = tempfile::tempdir().unwrap();
    let plant = elsewhere.path().join("plant.pnaclo");
    std::fs::rename(&entry, &plant).unwrap();
    let fifo = std::ffi::CString::new(entry.to_str().unwrap()).unwrap();
    type Make<'a> = Box<dyn Fn() + 'a>;
    let cases: Vec<(&str, Make<'_>, &str)> = vec![
        (
            "a symbolic link to a planted image",
            Box::new(|| std::os::unix::fs::symlink(&plant, &entry).unwrap()),
            "is a symbolic link",
        ),
        (
            "a symbolic link to /dev/zero",
            Box::new(|| std::os::unix::fs::symlink("/dev/zero", &entry).unwrap()),
            "is a symbolic link",
        ),
        (
            "a FIFO",
            // SAFETY: a valid path.
            Box::new(|| assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0)),
            "is not a regular file",
        ),
    ];
    for (what, make, why) in cases {
        let _ = std::fs::remove_file(&entry);
        make();
        let mut command = pnacl(home.path());
        command.current_dir(corpus_dir()).args(["run", "--stats", "cli/fact.pexe", "--", "a", "b"]);
        let out = run_within(&mut command, Duration::from_secs(60)).unwrap_or_else(|e| panic!("{what}: {e}"));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(6), "{what}: {stderr}");
        assert!(
            stderr.contains(&format!("cached translation refused ({} {why})", entry.display())),
            "{what}: {stderr}"
        );
        // Replaced by the translation (the name, not what a link pointed to).
        let meta = std::fs::symlink_metadata(&entry).unwrap();
        assert!(meta.is_file() && meta.permissions().mode() & 0o777 == 0o600, "{what}: {meta:?}");
    }
    assert_eq!(std::fs::read(&plant).unwrap().len(), std::fs::metadata(&plant).unwrap().len() as usize);
    // A regular file another user owns, sealed with the right key: not loaded.
    std::fs::copy(&plant, &entry).unwrap();
    give_away(&entry);
    let out = run_fact(home.path());
    assert_eq!(out.status.code(), Some(6), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("is owned by uid 12345, not by you"), "{}", text(&out.stderr));
}

#[test]
fn what_needs_the_key_fails_on_a_cache_that_is_not_trusted() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let image = dir.path().join("fact.pnaclo");
    let compile = |home: &Path| {
        pnacl(home).current_dir(corpus_dir()).args(["compile", "cli/fact.pexe", "-o"]).arg(&image).output().unwrap()
    };
    assert!(compile(home.path()).status.success());
    let cache = home.path().join("pnacl");
    set_mode(&cache, 0o777);
    let out = compile(home.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "pnacl compile: cli/fact.pexe: cannot seal the image: {} is writable by other users (mode 777)\n",
            cache.display()
        )
    );
    let run = |flags: &[&str]| {
        let mut c = pnacl(home.path());
        c.arg("run").args(flags).arg(&image).args(["a", "b"]).output().unwrap()
    };
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(125));
    assert!(text(&out.stderr).contains("its seal cannot be checked: "), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("--allow-precompiled runs it anyway"), "{}", text(&out.stderr));
    assert_eq!(run(&["--allow-precompiled"]).status.code(), Some(6));
}

#[test]
fn allow_precompiled_runs_an_image_another_key_sealed_and_checks_it_still() {
    let ours = tempfile::tempdir().unwrap();
    let theirs = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let image = dir.path().join("fact.pnaclo");
    let out = pnacl(theirs.path())
        .current_dir(corpus_dir())
        .args(["compile", "cli/fact.pexe", "-o"])
        .arg(&image)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let run = |flags: &[&str], image: &Path| {
        let mut c = pnacl(ours.path());
        c.arg("run").args(flags).arg(image).args(["a", "b"]).output().unwrap()
    };
    let out = run(&[], &image);
    assert_eq!(out.status.code(), Some(125));
    assert!(
        text(&out.stderr).ends_with(
            "its seal does not match: it was changed after pnacl wrote it, or written by another user's pnacl; \
             refusing to run it (--allow-precompiled runs it anyway, at the risk `pnacl run --help` states)\n"
        ),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["--allow-precompiled"], &image);
    assert_eq!(out.status.code(), Some(6), "{}", text(&out.stderr));
    // Checked in every other way: a relocation moved by a byte is refused.
    let key: [u8; 32] = std::fs::read(theirs.path().join("pnacl/key")).unwrap().try_into().unwrap();
    let bytes = std::fs::read(&image).unwrap();
    let target = Image::header(&bytes).unwrap().target;
    let mut moved = Image::from_bytes(&bytes, &target, &key).unwrap();
    moved.object.relocs[0].offset += 1;
    let path = dir.path().join("moved.pnaclo");
    std::fs::write(&path, moved.to_bytes(&target, &[0; 32])).unwrap();
    let out = run(&["--allow-precompiled"], &path);
    assert_eq!(out.status.code(), Some(125), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("malformed image: the relocation at"), "{}", text(&out.stderr));
    // The help states the risk.
    let help = text(&pnacl(ours.path()).args(["run", "--help"]).output().unwrap().stdout);
    assert!(help.contains("RISK: an image is") && help.contains("native code"), "{help}");
}

#[test]
fn cc_builds_its_c_library_for_the_run_when_the_cached_one_is_not_trusted() {
    pnacl_testutil::llvm_tool("clang", 14);
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("seven.c");
    std::fs::write(&c, "#include <stdio.h>\nint main(void) { printf(\"seven\\n\"); return 7; }\n").unwrap();
    let cc = || {
        pnacl(home.path()).args(["cc", c.to_str().unwrap(), "-o"]).arg(dir.path().join("seven.pexe")).output().unwrap()
    };
    let first = cc();
    // The first build into the cache is announced (newlib takes a while), nothing else.
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(
        text(&first.stderr).lines().all(|l| l.starts_with("pnacl cc: building the C library")),
        "{}",
        text(&first.stderr)
    );
    let libc_dir = std::fs::read_dir(home.path().join("pnacl"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("newlib-"))
        .expect("the C library is cached");
    // One of its headers changed hands: another user could have written into it.
    let header = libc_dir.join("include/newlib/stdio.h");
    assert!(header.is_file(), "{}", header.display());
    give_away(&header);
    let second = cc();
    assert!(second.status.success(), "{}", text(&second.stderr));
    assert_eq!(
        text(&second.stderr),
        format!(
            "pnacl cc: warning: {} is owned by uid 12345, not by you (uid 0); building pnacl's C library for this \
             run only\n",
            header.display()
        )
    );
    let run = pnacl(home.path()).arg("run").arg(dir.path().join("seven.pexe")).output().unwrap();
    assert_eq!((run.status.code(), text(&run.stdout)), (Some(7), "seven\n".to_string()));
}
