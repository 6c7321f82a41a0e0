//! Images: a module translated and laid out, ready to load into a process without the
//! module. `pnacl compile` writes one to a file and the translation cache keeps them; every
//! run goes through one, so that running a pexe and running its image are the same thing.
//!
//! An image holds the translator's [`Object`] (code, relocations, trap sites), the
//! signature id of each function's table entry, the initial contents of the globals, the
//! entry point, the functions' names (for trap messages) and where it came from: the
//! pexe's hash and size, and whether it is a browser program. [`encoding`] turns it into
//! bytes and back, validating everything it reads.

pub mod encoding;

use crate::irt::{self, interfaces::is_browser_program};
use crate::status::LoadError;
use pnacl_bitcode::Module;
use pnacl_bitcode::ir::{Linkage, Names, Ty, ValueId};
use pnacl_codegen::abi::{self, memory};
use pnacl_codegen::{CodeRange, FUNCTION_ALIGN, InitialData, Object, RelocTarget, Tier, is_relocation_site};

/// A translated module, ready to load.
#[derive(Clone, Debug)]
pub struct Image {
    /// BLAKE3 hash of the pexe it was translated from.
    pub pexe_hash: [u8; 32],
    /// Size of that pexe, in bytes.
    pub bitcode_size: u64,
    /// A browser (PPAPI) program: translated, but refused by `run`.
    pub browser: bool,
    /// The entry point, `_start`.
    pub entry: u32,
    /// The translated code.
    pub object: Object,
    /// The signature id of each module function's table entry ([`abi::NO_SIGNATURE`] for
    /// functions without code).
    pub function_sigs: Vec<u32>,
    /// The signature id of each IRT host function's table entry, in
    /// [`irt::functions`] order.
    pub host_sigs: Vec<u32>,
    /// The name of each module function, for messages.
    pub names: Vec<String>,
    /// The globals' initial contents, from [`memory::GLOBALS_START`] to the layout's
    /// `data_end`: a size, and runs of bytes (zero-fill takes no room).
    pub data: InitialData,
}

/// The name of module function `f` in messages.
fn function_name(m: &Module, f: u32) -> String {
    name_of(&m.names(), f)
}

/// The name of function `f` in `names` (the module's symbol table), or `@fN`.
fn name_of(names: &Names<'_>, f: u32) -> String {
    match names.get(ValueId(f)) {
        Some(n) => String::from_utf8_lossy(n).into_owned(),
        None => format!("@f{f}"),
    }
}

/// The function `_start`: the one defined function with external linkage.
fn entry_point(m: &Module) -> Result<u32, LoadError> {
    let mut entries = m
        .functions
        .iter()
        .enumerate()
        .filter(|(_, f)| f.linkage == Linkage::External && f.body.is_some())
        .map(|(i, _)| i as u32);
    let f = entries.next().ok_or_else(|| LoadError::Other("the module defines no entry point (_start)".into()))?;
    let sig = m.signature(f);
    if sig.params != [Ty::I32] {
        return Err(LoadError::Other(format!("the entry point {} does not take one i32", function_name(m, f))));
    }
    Ok(f)
}

impl Image {
    /// Checks `m` with the ABI verifier (the translator relies on its rules) and translates
    /// it. `bitcode` is the pexe it was read from. Browser programs are translated too.
    pub fn compile(m: &Module, bitcode: &[u8], tier: Tier) -> Result<Image, LoadError> {
        let diagnostics = pnacl_verify::verify(m);
        if !diagnostics.is_empty() {
            return Err(LoadError::NotAbiClean(diagnostics));
        }
        let entry = entry_point(m)?;
        let host: Vec<_> = irt::functions().iter().map(|h| h.signature()).collect();
        let table_len = 1 + m.functions.len() + host.len();
        let table_len = u32::try_from(table_len).map_err(|_| "too many functions".to_string())?;
        // The pexe is hashed while it is translated rather than after.
        let (pexe_hash, object) =
            rayon::join(|| blake3::hash(bitcode), || pnacl_codegen::compile(m, table_len, tier, false, &host));
        let object = object?;
        let sig_id = |ret: Ty, params: &[Ty]| object.sigs.id(ret, params).unwrap_or(abi::NO_SIGNATURE);
        let function_sigs = (0..m.functions.len() as u32)
            .map(|f| match object.functions[f as usize] {
                Some(_) => sig_id(m.signature(f).ret, &m.signature(f).params),
                None => abi::NO_SIGNATURE,
            })
            .collect();
        let host_sigs = host.iter().map(|s| sig_id(s.ret, &s.params)).collect();
        Ok(Image {
            pexe_hash: *pexe_hash.as_bytes(),
            bitcode_size: bitcode.len() as u64,
            browser: is_browser_program(m),
            entry,
            data: object.layout.initial_data(m),
            object,
            function_sigs,
            host_sigs,
            names: {
                // The symbol table indexed once, not once a function.
                let names = m.names();
                (0..m.functions.len() as u32).map(|f| name_of(&names, f)).collect()
            },
        })
    }

    /// Checks that the image is one the translator could have made, for this runtime, so
    /// that loading and running it trust nothing else of it (even sealed, an image is taken
    /// as a file anyone might have written):
    /// - the function lists agree in length, the table is laid out as this runtime lays it
    ///   out (the null entry, the module's functions, the IRT's), with the IRT's signatures;
    /// - functions with code are laid out as the translator lays them out: in order, each
    ///   at the first [`FUNCTION_ALIGN`] boundary after the one before, not empty, the last
    ///   ending the code; so every code offset is a function's start;
    /// - the entry point is a function with code, of type `void (i32)`;
    /// - trap sites are inside functions, in order;
    /// - relocations are in order, apart, each inside one function and at a place the
    ///   translator puts one ([`is_relocation_site`]: the zeroed immediate of a `movabs`),
    ///   naming a known target (a host helper, the memory base, the function table, or a
    ///   function's start) with the translator's addend, 0;
    /// - the globals' layout and initial data are ones the translator makes.
    pub fn validate(&self) -> Result<(), String> {
        let o = &self.object;
        let functions = self.names.len();
        if o.functions.len() != functions || self.function_sigs.len() != functions {
            return Err("function lists of different lengths".into());
        }
        let host = irt::functions();
        let sig = |ret: Ty, params: &[Ty]| o.sigs.id(ret, params);
        let host_ids: Vec<Option<u32>> = host.iter().map(|h| sig(h.ret, h.params)).collect();
        if self.host_sigs.iter().map(|&s| Some(s)).ne(host_ids) {
            return Err("the IRT functions' signatures are not this runtime's".into());
        }
        if o.table_len as usize != 1 + functions + host.len() {
            return Err("the function table is not laid out for this runtime".into());
        }
        let ranges = self.function_ranges()?;
        let entry = self.entry as usize;
        if o.functions.get(entry).copied().flatten().is_none()
            || Some(self.function_sigs[entry]) != sig(Ty::Void, &[Ty::I32])
        {
            return Err("the entry point is not a function of type void (i32)".into());
        }
        // The function whose code holds the bytes [at, at + len), if one does.
        let function_at = |at: u32, len: u32| {
            let i = ranges.partition_point(|r| r.offset <= at).checked_sub(1)?;
            let r = ranges[i];
            (u64::from(at) + u64::from(len) <= u64::from(r.offset) + u64::from(r.len)).then_some(r)
        };
        if o.traps.windows(2).any(|w| w[0].0 >= w[1].0) {
            return Err("trap sites out of order".into());
        }
        if let Some(&(at, _)) = o.traps.iter().find(|&&(at, _)| function_at(at, 1).is_none()) {
            return Err(format!("a trap site at {at}, outside every function"));
        }
        let mut next_free = 0u64;
        for r in &o.relocs {
            let bad = |why: &str| Err(format!("the relocation at {}: {why}", r.offset));
            if u64::from(r.offset) < next_free {
                return bad("out of order, or overlapping the one before");
            }
            next_free = u64::from(r.offset) + 8;
            if function_at(r.offset, 8).is_none() {
                return bad("not inside one function");
            }
            if !is_relocation_site(&o.code, r.offset) {
                return bad("not where the translator puts relocations");
            }
            let known = match r.target {
                RelocTarget::Host(h) => (h as usize) < abi::HostFn::ALL.len(),
                RelocTarget::MemoryBase | RelocTarget::FunctionTable => true,
                RelocTarget::Code(at) => ranges.binary_search_by_key(&at, |r| r.offset).is_ok(),
            };
            if !known {
                return bad("an unknown target");
            }
            if r.addend != 0 {
                return bad(&format!("addend {}, where the translator's are 0", r.addend));
            }
        }
        self.validate_data()
    }

    /// The code of the functions that have some, checked to be laid out as the translator
    /// lays it out (see [`Image::validate`]), in order.
    fn function_ranges(&self) -> Result<Vec<CodeRange>, String> {
        let o = &self.object;
        let mut ranges: Vec<CodeRange> = Vec::new();
        let mut end = 0u64;
        for (f, (range, &id)) in o.functions.iter().zip(&self.function_sigs).enumerate() {
            match range {
                Some(r) => {
                    let start = end.div_ceil(FUNCTION_ALIGN as u64) * FUNCTION_ALIGN as u64;
                    if u64::from(r.offset) != start || r.len == 0 {
                        return Err(format!("@f{f}: its code is not where the translator puts it"));
                    }
                    if id as usize >= o.sigs.len() {
                        return Err(format!("@f{f}: signature id {id} out of range"));
                    }
                    end = start + u64::from(r.len);
                    ranges.push(*r);
                }
                None if id == abi::NO_SIGNATURE => {}
                None => return Err(format!("@f{f}: a signature without code")),
            }
        }
        if end != o.code.len() as u64 {
            return Err("the functions do not fill the code section".into());
        }
        Ok(ranges)
    }

    /// Checks the globals' layout and initial data.
    fn validate_data(&self) -> Result<(), String> {
        let l = &self.object.layout;
        let limit = (memory::MAIN_STACK_TOP - memory::MAIN_STACK_SIZE) / 2;
        let data_end = u64::from(memory::GLOBALS_START) + u64::from(self.data.len);
        let page_end = u64::from(l.data_end).div_ceil(u64::from(memory::PAGE)) * u64::from(memory::PAGE);
        if u64::from(l.data_end) != data_end
            || l.data_end > limit
            || l.constants_start < memory::GLOBALS_START
            || u64::from(l.constants_start) > page_end
        {
            return Err("the globals' layout is not one the translator makes".into());
        }
        let mut free = 0u64;
        for (at, bytes) in &self.data.runs {
            if u64::from(*at) < free {
                return Err("the globals' initial data out of order".into());
            }
            free = u64::from(*at) + bytes.len() as u64;
        }
        if free > u64::from(self.data.len) {
            return Err("the globals' initial data past their end".into());
        }
        Ok(())
    }
}
