//! Choosing each record's abbreviation: the one that writes it in the fewest bits.

use crate::cost;
use crate::form::Form;
use std::collections::HashMap;

/// The forms of a kind, indexed by record code.
pub struct Selector<'f> {
    forms: &'f [Form],
    by_code: HashMap<u64, Vec<u32>>,
}

/// A record's cheapest encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    /// The form to use (`None`: unabbreviated).
    pub form: Option<u32>,
    /// Bits of the record's body with it.
    pub bits: u64,
    /// Bits with the next best choice (unabbreviated or another form).
    pub runner_up: u64,
}

impl<'f> Selector<'f> {
    /// Indexes `forms`.
    pub fn new(forms: &'f [Form]) -> Self {
        let mut by_code: HashMap<u64, Vec<u32>> = HashMap::new();
        for (i, f) in forms.iter().enumerate() {
            by_code.entry(f.code).or_default().push(i as u32);
        }
        Selector { forms, by_code }
    }

    /// The cheapest way to write a record; ties go to a form over unabbreviated, and to
    /// the earlier form.
    pub fn pick(&self, code: u64, ops: &[u64]) -> Pick {
        let plain = cost::unabbreviated(code, ops);
        let mut best = Pick { form: None, bits: plain, runner_up: u64::MAX };
        for &i in self.by_code.get(&code).map_or(&[][..], Vec::as_slice) {
            let Some(bits) = self.forms[i as usize].bits(code, ops) else { continue };
            if bits < best.bits || (bits == best.bits && best.form.is_none()) {
                best.runner_up = best.bits;
                best.form = Some(i);
                best.bits = bits;
            } else if bits < best.runner_up {
                best.runner_up = bits;
            }
        }
        best
    }
}
