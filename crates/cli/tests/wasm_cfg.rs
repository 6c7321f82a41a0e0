//! Generated control flow, irreducible loops included, through `pnacl wasm` and Node (and
//! `pnacl run`, which must agree: see `pnacl_testutil::wasm`), against results computed
//! here from the graph's own meaning.
//!
//! A generated function is a state machine over `n` states. State `k` is two blocks:
//! `H_k` takes the accumulator and the fuel in phis (from the entry or from the states that
//! branch to it), computes `a = acc * 3 + K_k` and `fuel - 1`, and returns `a` when the fuel
//! is spent; else `C_k` branches on bit `s_k` of `a` to `H_t` or `H_f`. The entry branches
//! on the parameter's low bit to one of two states, so loops get two entries: irreducible
//! graphs are common, and the test checks that many are.

mod common;

use common::Body;
use pnacl_testutil::guest::{Ty, Val};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::collections::HashMap;

/// A generated state machine.
#[derive(Clone, Debug)]
struct Machine {
    /// The two entry states.
    entries: [usize; 2],
    /// Per state: `K_k`, `s_k`, the state when the bit is 0, the state when it is 1.
    states: Vec<(u32, u32, usize, usize)>,
}

fn machine() -> impl Strategy<Value = Machine> {
    (2usize..9).prop_flat_map(|n| {
        ([0..n, 0..n], prop::collection::vec((any::<u32>(), 0u32..8, 0..n, 0..n), n))
            .prop_map(|(entries, states)| Machine { entries, states })
    })
}

impl Machine {
    /// The result for parameter `p`, from the machine's meaning.
    fn run(&self, p: u32) -> u32 {
        let mut k = self.entries[(p & 1) as usize];
        let (mut acc, mut fuel) = (p, 1 + (p >> 1) % 40);
        loop {
            let (c, s, t, f) = self.states[k];
            let a = acc.wrapping_mul(3).wrapping_add(c);
            fuel -= 1;
            if fuel == 0 {
                return a;
            }
            k = if (a >> s) & 1 == 0 { t } else { f };
            acc = a;
        }
    }

    /// The function: `%b0` the entry, `H_k` = `%b(1 + 2k)`, `C_k` = `%b(2 + 2k)`, the exit
    /// last.
    fn body(&self) -> Body {
        let n = self.states.len();
        let (h, c) = (|k: usize| 1 + 2 * k, |k: usize| 2 + 2 * k);
        let exit = 1 + 2 * n;
        let mut b = Body::new();
        let (zero, one, three, forty) = (b.i32(0), b.i32(1), b.i32(3), b.i32(40));
        let bit = b.v(format!("and i32 %p0, {one}"));
        let even = b.v(format!("icmp eq i32 {bit}, {zero}"));
        let half = b.v(format!("lshr i32 %p0, {one}"));
        let rem = b.v(format!("urem i32 {half}, {forty}"));
        let fuel0 = b.v(format!("add i32 {rem}, {one}"));
        b.i(format!("br i1 {even}, label %b{}, label %b{}", h(self.entries[0]), h(self.entries[1])));
        // Predecessors of each state: (block, acc value, fuel value) once their names exist.
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (j, &(_, _, t, f)) in self.states.iter().enumerate() {
            preds[t].push(j);
            if f != t {
                preds[f].push(j);
            }
        }
        // Names of each state's `a` and spent fuel, declared ahead where used first.
        let mut names: HashMap<(usize, bool), String> = HashMap::new();
        let mut defined: HashMap<(usize, bool), bool> = HashMap::new();
        let mut exits = Vec::new();
        for (k, state_preds) in preds.iter().enumerate() {
            b.block(h(k));
            let mut acc_in = Vec::new();
            let mut fuel_in = Vec::new();
            for e in 0..2 {
                if self.entries[e] == k && (e == 0 || self.entries[0] != k) {
                    acc_in.push(("%p0".to_string(), 0));
                    fuel_in.push((fuel0.clone(), 0));
                }
            }
            for &j in state_preds {
                for (which, list) in [(false, &mut acc_in), (true, &mut fuel_in)] {
                    let name = names.entry((j, which)).or_insert_with(|| b.forward("i32")).clone();
                    list.push((name, c(j)));
                }
            }
            let phi = |list: &[(String, usize)]| {
                let entries: Vec<String> = list.iter().map(|(v, blk)| format!("[{v}, %b{blk}]")).collect();
                format!("phi i32 {}", entries.join(", "))
            };
            let (acc, fuel) =
                if acc_in.is_empty() { (zero.clone(), one.clone()) } else { (b.v(phi(&acc_in)), b.v(phi(&fuel_in))) };
            let (konst, shift, t, f) = self.states[k];
            let kc = b.i32(konst as i32);
            let m = b.v(format!("mul i32 {acc}, {three}"));
            let a_inst = format!("add i32 {m}, {kc}");
            let f_inst = format!("sub i32 {fuel}, {one}");
            let mut def = |b: &mut Body, key: (usize, bool), inst: String| match names.get(&key) {
                Some(name) if !defined.contains_key(&key) => {
                    b.define(name, inst);
                    defined.insert(key, true);
                    name.clone()
                }
                _ => {
                    let v = b.v(inst);
                    names.insert(key, v.clone());
                    defined.insert(key, true);
                    v
                }
            };
            let a = def(&mut b, (k, false), a_inst);
            let spent = def(&mut b, (k, true), f_inst);
            let done = b.v(format!("icmp eq i32 {spent}, {zero}"));
            b.i(format!("br i1 {done}, label %b{exit}, label %b{}", c(k)));
            exits.push((a.clone(), h(k)));
            b.block(c(k));
            let sc = b.i32(shift);
            let shifted = b.v(format!("lshr i32 {a}, {sc}"));
            let low = b.v(format!("and i32 {shifted}, {one}"));
            let is_zero = b.v(format!("icmp eq i32 {low}, {zero}"));
            b.i(format!("br i1 {is_zero}, label %b{}, label %b{}", h(t), h(f)));
        }
        b.block(exit);
        let entries: Vec<String> = exits.iter().map(|(v, blk)| format!("[{v}, %b{blk}]")).collect();
        let r = b.v(format!("phi i32 {}", entries.join(", ")));
        b.i(format!("ret i32 {r}"));
        b
    }
}

/// True if the function under test (`@f0`) of the module `text` is irreducible.
fn irreducible(text: &str) -> bool {
    let bitcode = pnacl_text::asm::assemble(text).expect("the generated module assembles");
    let m = pnacl_bitcode::read(&bitcode).expect("and reads");
    let body = m.functions[0].body.as_ref().expect("@f0 has a body");
    !pnacl_wasm::irreducible::is_reducible(&pnacl_wasm::cfg::Graph::build(body, |_| false))
}

#[test]
fn generated_state_machines_give_their_results() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let inputs: Vec<Vec<Val>> =
        [0u32, 1, 2, 3, 7, 0x55, 0xaa, 1000, 0xdead_beef, 0x1234_5677, u32::MAX, 0x8000_0000, 77, 78]
            .iter()
            .map(|&p| vec![Val::i32(p)])
            .collect();
    let mut runner = TestRunner::new(Config { cases: 24, failure_persistence: None, ..Config::default() });
    let count = std::cell::Cell::new((0u32, 0u32));
    let result = runner.run(&machine(), |m| {
        let case = m.body().case(&[Ty::I32], Ty::I32).inputs(inputs.clone());
        let (seen, irreducibles) = count.get();
        count.set((seen + 1, irreducibles + u32::from(irreducible(&case.module()))));
        let name = format!("machine{seen}");
        case.check(dir.path(), &name, |row| {
            let p = u32::from_le_bytes(row[0].bytes[..4].try_into().expect("4 bytes"));
            Val::i32(m.run(p))
        });
        Ok(())
    });
    result.expect("every generated machine gives its results");
    let (seen, irreducibles) = count.get();
    assert!(irreducibles * 4 >= seen, "only {irreducibles} of {seen} generated graphs are irreducible");
}
