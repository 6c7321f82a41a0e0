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

#[cfg(test)]
mod tests {
    use super::*;
    use pnacl_bitstream::Op;

    #[test]
    fn picks_the_cheapest_form_and_knows_the_runner_up() {
        let forms = vec![
            Form { code: 2, prefix: vec![Op::Vbr(6), Op::Vbr(6)], element: None },
            Form { code: 2, prefix: vec![Op::Fixed(3), Op::Literal(0)], element: None },
            Form { code: 2, prefix: vec![Op::Fixed(2)], element: Some(Op::Fixed(4)) },
            Form { code: 3, prefix: vec![], element: None },
        ];
        let s = Selector::new(&forms);
        // Every form is priced exactly; brute force agrees.
        for ops in [[5u64, 0], [5, 1], [100, 0], [3, 9], [3, 15]] {
            let mut all: Vec<(u64, Option<u32>)> = vec![(cost::unabbreviated(2, &ops), None)];
            all.extend(forms.iter().enumerate().filter_map(|(i, f)| f.bits(2, &ops).map(|b| (b, Some(i as u32)))));
            all.sort_by_key(|&(b, f)| (b, f.map_or(0, |i| i + 1)));
            let p = s.pick(2, &ops);
            assert_eq!((p.bits, p.runner_up), (all[0].0, all[1].0), "{ops:?}");
            // A form wins a tie with unabbreviated, and the earlier form a tie between forms.
            let winners: Vec<_> = all.iter().filter(|a| a.0 == all[0].0).collect();
            let want = winners.iter().filter_map(|a| a.1).min().or(winners[0].1);
            assert_eq!(p.form, want, "{ops:?}");
        }
        assert_eq!(s.pick(3, &[]).form, Some(3));
        assert_eq!(s.pick(4, &[1]).form, None);
    }
}
