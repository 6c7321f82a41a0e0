//! The record-level builder of the rule tests (notation in `rules.rs`) and the assertions
//! they share.

use pnacl_bitcode::{ReadOptions, Rule, read, read_with};
use pnacl_bitstream::{Abbrev, Op, PexeHeader, StreamWriter};
use std::sync::Arc;

pub struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() {
            match self.s[self.i] {
                b' ' | b'\n' | b'\t' | b'\r' => self.i += 1,
                b'#' => {
                    while self.i < self.s.len() && self.s[self.i] != b'\n' {
                        self.i += 1;
                    }
                }
                _ => break,
            }
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: u8) {
        assert!(self.eat(c), "builder: expected '{}' at {}", c as char, self.i);
    }
    fn num(&mut self) -> u64 {
        self.ws();
        let start = self.i;
        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i]).unwrap().parse().unwrap_or_else(|_| panic!("number at {start}"))
    }
    fn word(&mut self) -> String {
        self.ws();
        let start = self.i;
        while self.i < self.s.len() && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_') {
            self.i += 1;
        }
        String::from_utf8(self.s[start..self.i].to_vec()).unwrap()
    }

    fn items(&mut self, w: &mut StreamWriter) {
        loop {
            match self.peek() {
                None | Some(b'}') => return,
                Some(b'@') => {
                    self.i += 1;
                    let a = self.num() as u32;
                    self.record(w, a);
                }
                Some(c) if c.is_ascii_digit() => {
                    let save = self.i;
                    let n = self.num();
                    if self.eat(b'{') || self.peek() == Some(b':') {
                        let width = if self.eat(b':') {
                            let wd = self.num();
                            self.expect(b'{');
                            wd
                        } else {
                            2
                        };
                        w.enter_block(n as u32, width as u32).unwrap();
                        self.items(w);
                        self.expect(b'}');
                        w.exit_block().unwrap();
                    } else {
                        self.i = save;
                        self.record(w, 3);
                    }
                }
                Some(_) => match self.word().as_str() {
                    "abbrev" => {
                        self.expect(b'<');
                        let mut ops = Vec::new();
                        loop {
                            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                                ops.push(Op::Literal(self.num()));
                            } else {
                                match self.word().as_str() {
                                    "fixed" => {
                                        self.expect(b'(');
                                        ops.push(Op::Fixed(self.num() as u32));
                                        self.expect(b')');
                                    }
                                    "vbr" => {
                                        self.expect(b'(');
                                        ops.push(Op::Vbr(self.num() as u32));
                                        self.expect(b')');
                                    }
                                    "array" => ops.push(Op::Array),
                                    "char6" => ops.push(Op::Char6),
                                    "blob" => ops.push(Op::Blob),
                                    o => panic!("builder: unknown operand {o}"),
                                }
                            }
                            if !self.eat(b',') {
                                break;
                            }
                        }
                        self.expect(b'>');
                        self.expect(b';');
                        w.define_abbrev(Arc::new(Abbrev::new(ops).unwrap())).unwrap();
                    }
                    "rawabbrev" => {
                        let mut ops: Vec<(bool, u64, u64)> = Vec::new();
                        while !self.eat(b';') {
                            let kind = self.word();
                            self.expect(b':');
                            let a = self.num();
                            let b = if self.eat(b':') { self.num() } else { 0 };
                            ops.push((kind == "lit", a, b));
                        }
                        w.raw_abbrev_id(2);
                        w.raw_bits(5, ops.len() as u64);
                        for (lit, a, b) in ops {
                            if lit {
                                w.raw_bits(1, 1);
                                let mut v = a;
                                while v >= 128 {
                                    w.raw_bits(8, (v & 127) | 128);
                                    v >>= 7;
                                }
                                w.raw_bits(8, v);
                            } else {
                                w.raw_bits(1, 0);
                                w.raw_bits(3, a);
                                if a == 1 || a == 2 {
                                    w.raw_bits(5, b);
                                }
                            }
                        }
                    }
                    "raw" => {
                        let width = self.num() as u32;
                        let v = self.num();
                        self.expect(b';');
                        w.raw_bits(width, v);
                    }
                    t => panic!("builder: unexpected {t:?} at {}", self.i),
                },
            }
        }
    }

    fn record(&mut self, w: &mut StreamWriter, abbrev: u32) {
        let code = self.num();
        let mut ops = Vec::new();
        while self.eat(b',') {
            ops.push(self.num());
        }
        self.expect(b';');
        w.record(abbrev, code, &ops, None).unwrap_or_else(|e| panic!("builder: {}", e.message));
    }
}

/// Builds a PNaCl file (standard header) from the notation.
pub fn build(src: &str) -> Vec<u8> {
    let mut w = StreamWriter::new(&PexeHeader::standard().raw, 2);
    let mut p = Parser { s: src.as_bytes(), i: 0 };
    p.items(&mut w);
    assert!(p.peek().is_none(), "builder: trailing input at {}", p.i);
    w.finish().unwrap()
}

/// Types of every test module:
/// @t0 i32, @t1 void, @t2 void(i32), @t3 i1, @t4 i32(i32), @t5 float, @t6 i64,
/// @t7 double, @t8 i8, @t9 <4 x i32>, @t10 i32(i32, i32), @t11 void(i32, i32, i32, i32, i1).
pub const TYPES: &str =
    "1,12; 7,32; 2; 21,0,1,0; 7,1; 21,0,0,0; 3; 7,64; 4; 7,8; 12,4,0; 21,0,0,0,0; 21,0,1,0,0,0,0,3;";

/// A module from its parts (function records, globals-block contents, module symbol table
/// block, function blocks).
pub fn module(fns: &str, globals: &str, vst: &str, bodies: &str) -> String {
    format!("8 {{ 1,1; 17 {{ {TYPES} }} {fns} 19 {{ {globals} }} {vst} {bodies} }}")
}

/// One internal function `@f0` of type `@t{ty}` with the given body records. Inside it
/// `%p0` is value 1, constants start at 1 + params, instruction values after them.
pub fn func(ty: u32, body: &str) -> String {
    module(&format!("8,{ty},0,0,3;"), "5,0;", "", &format!("12 {{ {body} }}"))
}

/// A valid module to start from.
pub fn valid() -> String {
    func(2, "1,1; 10;")
}

#[track_caller]
pub fn fails(src: &str, rule: Rule, fragment: &str) {
    fails_bytes(&build(src), rule, fragment);
}

#[track_caller]
pub fn fails_bytes(bytes: &[u8], rule: Rule, fragment: &str) {
    match read(bytes) {
        Ok(_) => panic!("expected {} to be refused, but the file was accepted", rule.id()),
        Err(e) => {
            assert_eq!(e.rule, rule, "wrong rule:\n{}", e.explain());
            assert!(e.message.contains(fragment), "message {:?} lacks {fragment:?}\n{}", e.message, e.explain());
        }
    }
}

#[track_caller]
pub fn passes(src: &str) {
    if let Err(e) = read(&build(src)) {
        panic!("expected the file to be accepted:\n{}", e.explain());
    }
}

/// ABI rules fail in strict mode and pass when deferred to the verifier.
#[track_caller]
pub fn abi_fails(src: &str, rule: Rule, fragment: &str) {
    assert!(rule.is_abi());
    fails(src, rule, fragment);
    let opts = ReadOptions { defer_abi: true, ..ReadOptions::default() };
    if let Err(e) = read_with(&build(src), opts, &mut pnacl_bitcode::NoListener) {
        panic!("deferred ABI rule {} still refused:\n{}", rule.id(), e.explain());
    }
}
