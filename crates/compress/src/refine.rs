//! Refining a kind's abbreviations once the search has chosen them.
//!
//! The search fits each abbreviation to the records it was made for, but once all exist,
//! each record takes whichever writes it smallest. Refitting each abbreviation to the
//! records that actually chose it can only shrink it (every field narrows to what its
//! records need), and an abbreviation whose records would cost little more elsewhere no
//! longer pays for its definition and goes. Every round's set is priced exactly, and the
//! cheapest set seen wins.

use crate::census::Table;
use crate::cost;
use crate::form::{Form, Profile};
use crate::select::Selector;
use crate::slot::Encodings;

/// Refits `forms` to the records of `table` over at most `rounds` rounds, with the
/// encodings `enc` allows. Definitions are priced with ids of `def_width` bits; `bill` turns a number of forms and the bits of
/// the records and definitions into the kind's total (adding what the ids cost). Returns
/// the cheapest set found and its bill.
pub fn refine(
    table: &Table,
    mut forms: Vec<Form>,
    rounds: usize,
    def_width: u32,
    enc: Encodings,
    bill: impl Fn(usize, u64) -> u64,
) -> (Vec<Form>, u64) {
    let mut best: Option<(Vec<Form>, u64)> = None;
    for round in 0..=rounds {
        let selector = Selector::new(&forms);
        let mut profiles: Vec<Profile> = forms.iter().map(|f| Profile::new(f.shape())).collect();
        // Per form: bits its records would take with their next best choice, less with it.
        let mut margin = vec![0u64; forms.len()];
        let mut bits = 0u64;
        for (_, code, ops, count) in table.iter() {
            let pick = selector.pick(code, ops);
            bits += count * pick.bits;
            if let Some(i) = pick.form {
                let i = i as usize;
                profiles[i].add(forms[i].shape(), ops, count);
                margin[i] = margin[i].saturating_add(count.saturating_mul(pick.runner_up.saturating_sub(pick.bits)));
            }
        }
        let defs: u64 = forms.iter().map(|f| cost::definition(&f.ops(), def_width)).sum();
        let total = bill(forms.len(), bits + defs);
        if best.as_ref().is_none_or(|b| total < b.1) {
            best = Some((forms.clone(), total));
        }
        if round == rounds {
            break;
        }
        let mut next: Vec<Form> = Vec::with_capacity(forms.len());
        for ((form, profile), &margin) in forms.iter().zip(&profiles).zip(&margin) {
            if profile.records == 0 || margin <= cost::definition(&form.ops(), def_width) {
                continue;
            }
            let (fitted, _) = profile.fit(form.code, form.shape(), enc);
            if !next.contains(&fitted) {
                next.push(fitted);
            }
        }
        if next == forms {
            break;
        }
        forms = next;
    }
    best.expect("round 0 always runs")
}
