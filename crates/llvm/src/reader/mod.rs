//! Reading LLVM IR bitcode (LLVM 3.3 through 19) into the [`Module`] model.
//!
//! The file is walked once with the bitstream crate's [`Cursor`]: the module block's
//! records declare types, globals, functions and constants in value-number order; nested
//! blocks (types, attributes, constants, symbol tables, function bodies) are read as they
//! come, metadata, use-lists and summaries skipped by block. Bad input is an error naming
//! the bit position, never a panic: every count is checked against the bits left.

mod attributes;
mod constants;
mod error;
mod function;
mod instructions;
mod module;
mod records;
mod types;

pub use error::ReadError;

use crate::ir::Module;
use pnacl_bitstream::{Container, Cursor};

/// Reads LLVM IR bitcode (with or without the wrapper header).
pub fn read(bytes: &[u8]) -> Result<Module, ReadError> {
    let container = Container::detect(bytes).map_err(ReadError::from)?;
    let Container::Llvm { .. } = container else {
        return Err(ReadError::at(
            0,
            "this is PNaCl bitcode (a pexe), not LLVM bitcode: use `pnacl thaw` to turn it into LLVM IR",
        ));
    };
    let (stream, start) = container.stream(bytes);
    let cursor = Cursor::new(stream, start, 2).map_err(ReadError::from)?;
    module::ModuleReader::new(cursor).read()
}

#[cfg(test)]
mod tests {
    use pnacl_bitstream::{Entry, StreamWriter};
    use std::io::Write;
    use std::process::{Command, Stdio};

    /// `ll` assembled by llvm-as-14, with the operands of the records `patch` returns new
    /// ones for (given the enclosing block id) replaced: bitcode LLVM's writer never makes.
    /// The new operands must fit the record's abbreviation in as many bits (offsets stay).
    fn patched(ll: &str, mut patch: impl FnMut(u32, u64, &[u64]) -> Option<Vec<u64>>) -> Vec<u8> {
        let mut child = Command::new(pnacl_testutil::llvm_tool("llvm-as", 14))
            .args(["-", "-o", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("llvm-as-14 runs");
        child.stdin.take().expect("stdin").write_all(ll.as_bytes()).expect("llvm-as-14 reads");
        let out = child.wait_with_output().expect("llvm-as-14 runs");
        assert!(out.status.success(), "llvm-as-14 refused the test module");
        let bc = out.stdout;
        assert_eq!(&bc[..2], b"BC", "bitcode without a wrapper");
        let mut c = pnacl_bitstream::Cursor::new(&bc, pnacl_bitstream::BitPos(32), 2).expect("a cursor");
        let mut w = StreamWriter::new(&bc[..4], 2);
        let mut blocks = Vec::new();
        loop {
            let e = c.next_entry().expect("llvm-as-14's bitcode reads");
            match &e {
                Entry::End(_) => break,
                Entry::Enter(b) => blocks.push(b.block_id),
                Entry::Exit(_) => {
                    blocks.pop();
                }
                Entry::Record(r) => {
                    if let Some(ops) = patch(*blocks.last().unwrap_or(&0), r.code, r.ops) {
                        w.record(r.abbrev_id, r.code, &ops, r.blob).expect("the new operands fit");
                        continue;
                    }
                }
                _ => {}
            }
            w.copy(&e).expect("a read entry can be written");
        }
        let mut out = w.finish().expect("the stream ends");
        out.resize(bc.len(), 0);
        out
    }

    const FUNCTION_BLOCK: u32 = 12;
    const INST_BINOP: u64 = 2;

    /// `and` of doubles (found by the `freeze` fuzz target: read, then frozen into a pexe the
    /// PNaCl reader refused). LLVM's reader refuses it, and so does this one.
    #[test]
    fn an_integer_operator_on_floating_point_is_refused() {
        let ll = "define double @f(double %a) {\n  %b = fadd double %a, %a\n  ret double %b\n}\n";
        assert!(super::read(&patched(ll, |_, _, _| None)).is_ok(), "the unpatched module reads");
        let bc = patched(ll, |block, code, ops| {
            (block == FUNCTION_BLOCK && code == INST_BINOP).then(|| vec![ops[0], ops[1], 10])
        });
        let e = super::read(&bc).expect_err("and of doubles");
        assert!(e.to_string().contains("invalid binary operator for type double"), "{e}");
    }

    /// An operand of another type than the record implies (here the right operand of a
    /// binary operator): LLVM's reader refuses it ("Invalid record"), and so does this one.
    #[test]
    fn an_operand_of_another_type_is_refused() {
        let ll = "define double @f(double %a, i32 %n) {\n  %b = fadd double %a, %a\n  ret double %b\n}\n";
        // Value ids: @f 0, %a 1, %n 2; %b is 3, and refers to %a as 3 - 1 = 2, to %n as 1.
        let bc = patched(ll, |block, code, ops| {
            (block == FUNCTION_BLOCK && code == INST_BINOP).then(|| [&[ops[0], 1], &ops[2..]].concat())
        });
        let e = super::read(&bc).expect_err("fadd of a double and an i32");
        assert!(e.to_string().contains("value 2 has type i32 where the record needs double"), "{e}");
    }
}
