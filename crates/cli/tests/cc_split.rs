//! Random programs of many C files: two csmith programs, each split across files by
//! function (its globals in one file, its functions dealt among three, its `main` in
//! another, a header declaring what they share), linked together with a driver that runs
//! both. The two programs' struct types have the same tags (`struct S0`, `union U0`) and,
//! mostly, other bodies, their functions pass and return structs by value across files,
//! and every global is reached from other files. Each pair is built by `pnacl cc` in three
//! orders of its files (as given, reversed, shuffled) at -O0, -O2 and -O1, and checked
//! against gcc's 32-bit build of the same files, whose output must itself be the two
//! programs' outputs unsplit, one after the other.

#[path = "common/multifile.rs"]
mod multifile;

use multifile::{difference, native, output_within, parallel, pnacl_cc, require, require_compilers, run_pexe, threads};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Pairs of csmith seeds to try, in order; the first [`PAIRS`] whose programs finish
/// natively within [`NATIVE_LIMIT`] are checked (a few csmith programs run for minutes;
/// they are passed over for that reason alone, before pnacl is involved). Each seed's
/// program (csmith 2.3.0) defines structs or unions, and most pass or return them by value.
const SEEDS: &[(u64, u64)] = &[
    (202, 222),
    (219, 244),
    (250, 274),
    (270, 231),
    (213, 237),
    (288, 276),
    (210, 226),
    (284, 232),
    (223, 228),
    (242, 279),
];

/// How many pairs are checked.
const PAIRS: usize = 8;

/// Longest native run of a program taken.
const NATIVE_LIMIT: Duration = Duration::from_secs(5);

/// Pairs that fail today, and why.
const KNOWN_FAILURES: &[((u64, u64), &str)] = &[];

/// csmith's header directory (`-I`).
const CSMITH_INCLUDE: &str = "/usr/include/csmith";

/// One csmith program split into files: the header they share and the files, in the order
/// globals, functions, main.
struct Split {
    header: (String, String),
    files: Vec<(String, String)>,
}

/// Prefixes csmith's own names (`g_N`, `func_N`, `main`) with `prefix`, so that two
/// programs link together; struct and union tags keep their names.
fn prefix_names(text: &str, prefix: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            let numbered =
                |p: &str| word.strip_prefix(p).is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            if word == "main" || numbered("g_") || numbered("func_") {
                out.push_str(prefix);
            }
            out.push_str(word);
        } else if c.is_ascii_digit() {
            // A number's digits and suffixes (`0x3EL`) are not names.
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'.') {
                i += 1;
            }
            out.push_str(&text[start..i]);
        } else {
            let len = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&text[i..i + len]);
            i += len;
        }
    }
    out
}

/// The text between `from` (exclusive) and `to` in `text`.
fn section<'a>(text: &'a str, from: &str, to: &str) -> Result<&'a str, String> {
    let start = text.find(from).ok_or_else(|| format!("no `{from}`"))? + from.len();
    let end = start + text[start..].find(to).ok_or_else(|| format!("no `{to}` after `{from}`"))?;
    Ok(&text[start..end])
}

/// The file-scope statements of `text` (a statement ends with a line ending in `;`),
/// without comments (csmith ends some lines with one: `... = 0L;/* VOLATILE GLOBAL g_2 */`)
/// and blank lines.
fn statements(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        let line = match line.find(";/*") {
            Some(at) if line.trim_end().ends_with("*/") => &line[..at + 1],
            _ => line,
        };
        let t = line.trim();
        if current.is_empty() && (t.is_empty() || t.starts_with("/*") || t.starts_with("*") || t.starts_with("//")) {
            continue;
        }
        current.push_str(line);
        current.push('\n');
        if t.ends_with(';') {
            out.push(std::mem::take(&mut current));
        }
    }
    out
}

/// `static ...` made external: the first `static ` of a file-scope declaration removed.
fn external(decl: &str) -> Result<String, String> {
    let t = decl.trim_start();
    t.strip_prefix("static ").map(str::to_string).ok_or_else(|| format!("not a static declaration: {decl}"))
}

/// Splits csmith program `text` (names already prefixed with `prefix`) into a header and
/// files: globals, the functions dealt round-robin among `function_files`, main.
fn split(text: &str, prefix: &str, function_files: usize) -> Result<Split, String> {
    const STRUCTS: &str = "/* --- Struct/Union Declarations --- */";
    const GLOBALS: &str = "/* --- GLOBAL VARIABLES --- */";
    const FORWARD: &str = "/* --- FORWARD DECLARATIONS --- */";
    const FUNCTIONS: &str = "/* --- FUNCTIONS --- */";
    const FUNCTION_SEPARATOR: &str = "/* ------------------------------------------ */";
    let main_start = format!("int {prefix}main (");
    let preamble = &text[..text.find(STRUCTS).ok_or("no struct section")?];
    let types = section(text, STRUCTS, GLOBALS)?;
    let globals = section(text, GLOBALS, FORWARD)?;
    let forward = section(text, FORWARD, FUNCTIONS)?;
    let functions = section(text, FUNCTIONS, &main_start)?;
    let main_end =
        text.find("/****************** statistics").or_else(|| text.find("/************************ statistics"));
    let main_at = text.find(&main_start).ok_or("no main")?;
    let main = &text[main_at..main_end.unwrap_or(text.len())];

    let header_name = format!("{prefix}prog.h");
    let mut header = format!("#ifndef {prefix}PROG_H\n#define {prefix}PROG_H\n");
    // The preamble: csmith.h and the `static long __undefined;` each file may use.
    header.push_str(
        preamble
            .lines()
            .filter(|l| !l.trim_start().starts_with("/*") && !l.starts_with(" *"))
            .collect::<Vec<_>>()
            .join("\n")
            .as_str(),
    );
    header.push('\n');
    header.push_str(types);
    let mut definitions = format!("#include \"{header_name}\"\n");
    for g in statements(globals) {
        let def = external(&g)?;
        let declarator = def.split(" = ").next().unwrap_or(&def).trim_end().trim_end_matches(';');
        header.push_str(&format!("extern {declarator};\n"));
        definitions.push_str(&def);
    }
    for f in statements(forward) {
        header.push_str(&external(&f)?);
    }
    header.push_str("#endif\n");

    let mut function_texts = vec![format!("#include \"{header_name}\"\n"); function_files];
    let chunks = functions.split(FUNCTION_SEPARATOR).filter(|c| c.contains('{'));
    for (k, chunk) in chunks.enumerate() {
        let mut body = String::new();
        let mut made_external = false;
        for line in chunk.lines() {
            if !made_external && line.starts_with("static ") {
                body.push_str(&external(line)?);
                made_external = true;
            } else {
                body.push_str(line);
            }
            body.push('\n');
        }
        if !made_external {
            return Err(format!("a function without its static definition line:\n{chunk}"));
        }
        function_texts[k % function_files].push_str(&body);
    }
    let mut files = vec![(format!("{prefix}globals.c"), definitions)];
    for (k, t) in function_texts.into_iter().enumerate() {
        files.push((format!("{prefix}functions{k}.c"), t));
    }
    files.push((format!("{prefix}main.c"), format!("#include \"{header_name}\"\n{main}")));
    Ok(Split { header: (header_name, header), files })
}

/// The struct and union definitions of a csmith program, by tag (`struct S0`), with their
/// bodies as written.
fn tagged_types(text: &str) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    let mut rest = text;
    while let Some(at) = rest.find("\nstruct ").or_else(|| rest.find("\nunion ")) {
        let def = &rest[at + 1..];
        let Some(open) = def.find(" {") else { break };
        let Some(close) = def.find("\n};") else { break };
        out.insert(def[..open].to_string(), def[open..close].to_string());
        rest = &def[close..];
    }
    out
}

/// csmith's program for `seed`.
fn csmith(seed: u64, dir: &Path) -> String {
    let o = Command::new("csmith").args(["--seed", &seed.to_string()]).current_dir(dir).output().expect("run csmith");
    assert!(o.status.success(), "csmith --seed {seed} failed");
    String::from_utf8(o.stdout).expect("csmith writes text")
}

/// The native output of `files`, if it finishes within the limit.
fn native_output(files: &[PathBuf], exe: &Path) -> Result<Option<std::process::Output>, String> {
    native(files, &[format!("-I{CSMITH_INCLUDE}")], exe)?;
    Ok(output_within(Command::new(exe), NATIVE_LIMIT))
}

/// A deterministic shuffle of `n` indices (a linear congruential generator from `seed`).
fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    for i in (1..n).rev() {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let j = ((state >> 33) as usize) % (i + 1);
        order.swap(i, j);
    }
    order
}

/// What checking one pair of seeds found.
struct PairResult {
    /// Every problem.
    problems: Vec<String>,
    /// Whether the two programs define a struct or union of the same tag with other bodies.
    same_tag_other_body: bool,
}

/// Checks one pair of seeds; `None` when a program does not finish natively (passed over).
fn check_pair(pair: (u64, u64)) -> Option<PairResult> {
    let dir = tempfile::tempdir().expect("temporary directory");
    let d = dir.path();
    let what = format!("seeds {} + {}", pair.0, pair.1);
    let mut expected = Vec::new();
    let mut files: Vec<PathBuf> = Vec::new();
    let mut tags = Vec::new();
    let failed = |problem: String| Some(PairResult { problems: vec![problem], same_tag_other_body: false });
    for (k, seed) in [pair.0, pair.1].into_iter().enumerate() {
        let text = csmith(seed, d);
        tags.push(tagged_types(&text));
        let whole = d.join(format!("whole{seed}.c"));
        std::fs::write(&whole, &text).expect("write");
        let exe = d.join(format!("whole{seed}"));
        match native_output(&[whole], &exe) {
            Err(e) => return failed(format!("{what}: {e}")),
            Ok(None) => return None,
            Ok(Some(o)) if !o.status.success() => return None,
            Ok(Some(o)) => expected.extend(o.stdout),
        }
        let prefix = format!("p{k}_");
        let parts = match split(&prefix_names(&text, &prefix), &prefix, 3) {
            Ok(parts) => parts,
            Err(e) => return failed(format!("{what}: csmith --seed {seed} could not be split: {e}")),
        };
        std::fs::write(d.join(&parts.header.0), &parts.header.1).expect("write");
        for (name, text) in parts.files {
            std::fs::write(d.join(&name), text).expect("write");
            files.push(d.join(name));
        }
    }
    let driver = d.join("driver.c");
    std::fs::write(
        &driver,
        "int p0_main(int, char **);\nint p1_main(int, char **);\n\
         int main(int argc, char **argv) { p0_main(argc, argv); return p1_main(argc, argv); }\n",
    )
    .expect("write");
    files.push(driver);

    let mut problems = Vec::new();
    let exe = d.join("native-split");
    let want = match native_output(&files, &exe) {
        Err(e) => return failed(format!("{what}: {e}")),
        Ok(None) => return failed(format!("{what}: the split programs run over the limit natively")),
        Ok(Some(o)) => o,
    };
    if want.stdout != expected {
        problems.push(format!(
            "{what}: gcc's build of the split programs prints {:?}, the programs unsplit {:?} (the split is wrong)",
            String::from_utf8_lossy(&want.stdout),
            String::from_utf8_lossy(&expected)
        ));
    }
    let orders: [(&str, Vec<usize>, &str); 3] = [
        ("as given", (0..files.len()).collect(), "-O0"),
        ("reversed", (0..files.len()).rev().collect(), "-O2"),
        ("shuffled", shuffled(files.len(), pair.0 * 1000 + pair.1), "-O1"),
    ];
    let include = vec![format!("-I{CSMITH_INCLUDE}")];
    for (name, order, opt) in orders {
        let ordered: Vec<PathBuf> = order.iter().map(|&i| files[i].clone()).collect();
        let pexe = d.join(format!("{}.pexe", name.replace(' ', "-")));
        let label = format!("{what}, files {name} ({}), {opt}", multifile::names(&ordered));
        match pnacl_cc(&ordered, opt, &include, &pexe).and_then(|()| run_pexe(&pexe)) {
            Err(e) => problems.push(format!("{label}: {e}")),
            Ok(got) => problems.extend(difference(&label, &got, &want)),
        }
    }
    let same_tag_other_body = tags[0].iter().any(|(tag, body)| tags[1].get(tag).is_some_and(|b| b != body));
    Some(PairResult { problems, same_tag_other_body })
}

#[test]
fn split_csmith_programs_match_gcc_in_any_file_order() {
    require("csmith", "csmith libcsmith-dev");
    require_compilers();
    assert!(
        Path::new(CSMITH_INCLUDE).join("csmith.h").is_file(),
        "csmith.h is missing (Debian: apt-get install libcsmith-dev)"
    );
    // Pairs in batches, until enough have finished natively.
    let mut checked: Vec<((u64, u64), PairResult)> = Vec::new();
    let mut passed_over = Vec::new();
    for batch in SEEDS.chunks(threads()) {
        if checked.len() >= PAIRS {
            break;
        }
        for (pair, result) in batch.iter().zip(parallel(batch, threads(), |&p| check_pair(p))) {
            match result {
                Some(result) if checked.len() < PAIRS => checked.push((*pair, result)),
                Some(_) => {}
                None => passed_over.push(*pair),
            }
        }
    }
    eprintln!(
        "{} seed pairs checked ({} with a tag of other bodies in the two programs), {} passed over: {passed_over:?}",
        checked.len(),
        checked.iter().filter(|(_, r)| r.same_tag_other_body).count(),
        passed_over.len()
    );
    assert!(
        checked.len() >= PAIRS,
        "only {} seed pairs finished natively (passed over: {passed_over:?})",
        checked.len()
    );
    // The test is about same-named types with other bodies: most pairs must have some.
    let clashing = checked.iter().filter(|(_, r)| r.same_tag_other_body).count();
    assert!(
        clashing * 2 >= checked.len(),
        "only {clashing} of {} pairs define a struct or union tag in both programs with other bodies: choose other seeds",
        checked.len()
    );
    let mut report = Vec::new();
    for (pair, result) in &checked {
        let known = KNOWN_FAILURES.iter().find(|k| k.0 == *pair);
        match (result.problems.is_empty(), known) {
            (false, None) => report.push(result.problems.join("\n")),
            (true, Some(_)) => report.push(format!("seeds {pair:?} pass now: remove them from KNOWN_FAILURES")),
            _ => {}
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn names_are_prefixed_outside_numbers() {
    let text = "static int32_t g_12 = 0x3EL; int main (void) { return func_3(g_12, g_1x, xg_2, 1e5); }";
    assert_eq!(
        prefix_names(text, "p0_"),
        "static int32_t p0_g_12 = 0x3EL; int p0_main (void) { return p0_func_3(p0_g_12, g_1x, xg_2, 1e5); }"
    );
}
