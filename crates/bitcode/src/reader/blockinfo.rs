//! The abbreviations block (BLOCKINFO): global abbreviations for the blocks that follow.

use super::abbrevs::{MAX_PNACL_ABBREV_WIDTH, check_pnacl_abbrev};
use super::context::BlockCtx;
use super::listener::{Item, Listener};
use super::state::{Reader, Stage};
use crate::codes::block;
use crate::error::{ReadError, Rule};
use crate::ir::{BlockinfoItem, BlockinfoLayout};
use pnacl_bitstream::{AbbrevTarget, Enter, Entry, Gather};

impl<L: Listener, G: Gather> Reader<'_, '_, L, G> {
    pub(super) fn blockinfo_block(&mut self, enter: Enter) -> Result<(), ReadError> {
        // The reference puts the abbreviations block after the version record, but
        // pnacl-compress writes it first; both orders are accepted, before the types block.
        if self.st.stage > Stage::Version || self.st.blockinfo_seen {
            return Err(self.st.err(
                enter.pos,
                Rule::ModuleOrder,
                "The abbreviations block must come before the types block, once",
            ));
        }
        self.st.blockinfo_seen = true;
        self.check_width(&enter)?;
        self.st.blocks.push(BlockCtx::Abbreviations);
        self.listen_enter(&enter);
        let mut items = Vec::new();
        let mut target: Option<u32> = None;
        loop {
            match self.c.next_entry()? {
                Entry::Record(r) => {
                    if r.code != pnacl_bitstream::BLOCKINFO_CODE_SETBID {
                        return Err(self.st.err(
                            r.pos,
                            Rule::Blockinfo,
                            format!("Record code {} is not allowed in the abbreviations block (only SETBID)", r.code),
                        ));
                    }
                    if r.ops.len() != 1 {
                        return Err(self.st.err(r.pos, Rule::RecordLength, "SETBID record expects 1 argument"));
                    }
                    let id = r.ops[0];
                    let known =
                        u32::try_from(id).ok().filter(|&id| id != block::BLOCKINFO && block::name(id).is_some());
                    let Some(id) = known else {
                        return Err(self.st.err(
                            r.pos,
                            Rule::Blockinfo,
                            format!("Abbreviations block refers to unknown block id {id}"),
                        ));
                    };
                    target = Some(id);
                    items.push(BlockinfoItem::SetBid { block_id: id, abbrev_id: r.abbrev_id as u16 });
                    if L::ACTIVE {
                        let v = self.st.view(0, Some(block::BLOCKINFO));
                        self.l.record(&v, &r, Item::SetBid(id));
                    }
                }
                Entry::Abbrev { pos, .. } => {
                    let (abbrev, t) = self.c.defined();
                    let abbrev = abbrev.clone();
                    check_pnacl_abbrev(pos, &abbrev)?;
                    if let (Some(id), AbbrevTarget::Global { index, .. }) = (target, t) {
                        // Every block of this id will see this many global abbreviations.
                        let count = index as u64 + 1;
                        if count + 4 > 1 << MAX_PNACL_ABBREV_WIDTH {
                            return Err(self.st.err(
                                pos,
                                Rule::AbbrevWidth,
                                format!("Too many abbreviations for block {id}"),
                            ));
                        }
                    }
                    items.push(BlockinfoItem::Abbrev(abbrev.clone()));
                    if L::ACTIVE {
                        let v = self.st.view(0, Some(block::BLOCKINFO));
                        self.l.abbrev(&v, pos, &abbrev, t);
                    }
                }
                Entry::Enter(e) => {
                    return Err(self.st.err(
                        e.pos,
                        Rule::UnknownBlock,
                        "Blocks are not allowed in the abbreviations block",
                    ));
                }
                Entry::Exit(pos) => {
                    if let Some(ml) = &mut self.st.layout {
                        ml.blockinfo = Some(BlockinfoLayout { abbrev_width: enter.abbrev_width, items });
                    }
                    self.listen_exit(pos);
                    self.st.blocks.pop();
                    return Ok(());
                }
                Entry::End(_) => unreachable!("inside a block"),
            }
        }
    }
}
