//! `pnacl ar`: archives of LLVM bitcode objects for `pnacl cc -l`, used as `ar` and
//! `llvm-ar` are (`pnacl ar rcs libutil.a a.o b.o`, `t`, `x`, `d`, `p`, `q`, `s`). The
//! archive is written with a symbol table of the symbols its bitcode members define (which
//! binutils' `ar` cannot read from bitcode), deterministically, and whole or not at all.

use crate::archive;
use crate::output::{self, Content};
use crate::report::{self, Diagnostic, Failure};
use crate::status;
use std::path::{Path, PathBuf};

/// Arguments of `pnacl ar`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Operations (one, with its modifiers, in one word; a leading `-` is allowed):\n  \
                        r  insert the files, replacing members of the same name (creates the archive)\n  \
                        q  append the files\n  \
                        d  delete the named members\n  \
                        t  list the members (v: with their sizes)\n  \
                        x  extract the named members (all if none is named) into the current directory\n  \
                        p  write the named members (all if none) to standard output\n  \
                        s  write the symbol table (as ranlib; every write does)\n\
                        Modifiers: c (create quietly), s (symbol table: always written), v (verbose), u and D \
                        (accepted: members are always written without dates, owners or modes).\n\n\
                        Examples:\n  pnacl cc -O2 -c a.c b.c && pnacl ar rcs libab.a a.o b.o\n  \
                        pnacl ar t libab.a\n  \
                        pnacl ar x libab.a a.o\n  \
                        pnacl cc main.c -L. -lab -o prog.pexe")]
pub struct Args {
    /// The operation and its modifiers: `rcs`, `t`, `x`, ...
    #[arg(allow_hyphen_values = true, value_name = "OPERATION")]
    pub operation: String,
    /// The archive.
    pub archive: PathBuf,
    /// The files to insert, or the members to extract, list, print or delete.
    pub files: Vec<PathBuf>,
}

/// Runs the command; returns the process exit status.
pub fn run(args: &Args) -> i32 {
    report::finish("ar", ar(args))
}

/// An operation of `ar`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Operation {
    Replace,
    Append,
    Delete,
    List,
    Extract,
    Print,
    Index,
}

/// The operation and whether `c` and `v` were given.
fn parse(word: &str) -> Result<(Operation, bool, bool), String> {
    let letters = word.strip_prefix('-').unwrap_or(word);
    let mut operation = None;
    let (mut create, mut verbose, mut index) = (false, false, false);
    for c in letters.chars() {
        let op = match c {
            'r' => Operation::Replace,
            'q' => Operation::Append,
            'd' => Operation::Delete,
            't' => Operation::List,
            'x' => Operation::Extract,
            'p' => Operation::Print,
            'c' => {
                create = true;
                continue;
            }
            'v' => {
                verbose = true;
                continue;
            }
            's' => {
                index = true;
                continue;
            }
            'u' | 'D' | 'U' | 'o' => continue,
            'T' => return Err("thin archives (T) are not supported".into()),
            other => return Err(format!("`{other}` in `{word}`: not an operation or modifier pnacl ar knows")),
        };
        if operation.replace(op).is_some() {
            return Err(format!("`{word}`: more than one operation"));
        }
    }
    match (operation, index) {
        (Some(op), _) => Ok((op, create, verbose)),
        (None, true) => Ok((Operation::Index, create, verbose)),
        (None, false) => Err(format!("`{word}`: no operation (r, q, d, t, x, p or s)")),
    }
}

/// A member's name: the file's name without its directories, as `ar` stores it.
fn member_name(path: &Path) -> Result<String, Failure> {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| Failure::input(&path.display().to_string(), "not a file name"))
}

fn ar(args: &Args) -> Result<i32, Failure> {
    let (op, create, verbose) = parse(&args.operation).map_err(|e| {
        Failure::new(Diagnostic::error(None, format!("{e} (see pnacl ar --help)"))).with_status(status::USAGE)
    })?;
    let name = args.archive.display().to_string();
    let exists = args.archive.exists();
    let mut members = if exists {
        let bytes = crate::input::read(&args.archive, crate::input::Expect::Archive)?;
        archive::members(&args.archive, &bytes).map_err(|e| Failure::new(Diagnostic::error(None, e)))?
    } else if matches!(op, Operation::Replace | Operation::Append) {
        if !create {
            report::eprint_line(&format!("pnacl ar: creating {name}"));
        }
        Vec::new()
    } else {
        return Err(Failure::input(&name, "no such archive"));
    };
    let wanted: Vec<String> = args.files.iter().map(|p| member_name(p)).collect::<Result<_, _>>()?;
    let named = |member: &str| wanted.is_empty() || wanted.iter().any(|w| w == member);
    match op {
        Operation::Replace | Operation::Append => {
            for (file, member) in args.files.iter().zip(&wanted) {
                let file_name = file.display().to_string();
                // Only a regular file is a member: a device (/dev/zero) never ends.
                let regular = std::fs::metadata(file).map_err(|e| Failure::input(&file_name, e))?.is_file();
                if !regular {
                    return Err(Failure::input(&file_name, "not a regular file"));
                }
                let bytes = std::fs::read(file).map_err(|e| Failure::input(&file_name, e))?;
                let existing = members.iter().position(|(m, _)| m == member);
                match existing {
                    Some(k) if op == Operation::Replace => members[k].1 = bytes,
                    _ => members.push((member.clone(), bytes)),
                }
                if verbose {
                    let what = if existing.is_some() && op == Operation::Replace { "r" } else { "a" };
                    report::eprint_line(&format!("{what} - {member}"));
                }
            }
        }
        Operation::Delete => {
            members.retain(|(m, _)| !wanted.contains(m));
        }
        Operation::List => {
            let mut text = String::new();
            for (member, bytes) in members.iter().filter(|(m, _)| named(m)) {
                if verbose {
                    text.push_str(&format!("{:>10} {member}\n", bytes.len()));
                } else {
                    text.push_str(&format!("{member}\n"));
                }
            }
            output::print(&text)?;
            return Ok(status::SUCCESS);
        }
        Operation::Extract => {
            for (member, bytes) in members.iter().filter(|(m, _)| named(m)) {
                // A member is only ever written in the current directory, under its own name.
                let plain = !member.is_empty() && !member.contains('/') && member != "." && member != "..";
                if !plain {
                    return Err(Failure::input(&name, format!("member `{member}`: not a plain file name")));
                }
                if verbose {
                    report::eprint_line(&format!("x - {member}"));
                }
                output::write(Path::new(member), Content::Binary, bytes)?;
            }
            return missing(&wanted, &members, &name);
        }
        Operation::Print => {
            let bytes: Vec<u8> =
                members.iter().filter(|(m, _)| named(m)).flat_map(|(_, b)| b.iter().copied()).collect();
            output::write(Path::new("-"), Content::Binary, &bytes)?;
            return missing(&wanted, &members, &name);
        }
        Operation::Index => {}
    }
    let bytes = archive::to_bytes(members).map_err(|e| Failure::input(&name, e))?;
    output::write(&args.archive, Content::Binary, &bytes)?;
    Ok(status::SUCCESS)
}

/// Fails if a member asked for is not in the archive.
fn missing(wanted: &[String], members: &[(String, Vec<u8>)], name: &str) -> Result<i32, Failure> {
    match wanted.iter().find(|w| !members.iter().any(|(m, _)| m == *w)) {
        Some(w) => Err(Failure::input(name, format!("no member `{w}`"))),
        None => Ok(status::SUCCESS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_are_read_as_ar_reads_them() {
        assert_eq!(parse("rcs"), Ok((Operation::Replace, true, false)));
        assert_eq!(parse("-cru"), Ok((Operation::Replace, true, false)));
        assert_eq!(parse("tv"), Ok((Operation::List, false, true)));
        assert_eq!(parse("s"), Ok((Operation::Index, false, false)));
        assert_eq!(parse("x"), Ok((Operation::Extract, false, false)));
        assert!(parse("rt").is_err());
        assert!(parse("rT").is_err());
        assert!(parse("c").is_err());
        assert!(parse("z").is_err());
    }
}
