//! The module's sections, from the translated bodies.

use crate::function::Body;
use crate::hints;
use crate::layout::GLOBALS_START;
use crate::meta;
use crate::module::{Env, FuncType, Helper, LONGJMP_TAG, func_type, helper_type};
use wasm_encoder::{
    BlockType, CodeSection, ConstExpr, CustomSection, DataCountSection, DataSection, ElementSection, Elements,
    EntityType, ExportKind, ExportSection, Function, FunctionSection, GlobalSection, GlobalType, ImportSection,
    InstructionSink, MemoryType, NameMap, NameSection, RefType, TableSection, TableType, TagKind, TagSection, TagType,
    TypeSection, ValType,
};
use wasm_encoder::{Encode, Section};

/// A run of zero bytes at least this long splits the globals' data into two segments.
const ZERO_RUN: usize = 32;

/// What the assembly needs besides the environment.
pub(crate) struct Parts {
    /// The defined functions' bodies, in order.
    pub bodies: Vec<Body>,
    /// The entry point's index among the module's functions.
    pub entry: u32,
}

/// The data segments: (guest address, bytes), zero runs left out.
fn segments(data: &[u8]) -> Vec<(u32, &[u8])> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < data.len() {
        if data[i] == 0 {
            i += 1;
            continue;
        }
        let start = i;
        let mut zeros = 0;
        while i < data.len() && zeros < ZERO_RUN {
            zeros = if data[i] == 0 { zeros + 1 } else { 0 };
            i += 1;
        }
        out.push((GLOBALS_START + start as u32, &data[start..i - zeros]));
    }
    out
}

/// The whole module.
pub(crate) fn module(env: &Env<'_>, parts: Parts) -> Vec<u8> {
    let m = env.m;
    let mut module = wasm_encoder::Module::new();
    // Types.
    let mut types = TypeSection::new();
    for (params, results) in &env.types {
        types.ty().function(params.iter().copied(), results.iter().copied());
    }
    module.section(&types);
    // Imports: the IRT, fmod, memory.
    let mut imports = ImportSection::new();
    for h in env.host {
        imports.import("irt", h.name, EntityType::Function(env.type_of(&func_type(h.ret, h.params))));
    }
    let fmod_type = (vec![ValType::F64, ValType::F64], vec![ValType::F64]);
    imports.import("pnacl", "fmod", EntityType::Function(env.type_of(&fmod_type)));
    let memory = MemoryType {
        minimum: u64::from(env.initial_pages()),
        maximum: Some(u64::from(env.maximum_pages())),
        memory64: false,
        shared: env.shared,
        page_size_log2: None,
    };
    imports.import("env", "memory", EntityType::Memory(memory));
    module.section(&imports);
    // Function declarations.
    let mut functions = FunctionSection::new();
    for f in 0..m.functions.len() as u32 {
        if m.functions[f as usize].body.is_some() {
            let s = m.signature(f);
            functions.function(env.type_of(&func_type(s.ret, &s.params)));
        }
    }
    for h in Helper::ALL {
        functions.function(env.type_of(&helper_type(h)));
    }
    let getter_type = env.type_of(&(Vec::new(), vec![ValType::I32]));
    if !env.adapters.is_empty() {
        for _ in &env.getters {
            functions.function(getter_type);
        }
        for (t, _) in &env.adapters {
            functions.function(env.type_of(&adapter_type(t)));
        }
    }
    module.section(&functions);
    // Before the code, where V8 reads it.
    module.section(&hints::section(env, &parts.bodies, parts.entry, functions.len()));
    // Tables.
    let table_len = (m.functions.len() + env.host.len()) as u64;
    let mut tables = TableSection::new();
    let table = TableType {
        element_type: RefType::FUNCREF,
        table64: false,
        minimum: table_len,
        maximum: Some(table_len),
        shared: false,
    };
    tables.table(table);
    if !env.adapters.is_empty() {
        tables.table(table);
    }
    module.section(&tables);
    // The longjmp tag.
    if env.sjlj {
        let mut tags = TagSection::new();
        tags.tag(TagType { kind: TagKind::Exception, func_type_idx: env.type_of(&longjmp_type()) });
        module.section(&tags);
    }
    // Globals.
    let mut globals = GlobalSection::new();
    for _ in 0..5 {
        globals.global(GlobalType { val_type: ValType::I32, mutable: true, shared: false }, &ConstExpr::i32_const(0));
    }
    module.section(&globals);
    // Exports.
    let mut exports = ExportSection::new();
    exports.export("_start", ExportKind::Func, env.function_index(parts.entry));
    exports.export("pnacl_init_memory", ExportKind::Func, env.helper(Helper::InitMemory));
    exports.export("pnacl_thread_entry", ExportKind::Func, env.helper(Helper::ThreadEntry));
    exports.export("table", ExportKind::Table, 0);
    for (k, name) in ["sp", "tp", "stack_limit", "sjlj_next", "longjmp_from"].iter().enumerate() {
        exports.export(name, ExportKind::Global, k as u32);
    }
    if env.sjlj {
        exports.export("longjmp", ExportKind::Tag, LONGJMP_TAG);
    }
    module.section(&exports);
    // Elements: runs of defined functions, then the IRT's.
    let mut elements = ElementSection::new();
    let indices = env.function_indices();
    let mut f = 0;
    while f < indices.len() {
        if indices[f] == u32::MAX {
            f += 1;
            continue;
        }
        let start = f;
        while f < indices.len() && indices[f] != u32::MAX {
            f += 1;
        }
        let run: Vec<u32> = indices[start..f].to_vec();
        elements.active(None, &ConstExpr::i32_const(start as i32), Elements::Functions(run.into()));
    }
    let irt_funcs: Vec<u32> = (0..env.host.len() as u32).collect();
    elements.active(None, &ConstExpr::i32_const(m.functions.len() as i32), Elements::Functions(irt_funcs.into()));
    if !env.adapters.is_empty() {
        let getter =
            |t: &FuncType| env.first_getter() + env.getters.iter().position(|g| g == t).expect("listed") as u32;
        let mut f = 0;
        while f < indices.len() {
            if indices[f] == u32::MAX {
                f += 1;
                continue;
            }
            let start = f;
            let mut run = Vec::new();
            while f < indices.len() && indices[f] != u32::MAX {
                let s = m.signature(f as u32);
                run.push(getter(&func_type(s.ret, &s.params)));
                f += 1;
            }
            elements.active(Some(1), &ConstExpr::i32_const(start as i32), Elements::Functions(run.into()));
        }
        let run: Vec<u32> = env.host.iter().map(|h| getter(&func_type(h.ret, h.params))).collect();
        elements.active(Some(1), &ConstExpr::i32_const(m.functions.len() as i32), Elements::Functions(run.into()));
    }
    module.section(&elements);
    let initial = env.layout.initial_data(m);
    let segs = segments(&initial);
    module.section(&DataCountSection { count: segs.len() as u32 });
    // Code, written straight into the output, which is sized once: the bodies are most of
    // the module, and building a `Function`, then a `CodeSection`, then a `Module` that
    // grows by doubling copied each of them several times.
    let mut generated: Vec<Function> = Helper::ALL.iter().map(|&h| helper(env, h, &segs)).collect();
    if !env.adapters.is_empty() {
        for t in &env.getters {
            let mut f = Function::new([]);
            f.instructions().i32_const(env.type_of(t) as i32).end();
            generated.push(f);
        }
        generated.extend(env.adapters.iter().map(|(t, _)| adapter(env, t)));
    }
    let mut generated_bytes = Vec::new();
    for f in &generated {
        f.encode(&mut generated_bytes);
    }
    // The locals' declarations of every body, one after the other.
    let mut headers = Vec::new();
    let mut header_ends = Vec::with_capacity(parts.bodies.len());
    for body in &parts.bodies {
        locals_header(&body.locals, &mut headers);
        header_ends.push(headers.len());
    }
    let count = parts.bodies.len() + generated.len();
    let mut code_size = leb_len(count) + generated_bytes.len();
    let mut header_start = 0;
    for (body, &end) in parts.bodies.iter().zip(&header_ends) {
        let size = end - header_start + body.code.len();
        code_size += leb_len(size) + size;
        header_start = end;
    }
    let mut data = DataSection::new();
    for (_, bytes) in &segs {
        data.passive(bytes.iter().copied());
    }
    let mut tail = wasm_encoder::Module::new();
    tail.section(&data);
    // Names and metadata.
    tail.section(&names(env, parts.entry));
    let meta = meta::metadata(env, parts.entry);
    tail.section(&CustomSection { name: "pnacl".into(), data: meta.as_bytes().into() });
    // The tail without its module header.
    let tail = &tail.as_slice()[wasm_encoder::Module::HEADER.len()..];
    let head = module.finish();
    let mut out = Vec::with_capacity(head.len() + 1 + leb_len(code_size) + code_size + tail.len());
    out.extend_from_slice(&head);
    out.push(CodeSection::new().id());
    code_size.encode(&mut out);
    count.encode(&mut out);
    let mut header_start = 0;
    for (body, &end) in parts.bodies.iter().zip(&header_ends) {
        (end - header_start + body.code.len()).encode(&mut out);
        out.extend_from_slice(&headers[header_start..end]);
        out.extend_from_slice(&body.code);
        header_start = end;
    }
    out.extend_from_slice(&generated_bytes);
    out.extend_from_slice(tail);
    out
}

/// Appends a function's locals' declarations (runs of one type grouped) to `out`.
fn locals_header(locals: &[ValType], out: &mut Vec<u8>) {
    let runs = 1 + locals.windows(2).filter(|w| w[0] != w[1]).count();
    let runs = if locals.is_empty() { 0 } else { runs };
    runs.encode(out);
    let mut k = 0;
    while k < locals.len() {
        let n = locals[k..].iter().take_while(|&&t| t == locals[k]).count();
        n.encode(out);
        locals[k].encode(out);
        k += n;
    }
}

/// The number of bytes of `n` in unsigned LEB128.
fn leb_len(n: usize) -> usize {
    (usize::BITS - (n | 1).leading_zeros()).div_ceil(7) as usize
}

/// The tag's type: the jmp_buf and the value.
pub(crate) fn longjmp_type() -> FuncType {
    (vec![ValType::I32, ValType::I32], Vec::new())
}

/// An adapter's type: the call site's, with the callee last.
pub(crate) fn adapter_type(t: &FuncType) -> FuncType {
    let mut params = t.0.clone();
    params.push(ValType::I32);
    (params, t.1.clone())
}

fn helper(env: &Env<'_>, h: Helper, segs: &[(u32, &[u8])]) -> Function {
    let mut f = Function::new([]);
    let mut s = f.instructions();
    let intrinsic = env.helper(Helper::TrapIntrinsic);
    let null = env.helper(Helper::TrapNull);
    // A range past 4 GiB traps as `pnacl run`'s does ("memory intrinsic out of bounds"); one
    // in the null page with --checked as an access there; the rest is wasm's own check.
    let check = |s: &mut InstructionSink<'_>, args: &[u32]| {
        for &a in args {
            s.local_get(a).i64_extend_i32_u().local_get(2).i64_extend_i32_u().i64_add();
            s.i64_const(1 << 32).i64_gt_u().if_(BlockType::Empty).call(intrinsic).end();
        }
        if env.checked {
            s.local_get(2).i32_const(0).i32_ne();
            for &a in args {
                s.local_get(a).i32_const(crate::layout::NULL_PAGE_END as i32).i32_lt_u();
            }
            if args.len() == 2 {
                s.i32_or();
            }
            s.i32_and().if_(BlockType::Empty).call(null).end();
        }
    };
    match h {
        Helper::Memcpy | Helper::Memmove => {
            check(&mut s, &[0, 1]);
            s.local_get(0).local_get(1).local_get(2).memory_copy(0, 0);
        }
        Helper::Memset => {
            check(&mut s, &[0]);
            s.local_get(0).local_get(1).local_get(2).memory_fill(0);
        }
        Helper::InitMemory => {
            for (k, (addr, bytes)) in segs.iter().enumerate() {
                s.i32_const(*addr as i32).i32_const(0).i32_const(bytes.len() as i32).memory_init(0, k as u32);
                s.data_drop(k as u32);
            }
        }
        Helper::ThreadEntry => {
            let void = env.type_of(&(Vec::new(), Vec::new()));
            s.local_get(0).i32_const(16).i32_sub().i32_const(4).i32_rotr().call_indirect(0, void);
        }
        _ => {
            s.unreachable();
        }
    }
    s.end();
    f
}

/// The adapter for indirect calls of type `t`: calls the entry with the call's signature,
/// or with a compatible one (see `module::compatible`).
fn adapter(env: &Env<'_>, t: &FuncType) -> Function {
    let (params, results) = t;
    let n = params.len() as u32;
    let (idx, sid) = (n + 1, n + 2);
    let mut f = Function::new([(2, ValType::I32)]);
    let mut s = f.instructions();
    s.local_get(n).i32_const(16).i32_sub().i32_const(4).i32_rotr().local_tee(idx);
    s.call_indirect(1, env.type_of(&(Vec::new(), vec![ValType::I32]))).local_set(sid);
    // The call's own signature first, then the compatible ones, longest parameter list
    // first (see module::compatible).
    let mut candidates: Vec<&FuncType> =
        env.getters.iter().filter(|g| *g != t && crate::module::compatible(t, g)).collect();
    candidates.sort_by_key(|g| std::cmp::Reverse(g.0.len()));
    for sub in std::iter::once(t).chain(candidates) {
        let Some(ty) = env.type_ids_get(sub) else { continue };
        s.local_get(sid).i32_const(ty as i32).i32_eq().if_(BlockType::Empty);
        for a in 0..sub.0.len() as u32 {
            s.local_get(a);
        }
        s.local_get(idx).call_indirect(0, ty);
        if results.is_empty() && !sub.1.is_empty() {
            s.drop();
        } else if !results.is_empty() && sub.1.is_empty() {
            match results[0] {
                ValType::I64 => s.i64_const(0),
                ValType::F32 => s.f32_const(0.0.into()),
                ValType::F64 => s.f64_const(0.0.into()),
                ValType::V128 => s.v128_const(0),
                _ => s.i32_const(0),
            };
        }
        s.return_().end();
    }
    s.call(env.helper(Helper::TrapSignature)).unreachable().end();
    f
}

fn names(env: &Env<'_>, _entry: u32) -> NameSection {
    let m = env.m;
    let mut map = NameMap::new();
    for (k, h) in env.host.iter().enumerate() {
        map.append(k as u32, &format!("irt.{}", h.name));
    }
    map.append(env.fmod, "pnacl.fmod");
    for f in 0..m.functions.len() as u32 {
        if m.functions[f as usize].body.is_some() {
            map.append(env.function_index(f), &env.names[f as usize]);
        }
    }
    for h in Helper::ALL {
        map.append(env.helper(h), h.name());
    }
    if !env.adapters.is_empty() {
        for k in 0..env.getters.len() as u32 {
            map.append(env.first_getter() + k, &format!("pnacl.signature.{k}"));
        }
        for (k, (_, index)) in env.adapters.iter().enumerate() {
            map.append(*index, &format!("pnacl.adapter.{k}"));
        }
    }
    let mut names = NameSection::new();
    names.functions(&map);
    names
}

#[cfg(test)]
mod tests {
    use super::segments;

    #[test]
    fn zero_runs_split_segments() {
        let mut d = vec![0u8; 100];
        d[3] = 1;
        d[5] = 2;
        d[90] = 3;
        let s = segments(&d);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0], (crate::layout::GLOBALS_START + 3, &[1u8, 0, 2][..]));
        assert_eq!(s[1], (crate::layout::GLOBALS_START + 90, &[3u8][..]));
        assert!(segments(&[0; 10]).is_empty());
    }
}
