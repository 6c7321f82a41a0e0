//! Turning the plans into the layouts the writer follows.

use crate::census::{Census, Instance};
use crate::plan::KindPlan;
use pnacl_bitcode::ir::{
    BlockLayout, BlockinfoItem, BlockinfoLayout, BodyLayout, ITEM_ABBREV, ITEM_BLOCK, ModuleLayout,
};
use pnacl_bitcode::{BlockRef, Module};
use pnacl_bitstream::UNABBREV_RECORD;

/// Width of abbreviation ids in the abbreviations block: it holds only `SETBID` records
/// (unabbreviated) and definitions, so the minimum.
const BLOCKINFO_WIDTH: u32 = 2;

/// The layouts of every block of `m`: the module-level ones and one per function body.
pub fn build(m: &Module, census: &Census, plans: &[KindPlan]) -> (ModuleLayout, Vec<Option<BodyLayout>>) {
    let mut module = ModuleLayout {
        blockinfo: blockinfo(plans),
        symtab: m.symtab.as_ref().map(|_| BlockLayout::new(2)),
        ..ModuleLayout::default()
    };
    let mut bodies: Vec<Option<BodyLayout>> = vec![None; m.functions.len()];
    for inst in &census.instances {
        let mut layout = block(inst, &plans[inst.kind]);
        match inst.block {
            BlockRef::Module => {
                if module.blockinfo.is_none() {
                    // The template always holds the abbreviations block: drop it.
                    let at = layout.items.iter().position(|&i| i == ITEM_BLOCK).expect("the template has it");
                    layout.items.remove(at);
                }
                module.module = layout;
            }
            BlockRef::Types => module.types = layout,
            BlockRef::Globals => module.globals = layout,
            BlockRef::ModuleSymtab => module.symtab = Some(layout),
            BlockRef::Function(f) => body(&mut bodies, f).function = layout,
            BlockRef::Constants(f) => body(&mut bodies, f).constants = Some(layout),
            BlockRef::FunctionSymtab(f) => body(&mut bodies, f).symtab = Some(layout),
        }
    }
    (module, bodies)
}

fn body(bodies: &mut [Option<BodyLayout>], f: u32) -> &mut BodyLayout {
    bodies[f as usize].get_or_insert_with(BodyLayout::default)
}

/// One block's layout: its local definitions first, then its template with each record's
/// chosen abbreviation.
fn block(inst: &Instance, plan: &KindPlan) -> BlockLayout {
    let locals = if plan.local { plan.abbrevs.clone() } else { Vec::new() };
    let mut items = vec![ITEM_ABBREV; locals.len()];
    items.reserve(inst.template.len());
    let mut ids = inst.ids.iter();
    for &item in &inst.template {
        if item == ITEM_BLOCK {
            items.push(ITEM_BLOCK);
        } else {
            let id = ids.next().expect("the template has one item per record");
            items.push(plan.choice[*id as usize]);
        }
    }
    BlockLayout { abbrev_width: plan.width, items, abbrevs: locals }
}

/// The abbreviations block: one section per kind with global abbreviations, if any.
fn blockinfo(plans: &[KindPlan]) -> Option<BlockinfoLayout> {
    let mut globals: Vec<&KindPlan> = plans.iter().filter(|p| !p.local && !p.abbrevs.is_empty()).collect();
    if globals.is_empty() {
        return None;
    }
    globals.sort_by_key(|p| p.block_id);
    let mut items = Vec::new();
    for p in globals {
        items.push(BlockinfoItem::SetBid { block_id: p.block_id, abbrev_id: UNABBREV_RECORD as u16 });
        items.extend(p.abbrevs.iter().cloned().map(BlockinfoItem::Abbrev));
    }
    Some(BlockinfoLayout { abbrev_width: BLOCKINFO_WIDTH, items })
}
