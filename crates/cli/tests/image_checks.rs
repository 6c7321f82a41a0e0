//! Images checked before any byte of them becomes executable (issue 32): an image that
//! differs from a valid one in one field and is sealed again with the right key, as its
//! author or a broken disk might leave it, is refused with status 125 and a message, never
//! run (where pnacl crashed before: relocation offsets and addends, function code offsets).
//! A stale or foreign image's header reaches the terminal escaped; an image holds
//! zero-fill as a size.

mod support;

use pnacl_codegen::RelocTarget;
use pnacl_runtime::Image;
use pnacl_testutil::corpus_dir;
use std::path::Path;
use support::{pnacl, text};

/// `cli/fannkuchredux.pexe` compiled with the cache under `home`, decoded: the image, its
/// target features and the key that sealed it.
fn compiled(home: &Path, dir: &Path) -> (Image, String, [u8; 32]) {
    let path = dir.join("fannkuch.pnaclo");
    let out = pnacl(home)
        .current_dir(corpus_dir())
        .args(["compile", "cli/fannkuchredux.pexe", "-o"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let key: [u8; 32] = std::fs::read(home.join("pnacl/key")).unwrap().try_into().unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let target = Image::header(&bytes).unwrap().target;
    let image = Image::from_bytes(&bytes, &target, &key).unwrap();
    (image, target, key)
}

#[test]
fn resealed_images_with_a_field_changed_are_refused() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (good, target, key) = compiled(home.path(), dir.path());
    // The module functions that have code.
    fn coded(i: &Image) -> Vec<usize> {
        (0..i.object.functions.len()).filter(|&f| i.object.functions[f].is_some()).collect()
    }
    fn first_code(i: &Image) -> usize {
        coded(i)[0]
    }
    let membase = good.object.relocs.iter().position(|r| r.target == RelocTarget::MemoryBase).unwrap();
    type Change = Box<dyn Fn(&mut Image)>;
    let changes: Vec<(&str, Change, &str)> = vec![
        ("a relocation a byte later", Box::new(|i| i.object.relocs[0].offset += 1), "the relocation at"),
        ("a relocation a byte earlier", Box::new(|i| i.object.relocs[3].offset -= 1), "the relocation at"),
        (
            "a relocation moved into the next instructions",
            Box::new(|i| i.object.relocs[5].offset += 16),
            "the relocation at",
        ),
        ("the memory base's addend", Box::new(move |i| i.object.relocs[membase].addend = 1 << 32), "addend 4294967296"),
        ("a negative addend", Box::new(|i| i.object.relocs[1].addend = -8), "addend -8"),
        (
            "a relocation to the middle of a function",
            Box::new(|i| {
                i.object.relocs[2].target = RelocTarget::Code(i.object.functions[first_code(i)].unwrap().offset + 4)
            }),
            "an unknown target",
        ),
        (
            "a relocation to an unknown helper",
            Box::new(|i| i.object.relocs[2].target = RelocTarget::Host(99)),
            "an unknown target",
        ),
        (
            "a relocation past the code",
            Box::new(|i| i.object.relocs.last_mut().unwrap().offset = i.object.code.len() as u32 - 4),
            "the relocation at",
        ),
        (
            "a function's code two bytes later",
            Box::new(|i| {
                let f = coded(i)[1];
                i.object.functions[f].as_mut().unwrap().offset += 2;
            }),
            "its code is not where the translator puts it",
        ),
        (
            "a function's code 16 bytes earlier",
            Box::new(|i| {
                let f = coded(i)[2];
                i.object.functions[f].as_mut().unwrap().offset -= 16;
            }),
            "its code is not where the translator puts it",
        ),
        (
            "a function 64 bytes longer",
            Box::new(|i| {
                let f = coded(i)[0];
                i.object.functions[f].as_mut().unwrap().len += 64;
            }),
            "its code is not where the translator puts it",
        ),
        (
            "an empty function",
            Box::new(|i| {
                let f = i.object.functions.iter().position(|f| f.is_none()).unwrap();
                let at = i.object.functions[coded(i)[3]].unwrap().offset;
                i.object.functions[f] = Some(pnacl_codegen::CodeRange { offset: at, len: 0 });
                i.function_sigs[f] = 0;
            }),
            "its code is not where the translator puts it",
        ),
        (
            "the entry point at another function",
            Box::new(|i| i.entry = *coded(i).iter().find(|&&f| f != i.entry as usize).unwrap() as u32),
            "the entry point is not a function of type void (i32)",
        ),
        ("a function table one longer", Box::new(|i| i.object.table_len += 1), "the function table is not laid out"),
        (
            "a trap site past the code",
            Box::new(|i| i.object.traps.last_mut().unwrap().0 = i.object.code.len() as u32 + 8),
            "outside every function",
        ),
        ("trap sites out of order", Box::new(|i| i.object.traps.swap(0, 1)), "trap sites out of order"),
        ("relocations out of order", Box::new(|i| i.object.relocs.swap(0, 1)), "out of order, or overlapping"),
        ("data past the half of the space", Box::new(|i| i.data.len = 0xf000_0000), "the globals' layout"),
        (
            "initial data past its end",
            Box::new(|i| {
                let len = i.data.len;
                i.data.runs.push((len - 2, vec![1, 2, 3, 4]));
            }),
            "the globals' initial data",
        ),
    ];
    for (what, change, message) in changes {
        let mut image = good.clone();
        change(&mut image);
        let path = dir.path().join("changed.pnaclo");
        std::fs::write(&path, image.to_bytes(&target, &key)).unwrap();
        let out = pnacl(home.path()).arg("run").arg(&path).arg("7").output().unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(125), "{what}: the image ran ({:?}): {stderr}", out.status);
        let expected = format!("pnacl run: {}: malformed image: ", path.display());
        assert!(stderr.starts_with(&expected) && stderr.contains(message), "{what}: {stderr}");
        assert!(out.stdout.is_empty(), "{what}");
    }
    // The unchanged image, encoded the same way, runs.
    let path = dir.path().join("same.pnaclo");
    std::fs::write(&path, good.to_bytes(&target, &key)).unwrap();
    let out = pnacl(home.path()).arg("run").arg(&path).arg("7").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).ends_with("Pfannkuchen(7) = 16\n"));
}

#[test]
fn a_stale_image_header_is_shown_escaped() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (good, target, key) = compiled(home.path(), dir.path());
    let mut bytes = good.to_bytes(&target, &key);
    // The build id, the header's second string, replaced by one of the same length that
    // would retitle a terminal window and clear the screen.
    let at = 12 + 4 + u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let hostile = b"\x1b]0;owned\x07\x1b[2J\n";
    assert!(len >= hostile.len());
    bytes[at + 4..at + 4 + len].fill(b'x');
    bytes[at + 4..at + 4 + hostile.len()].copy_from_slice(hostile);
    let body = bytes.len() - 32;
    let seal = blake3::keyed_hash(&key, &bytes[..body]);
    bytes[body..].copy_from_slice(seal.as_bytes());
    let path = dir.path().join("stale.pnaclo");
    std::fs::write(&path, &bytes).unwrap();
    let out = pnacl(home.path()).arg("run").arg(&path).output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(125), "{stderr}");
    assert!(!stderr.contains('\x1b') && !stderr.contains('\x07'), "raw escapes reached the terminal: {stderr:?}");
    assert!(
        stderr.contains("stale: made by pnacl ") && stderr.contains("(build \\u{1b}]0;owned\\u{7}\\u{1b}[2J\\n"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// A pexe whose one global is a zero-fill of `size` bytes, used by `_start`.
fn zerofill_pexe(dir: &Path, size: u64) -> std::path::PathBuf {
    let source_text = format!(
        "module {{\n  version 1;\n  types {{\n    count 3;\n    @t0 = i32;\n    @t1 = void;\n    @t2 = void (i32);\n  \
         }}\n  define external void @f0(i32);\n  globals {{\n    count 1;\n    var @g0, align 4,\n      zerofill {size};\n  \
         }}\n  valuesymtab {{\n    @f0 : \"_start\";\n  }}\n  function void @f0(i32 %p0) {{\n    blocks 1;\n  %b0:\n    \
         store i32 %p0, i32* @g0, align 1;\n    ret void;\n  }}\n}}\n"
    );
    let source = dir.join("zerofill.pnaclasm");
    std::fs::write(&source, source_text).unwrap();
    let pexe = dir.join("zerofill.pexe");
    let out = pnacl_testutil::pnacl_command().arg("asm").arg(&source).arg("-o").arg(&pexe).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    pexe
}

#[test]
fn zero_fill_is_a_size_in_images_and_untouched_at_run_time() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let pexe = zerofill_pexe(dir.path(), 1 << 30);
    let pexe_len = std::fs::metadata(&pexe).unwrap().len();
    let image = dir.path().join("zerofill.pnaclo");
    let out = pnacl(home.path()).arg("compile").arg(&pexe).arg("-o").arg(&image).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let image_len = std::fs::metadata(&image).unwrap().len();
    eprintln!("a {pexe_len}-byte pexe with a 1 GiB zero-fill global: a {image_len}-byte image");
    assert!(image_len < 64 << 10, "the image of a {pexe_len}-byte pexe is {image_len} bytes");
    for file in [&pexe, &image] {
        let out = pnacl(home.path()).arg("run").arg("--stats").arg(file).output().unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        let rss: f64 = stderr
            .split("peak RSS ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no peak RSS in {stderr}"));
        eprintln!("pnacl run {}: peak RSS {rss} MiB", file.display());
        assert!(rss < 256.0, "{}: peak RSS {rss} MiB for 1 GiB of zeros", file.display());
    }
    let entries: Vec<_> = std::fs::read_dir(home.path().join("pnacl/images")).unwrap().map(|e| e.unwrap()).collect();
    assert_eq!(entries.len(), 1);
    let cached = entries[0].metadata().unwrap().len();
    eprintln!("its cache entry: {cached} bytes");
    assert!(cached < 64 << 10, "the cache entry is {cached} bytes");
}
