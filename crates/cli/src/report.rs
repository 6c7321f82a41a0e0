//! Diagnostics: the one format in which every subcommand reports errors and warnings on
//! standard error.
//!
//! ```text
//! pnacl SUBCOMMAND: FILE: message
//! pnacl SUBCOMMAND: FILE: Error(B:b): message          a position in bitcode (byte:bit)
//! pnacl SUBCOMMAND: FILE:LINE:COL: message             a position in text, then the line
//!     the source line                                  and a caret under the column
//!     ^
//! pnacl SUBCOMMAND: FILE: warning: message
//! ```
//!
//! A rule id, when there is one, ends the first line in brackets. With `--json` every
//! diagnostic is instead one JSON object on one line of standard error (fields `command`,
//! `severity`, `file`, `message`, and when known `rule`, `bit` and `position` (`B:b`), or
//! `line`, `column` and `source`). With `--color` the location is bold, `Error(B:b)` red,
//! `warning:` yellow and the caret green.
//!
//! A subcommand returns `Result<i32, Failure>` from its body and hands it to [`finish`].

use pnacl_bitstream::BitPos;
use pnacl_text::TextError;
use std::fmt::Display;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// When diagnostics are coloured (`--color`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorChoice {
    /// When standard error is a terminal, `NO_COLOR` is unset and `TERM` is not `dumb`.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl ColorChoice {
    fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stderr().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
            }
        }
    }
}

struct Settings {
    color: bool,
    json: bool,
}

static SETTINGS: OnceLock<Settings> = OnceLock::new();

/// Sets how diagnostics are written, once, from the global options.
pub fn init(color: ColorChoice, json: bool) {
    let _ = SETTINGS.set(Settings { color: color.enabled(), json });
}

fn settings() -> &'static Settings {
    SETTINGS.get_or_init(|| Settings { color: false, json: false })
}

/// True when `--json` was given.
pub fn json() -> bool {
    settings().json
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The command fails.
    Error,
    /// Worth knowing; the command goes on.
    Warning,
}

/// Where in its file a diagnostic points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Position {
    /// Nowhere in particular (the file as a whole, or no file).
    None,
    /// A bit position in bitcode.
    Bit(BitPos),
    /// A line and column (1-based) in text, and the line itself.
    Text {
        /// Line number.
        line: u32,
        /// Column number (in characters).
        col: u32,
        /// The source line.
        source: String,
    },
}

/// One error or warning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The file it is about, as the user named it (`<stdin>` for `-`), if any.
    pub file: Option<String>,
    /// Where in the file.
    pub position: Position,
    /// What is wrong.
    pub message: String,
    /// The rule id, if a rule was broken.
    pub rule: Option<String>,
    /// More lines of explanation (the block and record at fault, ...).
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// An error about `file` as a whole.
    pub fn error(file: Option<&str>, message: impl Display) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            file: file.map(str::to_string),
            position: Position::None,
            message: message.to_string(),
            rule: None,
            notes: Vec::new(),
        }
    }

    /// A text error ([`TextError`]) in `file`.
    pub fn text(file: &str, e: &TextError) -> Diagnostic {
        Diagnostic {
            position: Position::Text { line: e.loc.line, col: e.loc.col, source: e.source_line.clone() },
            ..Diagnostic::error(Some(file), &e.message)
        }
    }

    /// An error at bit position `pos` of `file`.
    pub fn bit(file: &str, pos: BitPos, message: impl Display, rule: Option<&str>) -> Diagnostic {
        Diagnostic {
            position: Position::Bit(pos),
            rule: rule.map(str::to_string),
            ..Diagnostic::error(Some(file), message)
        }
    }

    /// A reader error of `file`: its position, message and rule, and as notes the block and
    /// record at fault and what the rule says.
    pub fn read(file: &str, e: &pnacl_bitcode::ReadError) -> Diagnostic {
        let mut d = Diagnostic::bit(file, e.pos, &e.message, Some(e.rule.id()));
        d.notes.extend(e.block.iter().map(|b| format!("in {b}")));
        d.notes.extend(e.record.iter().map(|r| format!("record {r}")));
        d.notes.push(format!("rule {}: {}", e.rule.id(), e.rule.description()));
        d
    }

    /// A bitstream error of `file`.
    pub fn bitstream(file: &str, e: &pnacl_bitstream::Error) -> Diagnostic {
        Diagnostic::read(file, &pnacl_bitcode::ReadError::from(e.clone()))
    }

    /// The same diagnostic as a warning.
    pub fn warning(self) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, ..self }
    }

    /// Renders the diagnostic for `command` (`dis`, `asm`, ...) in the text format.
    pub fn render(&self, command: &str, color: bool) -> String {
        let paint = |code: &str, s: &str| if color { format!("\x1b[{code}m{s}\x1b[0m") } else { s.to_string() };
        // No command: pnacl itself (its --help).
        let mut location = if command.is_empty() { "pnacl:".to_string() } else { format!("pnacl {command}:") };
        if let Some(f) = &self.file {
            location.push(' ');
            location.push_str(f);
            if let Position::Text { line, col, .. } = &self.position {
                location.push_str(&format!(":{line}:{col}"));
            }
            location.push(':');
        }
        let mut s = paint("1", &location);
        s.push(' ');
        if self.severity == Severity::Warning {
            s.push_str(&paint("1;33", "warning:"));
            s.push(' ');
        }
        if let Position::Bit(pos) = self.position {
            s.push_str(&paint("1;31", &format!("Error({pos}):")));
            s.push(' ');
        }
        s.push_str(&self.message);
        if let Some(rule) = &self.rule {
            s.push_str(&format!(" [{rule}]"));
        }
        if let Position::Text { col, source, .. } = &self.position {
            let pad: String = source
                .chars()
                .take(col.saturating_sub(1) as usize)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            s.push_str(&format!("\n{source}\n{pad}{}", paint("1;32", "^")));
        }
        for note in &self.notes {
            s.push_str("\n  ");
            s.push_str(note);
        }
        s
    }

    /// The diagnostic for `command` as one JSON object.
    pub fn to_json(&self, command: &str) -> serde_json::Value {
        let mut v = serde_json::json!({
            "command": command,
            "severity": match self.severity { Severity::Error => "error", Severity::Warning => "warning" },
            "message": self.message,
        });
        if let Some(file) = &self.file {
            v["file"] = file.clone().into();
        }
        if let Some(rule) = &self.rule {
            v["rule"] = rule.clone().into();
        }
        if !self.notes.is_empty() {
            v["notes"] = self.notes.clone().into();
        }
        match &self.position {
            Position::None => {}
            Position::Bit(pos) => {
                v["bit"] = pos.0.into();
                v["position"] = pos.to_string().into();
            }
            Position::Text { line, col, source } => {
                v["line"] = (*line).into();
                v["column"] = (*col).into();
                v["source"] = source.clone().into();
            }
        }
        v
    }
}

/// Set when a write to standard error failed: there is nowhere left to report it, so the
/// command's exit status says it instead ([`finish`]).
static STDERR_FAILED: AtomicBool = AtomicBool::new(false);

/// Writes `d` on standard error, as `--json` and `--color` ask.
pub fn emit(command: &str, d: &Diagnostic) {
    let s = settings();
    if s.json {
        eprint_line(&d.to_json(command).to_string());
    } else {
        eprint_line(&d.render(command, s.color));
    }
}

/// Writes `text` and a newline on standard error. Unlike `eprintln!`, a failure (standard
/// error on a full disk) does not panic: it is remembered, and [`finish`] ends the command
/// with status 1 if it would otherwise succeed.
pub fn eprint_line(text: &str) {
    let mut err = std::io::stderr().lock();
    if err.write_all(text.as_bytes()).and_then(|()| err.write_all(b"\n")).is_err() {
        STDERR_FAILED.store(true, Ordering::Relaxed);
    }
}

/// [`eprint_line`] without the newline.
pub fn eprint(text: &str) {
    if std::io::stderr().lock().write_all(text.as_bytes()).is_err() {
        STDERR_FAILED.store(true, Ordering::Relaxed);
    }
}

/// Why a subcommand failed: its diagnostic and its exit status.
#[derive(Debug)]
pub struct Failure {
    /// What to report (boxed: failures travel through every `?`).
    pub diagnostic: Box<Diagnostic>,
    /// The exit status.
    pub status: i32,
}

impl Failure {
    /// Bad input ([`crate::status::BAD_INPUT`]) described by `d`.
    pub fn new(d: Diagnostic) -> Failure {
        Failure { diagnostic: Box::new(d), status: crate::status::BAD_INPUT }
    }

    /// Bad input: `message` about `file` as a whole.
    pub fn input(file: &str, message: impl Display) -> Failure {
        Failure::new(Diagnostic::error(Some(file), message))
    }

    /// The same failure with another exit status.
    pub fn with_status(self, status: i32) -> Failure {
        Failure { status, ..self }
    }
}

impl From<Diagnostic> for Failure {
    fn from(d: Diagnostic) -> Failure {
        Failure::new(d)
    }
}

/// Reports the failure of `command`'s body, if any; returns the exit status: the body's,
/// or 1 ([`crate::status::BAD_INPUT`]) for a success whose diagnostics could not be written
/// to standard error.
pub fn finish(command: &str, result: Result<i32, Failure>) -> i32 {
    let status = match result {
        Ok(status) => status,
        Err(f) => {
            emit(command, &f.diagnostic);
            f.status
        }
    };
    if status == crate::status::SUCCESS && STDERR_FAILED.load(Ordering::Relaxed) {
        return crate::status::BAD_INPUT;
    }
    status
}

/// How a file is named in messages: as given, or `<stdin>` / `<stdout>` for `-`.
pub fn file_name(path: &Path, stdio: &str) -> String {
    if crate::output::is_stdio(path) { stdio.to_string() } else { path.display().to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_format_for_every_kind_of_position() {
        let plain = Diagnostic::error(Some("a.pexe"), "No such file or directory (os error 2)");
        assert_eq!(plain.render("dis", false), "pnacl dis: a.pexe: No such file or directory (os error 2)");
        let bit = Diagnostic::bit("a.pexe", BitPos(8 * 20 + 3), "Malformed record", Some("bitstream.record"));
        assert_eq!(
            bit.render("rewrite", false),
            "pnacl rewrite: a.pexe: Error(20:3): Malformed record [bitstream.record]"
        );
        let text = Diagnostic {
            position: Position::Text { line: 5, col: 11, source: "    @t0 = i33;".into() },
            ..Diagnostic::error(Some("t.pnaclasm"), "bad type")
        };
        assert_eq!(text.render("asm", false), "pnacl asm: t.pnaclasm:5:11: bad type\n    @t0 = i33;\n          ^");
        assert_eq!(
            plain.clone().warning().render("asm", false),
            "pnacl asm: a.pexe: warning: No such file or directory (os error 2)"
        );
        assert!(bit.render("dis", true).contains("\x1b[1;31mError(20:3):\x1b[0m"));
        let j = text.to_json("asm");
        assert_eq!(
            (j["line"].as_u64(), j["column"].as_u64(), j["severity"].as_str()),
            (Some(5), Some(11), Some("error"))
        );
        assert_eq!(bit.to_json("dis")["position"], "20:3");
    }
}
