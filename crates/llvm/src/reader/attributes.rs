//! Attribute groups (`PARAMATTR_GROUP_BLOCK`) and attribute lists (`PARAMATTR_BLOCK`).

use super::error::ReadError;
use super::records::{Item, next};
use crate::ir::{Attr, Attrs, TypeId};
use pnacl_bitstream::Cursor;
use std::collections::HashMap;

/// One attribute group: where it applies (`u32::MAX` function, 0 return, N parameter N-1)
/// and its attributes.
pub(super) type Group = (u32, Vec<Attr>);

/// Reads an attribute-group block. `types` maps bitcode type ids for type attributes.
pub(super) fn read_groups(
    c: &mut Cursor<'_>,
    groups: &mut HashMap<u64, Group>,
    types: &[TypeId],
) -> Result<(), ReadError> {
    loop {
        match next(c)? {
            Item::End => return Ok(()),
            Item::Block(_) => c.skip_block()?,
            Item::Record(r) if r.code == 3 => {
                let id = r.op(0)?;
                let index = r.op(1)? as u32;
                let mut attrs = Vec::new();
                let mut i = 2;
                // Unknown encodings end the group's parse: what was read stays.
                while i < r.ops.len() {
                    let kind = r.ops[i];
                    match kind {
                        0 => {
                            attrs.push(Attr::Flag(r.op32(i + 1)?));
                            i += 2;
                        }
                        1 => {
                            attrs.push(Attr::Int(r.op32(i + 1)?, r.op(i + 2)?));
                            i += 3;
                        }
                        3 | 4 => {
                            let mut key = Vec::new();
                            i += 1;
                            while i < r.ops.len() && r.ops[i] != 0 {
                                key.push(r.ops[i] as u8);
                                i += 1;
                            }
                            i += 1;
                            let value = if kind == 4 {
                                let mut v = Vec::new();
                                while i < r.ops.len() && r.ops[i] != 0 {
                                    v.push(r.ops[i] as u8);
                                    i += 1;
                                }
                                i += 1;
                                Some(String::from_utf8_lossy(&v).into_owned())
                            } else {
                                None
                            };
                            attrs.push(Attr::Str(String::from_utf8_lossy(&key).into_owned(), value));
                        }
                        // A type attribute: 5 without its type, 6 with it (LLVM's writer).
                        5 => {
                            attrs.push(Attr::Type(r.op32(i + 1)?, None));
                            i += 2;
                        }
                        6 => {
                            let t = types.get(r.op(i + 2)? as usize).copied();
                            attrs.push(Attr::Type(r.op32(i + 1)?, t));
                            i += 3;
                        }
                        _ => break,
                    }
                }
                groups.insert(id, (index, attrs));
            }
            Item::Record(_) => {}
        }
    }
}

/// Reads an attribute-list block: each list is a set of groups.
pub(super) fn read_lists(
    c: &mut Cursor<'_>,
    groups: &HashMap<u64, Group>,
    lists: &mut Vec<Attrs>,
) -> Result<(), ReadError> {
    loop {
        match next(c)? {
            Item::End => return Ok(()),
            Item::Block(_) => c.skip_block()?,
            Item::Record(r) if r.code == 2 => {
                let mut attrs = Attrs::default();
                for &g in &r.ops {
                    let Some((index, list)) = groups.get(&g) else { continue };
                    match *index {
                        u32::MAX => attrs.function.extend(list.iter().cloned()),
                        0 => attrs.ret.extend(list.iter().cloned()),
                        n => {
                            let p = (n - 1) as usize;
                            if p < 4096 {
                                if attrs.params.len() <= p {
                                    attrs.params.resize(p + 1, Vec::new());
                                }
                                attrs.params[p].extend(list.iter().cloned());
                            }
                        }
                    }
                }
                lists.push(attrs);
            }
            // ENTRY_OLD (LLVM 3.2 and older bit masks): kept as an empty list, so that the
            // indices of later lists stay right.
            Item::Record(r) if r.code == 1 => lists.push(Attrs::default()),
            Item::Record(_) => {}
        }
    }
}
