//! Writing the module a plan and padding choices describe, as listing lines.

use super::model::*;
use crate::spec::embedding::{Embedded, Origin, Out};
use crate::spec::errata::Fix;
use crate::spec::types::Ty;

impl<'a> Plan<'a> {
    pub(super) fn sig_text(&self, n: usize, sig: &Ty, names: bool) -> String {
        let params: Vec<String> = sig
            .params()
            .iter()
            .enumerate()
            .map(|(i, p)| if names { format!("{p} %p{i}") } else { p.to_string() })
            .collect();
        format!("{} @f{n}({})", sig.ret().expect("a signature"), params.join(", "))
    }

    pub(super) fn render(&self, knobs: &Knobs) -> Result<Embedded, String> {
        let mut out = Out { lines: Vec::new(), entries: 0, width: self.width };
        let slots = self.slots(knobs);
        let table = match &self.types {
            Types::Synth { .. } => Some(self.type_table(&knobs.fillers)?),
            Types::Shown(_) => None,
        };
        let last = self.parts.len();
        for g in 0..=last {
            if g > 0 {
                self.close(&mut out, &self.parts[g - 1])?;
            }
            for &slot in &slots {
                let after_prev = g == 0 || slot > self.parts[g - 1].end;
                let before_next = g == last || slot < self.parts[g].start;
                if after_prev && before_next {
                    self.render_slot(&mut out, slot, g == last, knobs, table.as_deref())?;
                }
            }
            if g < last {
                let part = &self.parts[g];
                if let Some(n) = part.anon {
                    let f = &self.fns[n];
                    out.synth(1, &format!("function {} {{", self.sig_text(n, &f.sig, true)), true);
                    out.synth(2, "blocks 1;", true);
                }
                for item in &part.items {
                    match *item {
                        Item::Line(k) => {
                            let line = &self.listing.lines[k];
                            let starts = line.row.as_ref().is_some_and(|r| r.addr.is_some())
                                && !self.listing.records.iter().any(|r| r.line == k && r.is_header());
                            out.push(line.text.clone(), Origin::Fragment(k), starts);
                        }
                        Item::Erratum(e, depth) => {
                            let Fix::Missing { asm, .. } = e.fix else {
                                unreachable!("only missing records are inserted")
                            };
                            out.line(depth, asm, Origin::Erratum(e.line), true);
                        }
                    }
                }
            }
        }
        let text = out.lines.iter().map(|l| format!("{}\n", l.text)).collect();
        Ok(Embedded { text, lines: out.lines })
    }

    pub(super) fn render_slot(
        &self,
        out: &mut Out,
        slot: Slot,
        suffix: bool,
        knobs: &Knobs,
        table: Option<&[Ty]>,
    ) -> Result<(), String> {
        match slot {
            // The assembler writes the standard header when the listing shows none.
            Slot::Header => {}
            // With an address: the assembler reads a text as a listing only if its first
            // line has one, and takes the lines that follow a header record, up to the next
            // address, as the header's. The module always starts right after the 16-byte
            // header, at 16:0, with 2-bit abbreviation ids.
            Slot::ModuleEnter => {
                let enter = format!("1: <65535, 8, {}>", if knobs.compact.is_some() { 3 } else { 2 });
                let text = format!("{:>w$}|{enter:29}|module {{  // BlockID = 8", "16:0", w = out.width);
                out.push(text, Origin::Synthesized, true);
            }
            Slot::Version => {
                out.synth(1, "version 1;", true);
                if let Some(t) = knobs.compact {
                    out.synth(1, &format!("%a0 = abbrev <8, fixed({t}), fixed(1), fixed(1), fixed(1)>;"), true);
                }
            }
            Slot::Abbrevs => {
                if !suffix && knobs.compact.is_none() {
                    out.synth(1, "abbreviations {", true);
                    out.synth(1, "}", true);
                }
            }
            Slot::Types => {
                let table = table.ok_or("types block not synthesized")?;
                out.synth(1, "types {", true);
                out.synth(2, &format!("count {};", table.len()), true);
                for (i, t) in table.iter().enumerate() {
                    out.synth(2, &format!("@t{i} = {t};"), true);
                }
                out.synth(1, "}", true);
            }
            Slot::FnRecord(n) => {
                let (sig, defined) = match self.fns.get(n) {
                    Some(f) => (f.sig.clone(), f.defined()),
                    None => (self.extra_sig(table), false),
                };
                let kw = if defined { "define" } else { "declare" };
                let abbrev = if knobs.compact.is_some() { " <%a0>" } else { "" };
                out.synth(1, &format!("{kw} external {};{abbrev}", self.sig_text(n, &sig, false)), true);
            }
            Slot::Globals => {
                let count = self.globals.ok_or("globals not synthesized")? + knobs.extra_globals;
                out.synth(1, "globals {", true);
                out.synth(2, &format!("count {count};"), true);
                for g in 0..count {
                    out.synth(2, &format!("var @g{g}, align 1,"), true);
                    out.synth(3, "zerofill 1;", true);
                }
                out.synth(1, "}", true);
            }
            Slot::Vst => {
                if let Some((n, chars)) = knobs.vst {
                    let fns = self.fns.len() + knobs.extra_fns;
                    let globals = self.globals.unwrap_or(0) + knobs.extra_globals;
                    if n > fns + globals || chars < n {
                        return Err("symbol table larger than the values".into());
                    }
                    out.synth(1, "valuesymtab {", true);
                    for j in 0..n {
                        let len = chars / n + usize::from(j < chars % n);
                        let name: String = (0..len).map(|i| char::from(b'a' + ((5 + j + i) % 26) as u8)).collect();
                        let value = if j < fns { format!("@f{j}") } else { format!("@g{}", j - fns) };
                        out.synth(2, &format!("{value} : \"{name}\";"), true);
                    }
                    out.synth(1, "}", true);
                }
            }
            Slot::Body(n) => {
                let f = &self.fns[n];
                if f.body != Body::Synth {
                    return Err(format!("body of @f{n} ({:?}) in a gap", f.body));
                }
                out.synth(1, &format!("function {} {{", self.sig_text(n, &f.sig, true)), true);
                out.synth(2, "blocks 1;", true);
                self.ret(out, n, 0, true)?;
                out.synth(1, "}", true);
            }
            Slot::ModuleExit => out.synth(0, "}", true),
        }
        Ok(())
    }

    /// The signature of an extra declared function.
    pub(super) fn extra_sig(&self, table: Option<&[Ty]>) -> Ty {
        let void_fn = Ty::Func(Box::new(Ty::Void), Vec::new());
        let table: &[Ty] = match (&self.types, table) {
            (Types::Shown(t), _) => t,
            (_, Some(t)) => t,
            _ => &[],
        };
        if table.contains(&void_fn) { void_fn } else { table.iter().find(|t| t.is_func()).cloned().unwrap_or(void_fn) }
    }

    /// `%bK:` and a return from function `n` (a whole body when `fresh`, which may then
    /// start with a constants block holding the value returned).
    pub(super) fn ret(&self, out: &mut Out, n: usize, block: u64, fresh: bool) -> Result<(), String> {
        let sig = &self.fns[n].sig;
        let ret = sig.ret().expect("a signature");
        let value = if *ret == Ty::Void {
            None
        } else if let Some(p) = sig.params().iter().position(|p| p == ret) {
            Some(format!("%p{p}"))
        } else if fresh {
            out.synth(2, "constants {", true);
            out.synth(3, &format!("{ret}:"), true);
            let v = if matches!(ret, Ty::Vector(..)) { "undef" } else { "0" };
            out.synth(4, &format!("%c0 = {ret} {v};"), true);
            out.synth(3, "}", true);
            Some("%c0".to_string())
        } else {
            return Err(format!("no value to return from @f{n}"));
        };
        out.synth(1, &format!("%b{block}:"), false);
        match value {
            None => out.synth(2, "ret void;", true),
            Some(v) => out.synth(2, &format!("ret {ret} {v};"), true),
        }
        Ok(())
    }

    /// Closes what a part leaves open below the module block.
    pub(super) fn close(&self, out: &mut Out, part: &Part) -> Result<(), String> {
        let mut stack = part.end_stack.clone();
        while stack.len() > 1 {
            let id = stack.pop().expect("non-empty");
            if id == FUNCTION
                && let Some(p) = part.progress
            {
                let mut block = p.terminators;
                while block < p.blocks {
                    self.ret(out, p.index, block, false)?;
                    block += 1;
                }
            }
            out.synth(stack.len(), "}", true);
        }
        Ok(())
    }
}
