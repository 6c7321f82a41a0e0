//! One negative test (at least) per rule the reader enforces: per Constraints clause of the
//! reference and per extra well-formedness rule. Each builds a small module from records and
//! asserts the specific rule and message.
//!
//! Inputs are written with a record-level builder local to this test, independent of the
//! text layer. Its notation:
//! - `ID[:W] { ... }` a block with abbreviation ids of W bits (default 2);
//! - `[@A] CODE,OP,...;` a record, unabbreviated or with abbreviation id A;
//! - `abbrev <OP, ...>;` an abbreviation definition (`N`, `fixed(N)`, `vbr(N)`, `array`,
//!   `char6`, `blob`);
//! - `rawabbrev OP...;` an abbreviation definition written bit by bit without checks
//!   (`lit:V`, `enc:E`, `enc:E:W`);
//! - `raw W V;` raw bits.

#[path = "rules/builder.rs"]
mod builder;

use builder::*;
use pnacl_bitcode::Rule;
use pnacl_bitstream::PexeHeader;

// ---------------------------------------------------------------------------------------
// The builder's base cases are valid.

#[test]
fn base_modules_are_valid() {
    passes(&valid());
    passes(&func(4, "1,1; 10,1;"));
    passes(&func(2, "1,3; 11 { 1,3; 4,2; } 11,1,2,1; 10; 10;"));
}

// File and header.

#[test]
fn file_length_multiple_of_four() {
    let mut b = build(&valid());
    b.extend_from_slice(&[0, 0]);
    fails_bytes(&b, Rule::FileLength, "multiple of 4 bytes");
}

#[test]
fn header_newer_version_is_refused() {
    let mut b = build(&valid());
    b[12] = 3;
    fails_bytes(&b, Rule::Header, "PNaCl Version: 3 (the file needs a newer PNaCl reader");
}

#[test]
fn header_needs_pexe_magic() {
    let mut b = build(&valid());
    b[0] = b'X';
    fails_bytes(&b, Rule::Header, "Invalid PNaCl bitcode header");
}

#[test]
fn header_align_flag_is_unsupported() {
    let mut b = PexeHeader::from_fields(vec![
        pnacl_bitstream::HeaderField { id: 1, ty: 1, data: vec![2, 0, 0, 0] },
        pnacl_bitstream::HeaderField { id: 2, ty: 2, data: vec![] },
    ])
    .raw;
    b.extend_from_slice(&build(&valid())[16..]);
    fails_bytes(&b, Rule::Header, "Align bitcode records");
}

#[test]
fn exactly_one_top_level_block() {
    fails(&format!("{} {}", valid(), valid()), Rule::TopLevel, "Expected 1 top level block");
    fails("17 { 1,0; }", Rule::TopLevel, "must be a module block");
    fails_bytes(&build("")[..16], Rule::TopLevel, "Found:0");
}

// Bitstream structure.

#[test]
fn truncated_file_is_malformed() {
    let b = build(&valid());
    fails_bytes(&b[..b.len() - 8], Rule::Bitstream, "");
}

#[test]
fn undefined_abbreviation_id_is_malformed() {
    // An END_BLOCK before the block's declared end.
    fails(&func(2, "1,1; raw 2 0; 10;"), Rule::Bitstream, "but its length says");
    fails(&module("8,2,0,0,3;", "5,0;", "", "12:3 { 1,1; raw 3 4; }"), Rule::Bitstream, "Invalid abbreviation id 4");
    // An abbreviation with no operands.
    fails(&func(2, "1,1; raw 2 2; raw 5 0; 10;"), Rule::AbbrevOperand, "no operands");
}

// Abbreviations.

#[test]
fn abbreviation_width_at_most_16() {
    fails(&module("8,2,0,0,3;", "5,0;", "", "12:17 { 1,1; 10; }"), Rule::AbbrevWidth, "larger than 16");
}

#[test]
fn abbreviation_width_holds_the_abbreviations() {
    fails(&module("8,2,0,0,3;", "5,0;", "", "12:2 { abbrev <10>; 1,1; 10; }"), Rule::AbbrevWidth, "don't fit");
    passes(&module("8,2,0,0,3;", "5,0;", "", "12:3 { abbrev <10>; 1,1; @4 10; }"));
}

#[test]
fn abbreviation_blobs_are_not_allowed() {
    fails(&module("8,2,0,0,3;", "5,0;", "", "12:3 { abbrev <1, blob>; 1,1; 10; }"), Rule::AbbrevOperand, "Blob");
}

#[test]
fn abbreviation_widths_at_most_32() {
    fails(&module("8,2,0,0,3;", "5,0;", "", "12:3 { abbrev <1, fixed(33)>; 1,1; 10; }"), Rule::AbbrevOperand, "33");
}

#[test]
fn abbreviation_array_is_second_to_last() {
    let body = "12:3 { rawabbrev lit:1 enc:3 enc:1:8 enc:1:8; 1,1; 10; }";
    fails(&module("8,2,0,0,3;", "5,0;", "", body), Rule::AbbrevOperand, "second-to-last");
}

#[test]
fn abbreviation_literal_values_fit() {
    let body = "12:3 { rawabbrev lit:18446744073709551615; 1,1; 10; }";
    passes(&module("8,2,0,0,3;", "5,0;", "", body));
    let huge = "12:3 { raw 3 2; raw 5 1; raw 1 1; raw 8 255; raw 8 255; raw 8 255; raw 8 255; raw 8 255; raw 8 255; raw 8 255; raw 8 255; raw 8 255; raw 8 127; 1,1; 10; }";
    fails(&module("8,2,0,0,3;", "5,0;", "", huge), Rule::AbbrevOperand, "does not fit in 64 bits");
}

#[test]
fn abbreviation_encoding_is_known() {
    let body = "12:3 { rawabbrev enc:6; 1,1; 10; }";
    fails(&module("8,2,0,0,3;", "5,0;", "", body), Rule::AbbrevOperand, "Invalid abbreviation encoding");
}

#[test]
fn abbreviations_block_holds_only_setbid_and_abbreviations() {
    let src = format!("8 {{ 1,1; 0 {{ 1,12; 2,65; }} 17 {{ {TYPES} }} 8,2,0,0,3; 19 {{ 5,0; }} 12 {{ 1,1; 10; }} }}");
    fails(&src, Rule::Blockinfo, "only SETBID");
    let src =
        format!("8 {{ 1,1; 0 {{ 1,99; abbrev <1>; }} 17 {{ {TYPES} }} 8,2,0,0,3; 19 {{ 5,0; }} 12 {{ 1,1; 10; }} }}");
    fails(&src, Rule::Blockinfo, "unknown block id 99");
}

#[test]
fn abbreviations_from_the_abbreviations_block_apply() {
    let src = format!(
        "8 {{ 1,1; 0 {{ 1,12; abbrev <10>; }} 17 {{ {TYPES} }} 8,2,0,0,3; 19 {{ 5,0; }} 12:3 {{ 1,1; @4 10; }} }}"
    );
    passes(&src);
    // The same abbreviation in a block whose ids are too narrow for it.
    let src =
        format!("8 {{ 1,1; 0 {{ 1,12; abbrev <10>; }} 17 {{ {TYPES} }} 8,2,0,0,3; 19 {{ 5,0; }} 12 {{ 1,1; 10; }} }}");
    fails(&src, Rule::AbbrevWidth, "don't fit");
}

// Module block.

#[test]
fn unknown_blocks_and_records() {
    fails(&module("8,2,0,0,3;", "5,0;", "99 { }", "12 { 1,1; 10; }"), Rule::UnknownBlock, "block 99");
    fails(&module("8,2,0,0,3; 77,1;", "5,0;", "", "12 { 1,1; 10; }"), Rule::UnknownRecord, "77");
    fails(&func(2, "1,1; 99 { } 10;"), Rule::UnknownBlock, "block 99");
    fails(&func(2, "1,1; 99; 10;"), Rule::UnknownRecord, "99");
    fails(&module("8,2,0,0,3;", "5,0; 9;", "", "12 { 1,1; 10; }"), Rule::UnknownRecord, "9");
    fails(&module("8,2,0,0,3;", "5,0;", "14 { 7,0,65; }", "12 { 1,1; 10; }"), Rule::UnknownRecord, "7");
    fails(&func(2, "1,1; 11 { 1,0; 9,1; } 10;"), Rule::UnknownRecord, "9");
    fails(&valid().replacen("17 {", "17 { 40;", 1), Rule::TypesCount, "Count record not first");
}

#[test]
fn version_record_comes_first_and_is_1() {
    fails(&valid().replacen("1,1;", "", 1), Rule::ModuleOrder, "version record must come before");
    fails(&valid().replacen("1,1;", "1,0;", 1), Rule::ModuleVersion, "Unknown bitstream version: 0");
    fails(&valid().replacen("1,1;", "1,1; 1,1;", 1), Rule::ModuleVersion, "only one");
    fails(&valid().replacen("1,1;", "1,1,1;", 1), Rule::RecordLength, "Version record");
}

#[test]
fn module_blocks_come_in_order() {
    // Function addresses before the types block.
    let src = format!("8 {{ 1,1; 8,2,0,0,3; 17 {{ {TYPES} }} 19 {{ 5,0; }} 12 {{ 1,1; 10; }} }}");
    fails(&src, Rule::ModuleOrder, "after the types block");
    // A second types block.
    let src = format!("8 {{ 1,1; 17 {{ {TYPES} }} 17 {{ {TYPES} }} 8,2,0,0,3; 19 {{ 5,0; }} 12 {{ 1,1; 10; }} }}");
    fails(&src, Rule::ModuleOrder, "Only one types block");
    // No function addresses before the globals.
    fails(&module("", "5,0;", "", ""), Rule::ModuleOrder, "at least one function address");
    // Function addresses after the globals.
    fails(
        &module("8,2,0,0,3;", "5,0;", "8,2,0,0,3;", "12 { 1,1; 10; }"),
        Rule::ModuleOrder,
        "before the globals block",
    );
    // No globals block.
    let src = format!("8 {{ 1,1; 17 {{ {TYPES} }} 8,2,0,0,3; 12 {{ 1,1; 10; }} }}");
    fails(&src, Rule::ModuleOrder, "after the globals block");
    let src = format!("8 {{ 1,1; 17 {{ {TYPES} }} 8,2,0,1,3; }}");
    fails(&src, Rule::ModuleOrder, "no globals block");
    // The symbol table after a function block, and twice.
    let sym = "14 { 1,0,102; }";
    fails(
        &module("8,2,0,0,3;", "5,0;", "", &format!("12 {{ 1,1; 10; }} {sym}")),
        Rule::ModuleOrder,
        "before function blocks",
    );
    fails(
        &module("8,2,0,0,3;", "5,0;", &format!("{sym} {sym}"), "12 { 1,1; 10; }"),
        Rule::ModuleOrder,
        "Duplicate valuesymtab",
    );
}

// Types block.

#[test]
fn types_count_comes_first_and_matches() {
    let src = module("8,2,0,0,3;", "5,0;", "", "12 { 1,1; 10; }");
    fails(&src.replacen("1,12;", "1,11;", 1), Rule::TypesCount, "found more");
    fails(&src.replacen("1,12;", "1,13;", 1), Rule::TypesCount, "Expected 13 types but found: 12");
    fails(&src.replacen("1,12;", "", 1), Rule::TypesCount, "Count record not first");
    fails(&src.replacen("1,12;", "1,12; 1,12;", 1), Rule::TypesCount, "Count record not first");
    fails(&src.replacen("1,12;", "1,1000000;", 1), Rule::TypesCount, "larger than the types block can hold");
}

#[test]
fn integer_types_have_valid_widths() {
    fails(&valid().replacen("7,64;", "7,7;", 1), Rule::TypeInteger, "invalid bitsize: 7");
    fails(&valid().replacen("7,64;", "7,64,0;", 1), Rule::RecordLength, "expects 1");
}

#[test]
fn vector_types_have_valid_shapes() {
    fails(&valid().replacen("12,4,0;", "12,3,0;", 1), Rule::TypeVector, "<3 x i32> not allowed");
    fails(&valid().replacen("12,4,0;", "12,4,7;", 1), Rule::TypeVector, "<4 x double>");
}

#[test]
fn type_records_use_earlier_types() {
    fails(&valid().replacen("12,4,0;", "12,4,11;", 1), Rule::TypeRef, "Can't find definition for @t11");
    fails(&valid().replacen("12,4,0;", "12,4,2;", 1), Rule::TypeRef, "vector element can't be the function type");
    fails(&valid().replacen("21,0,1,0;", "21,0,1,9;", 1), Rule::TypeRef, "@t9");
}

#[test]
fn function_types_take_values() {
    fails(&valid().replacen("21,0,1,0;", "21,0,1,1;", 1), Rule::TypeFunction, "can't be void");
    fails(&valid().replacen("21,0,1,0;", "21,2,1,0;", 1), Rule::TypeFunction, "vararg flag 2");
    fails(&valid().replacen("21,0,1,0;", "21,0;", 1), Rule::RecordLength, "at least 2");
}

#[test]
fn types_are_unique() {
    fails(&valid().replacen("7,64;", "7,32;", 1), Rule::TypeUnique, "duplicates @t0");
}

#[test]
fn varargs_are_an_abi_violation() {
    abi_fails(&valid().replacen("21,0,0,0;", "21,1,0,0;", 1), Rule::Vararg, "variable length arguments");
}

// Function address records.

#[test]
fn function_addresses_are_well_formed() {
    fails(&func(0, "1,1; 10;"), Rule::FunctionType, "non-function type i32");
    fails(&func(99, "1,1; 10;"), Rule::FunctionType, "@t99");
    fails(&valid().replacen("8,2,0,0,3;", "8,2,0,2,3;", 1), Rule::FunctionProto, "prototype flag 2");
    fails(&valid().replacen("8,2,0,0,3;", "8,2,0,0,1;", 1), Rule::FunctionLinkage, "unknown linkage. Found 1");
    fails(&valid().replacen("8,2,0,0,3;", "8,2,0,0;", 1), Rule::RecordLength, "expects 4");
    abi_fails(&valid().replacen("8,2,0,0,3;", "8,2,1,0,3;", 1), Rule::CallingConv, "calling convention: 1");
}

#[test]
fn ordinary_signatures_use_wide_integers() {
    // void(i8) is only allowed for intrinsics.
    let src = "8 { 1,1; 17 { 1,3; 7,8; 2; 21,0,1,0; } 8,2,0,0,3; 19 { 5,0; } 12 { 1,1; 10; } }".to_string();
    abi_fails(&src, Rule::Signature, "Invalid type signature for @f0: void (i8)");
}

#[test]
fn intrinsics_are_whitelisted_with_their_signature() {
    // llvm.fake.i32 : i32(i32)
    let name = |s: &str| s.bytes().map(|b| b.to_string()).collect::<Vec<_>>().join(",");
    let vst = format!("14 {{ 1,1,{}; }}", name("llvm.fake.i32"));
    abi_fails(
        &module("8,2,0,0,3; 8,4,0,1,0;", "5,0;", &vst, "12 { 1,1; 10; }"),
        Rule::Intrinsic,
        "Invalid intrinsic name: llvm.fake.i32",
    );
    // llvm.nacl.setjmp declared as i32(double).
    let src = format!(
        "8 {{ 1,1; 17 {{ 1,5; 7,32; 4; 21,0,0,1; 2; 21,0,3,0; }} 8,4,0,0,3; 8,2,0,1,0; 19 {{ 5,0; }} 14 {{ 1,1,{}; }} 12 {{ 1,1; 10; }} }}",
        name("llvm.nacl.setjmp")
    );
    abi_fails(&src, Rule::Intrinsic, "Intrinsic llvm.nacl.setjmp expects i8* for argument 1. Found: double");
    // The right signature is accepted, and exempts the function from the i32/i64 rule.
    let vst = format!("14 {{ 1,1,{}; }}", name("llvm.memset.p0i8.i32"));
    let src = format!(
        "8 {{ 1,1; 17 {{ 1,6; 7,32; 2; 21,0,1,0; 7,8; 7,1; 21,0,1,0,3,0,0,4; }} 8,2,0,0,3; 8,5,0,1,0; 19 {{ 5,0; }} {vst} 12 {{ 1,1; 10; }} }}"
    );
    passes(&src);
}

// Globals block.

#[test]
fn globals_count_comes_first_and_matches() {
    fails(&module("8,2,0,0,3;", "0,1,0; 2,4;", "", "12 { 1,1; 10; }"), Rule::GlobalsCount, "not first");
    fails(
        &module("8,2,0,0,3;", "5,2; 0,1,0; 2,4;", "", "12 { 1,1; 10; }"),
        Rule::GlobalsCount,
        "Expected 2 globals but found: 1",
    );
    fails(
        &module("8,2,0,0,3;", "5,1; 0,1,0; 2,4; 0,1,0; 2,4;", "", "12 { 1,1; 10; }"),
        Rule::GlobalsCount,
        "found more",
    );
    fails(&module("8,2,0,0,3;", "", "", "12 { 1,1; 10; }"), Rule::GlobalsCount, "no count record");
    fails(
        &module("8,2,0,0,3;", "5,100000;", "", "12 { 1,1; 10; }"),
        Rule::GlobalsCount,
        "larger than the globals block",
    );
}

#[test]
fn global_variable_records_are_well_formed() {
    fails(&module("8,2,0,0,3;", "5,1; 0,1; 2,4;", "", "12 { 1,1; 10; }"), Rule::GlobalVar, "expects two arguments");
    fails(&module("8,2,0,0,3;", "5,1; 0,1,2; 2,4;", "", "12 { 1,1; 10; }"), Rule::GlobalVar, "constant flag 2");
    fails(&module("8,2,0,0,3;", "5,1; 0,31,0; 2,4;", "", "12 { 1,1; 10; }"), Rule::Align, "2**30");
    passes(&module("8,2,0,0,3;", "5,1; 0,30,1; 2,4;", "", "12 { 1,1; 10; }"));
}

#[test]
fn each_global_gets_its_initializers() {
    let m = |g: &str| module("8,2,0,0,3;", g, "", "12 { 1,1; 10; }");
    fails(&m("5,2; 0,1,0; 0,1,0; 2,4;"), Rule::GlobalInit, "More initializers for @g0 expected: 1");
    fails(&m("5,1; 0,1,0;"), Rule::GlobalInit, "More initializers for @g0 expected: 1");
    fails(&m("5,1; 0,1,0; 1,2; 2,4;"), Rule::GlobalInit, "More initializers for @g0 expected: 1");
    fails(&m("5,1; 0,1,0; 2,4; 2,4;"), Rule::GlobalInit, "Too many initializers");
    fails(&m("5,1; 0,1,0; 2,4; 1,2;"), Rule::GlobalInit, "compound record not first");
    fails(&m("5,1; 2,4;"), Rule::GlobalInit, "before any global");
    fails(&m("5,1; 0,1,0; 1,0;"), Rule::GlobalInit, "can't hold 0");
    passes(&m("5,1; 0,1,0; 1,2; 2,4; 3,1,2;"));
}

#[test]
fn data_initializers_hold_bytes() {
    let m = |g: &str| module("8,2,0,0,3;", g, "", "12 { 1,1; 10; }");
    fails(&m("5,1; 0,1,0; 3,1,256;"), Rule::GlobalData, "Invalid byte value in data record: 256");
    fails(&m("5,1; 0,1,0; 3;"), Rule::GlobalData, "no bytes");
    fails(&m("5,1; 0,1,0; 2,4294967296;"), Rule::GlobalData, "larger than the address space");
}

#[test]
fn relocations_name_functions_or_globals() {
    let m = |g: &str| module("8,2,0,0,3;", g, "", "12 { 1,1; 10; }");
    passes(&m("5,2; 0,1,0; 1,2; 4,0; 4,2; 0,1,0; 4,1,4294967295;"));
    fails(&m("5,1; 0,1,0; 4,2;"), Rule::GlobalReloc, "Relocation index 2 too big");
    fails(&m("5,1; 0,1,0; 4,1,4294967296;"), Rule::GlobalReloc, "Addend of global reloc record too big");
    fails(&m("5,1; 0,1,0; 4,1,1,1;"), Rule::RecordLength, "1 or 2");
}

// Symbol tables.

#[test]
fn module_symbol_table_names_defined_values() {
    let m = |v: &str| module("8,2,0,0,3;", "5,0;", v, "12 { 1,1; 10; }");
    passes(&m("14 { 1,0,102; }"));
    fails(&m("14 { 1,1,102; }"), Rule::Symtab, "undefined value 1");
    fails(&m("14 { 2,0,102; }"), Rule::Symtab, "only allowed in function symbol tables");
    fails(&m("14 { 1,0,256; }"), Rule::Symtab, "Invalid character 256");
    fails(&m("14 { 1; }"), Rule::RecordLength, "value and a name");
}

#[test]
fn function_symbol_table_names_locals() {
    passes(&func(2, "1,1; 10; 14 { 1,1,112; 2,0,98; }"));
    fails(&func(2, "1,1; 10; 14 { 1,5,112; }"), Rule::Symtab, "undefined value 5");
    fails(&func(2, "1,1; 10; 14 { 2,1,98; }"), Rule::Symtab, "undefined basic block %b1");
    fails(&func(2, "14 { 2,0,98; } 1,1; 10;"), Rule::DeclareBlocks, "must start");
}

// Function blocks.

#[test]
fn one_function_block_per_defined_function() {
    fails(
        &module("8,2,0,0,3;", "5,0;", "", "12 { 1,1; 10; } 12 { 1,1; 10; }"),
        Rule::FunctionBlocks,
        "No corresponding defining",
    );
    fails(
        &module("8,2,0,0,3; 8,2,0,0,3;", "5,0;", "", "12 { 1,1; 10; }"),
        Rule::FunctionBlocks,
        "Expected 2 function blocks",
    );
    fails(&module("8,2,0,1,3;", "5,0;", "", "12 { 1,1; 10; }"), Rule::FunctionBlocks, "No corresponding defining");
}

#[test]
fn basic_block_count_comes_first() {
    fails(&func(2, "10;"), Rule::DeclareBlocks, "must start with a `blocks` record");
    fails(&func(2, ""), Rule::DeclareBlocks, "has no `blocks` record");
    fails(&func(2, "1,0; 10;"), Rule::DeclareBlocks, "doesn't contain any basic blocks");
    fails(&func(2, "1,1; 1,1; 10;"), Rule::DeclareBlocks, "Duplicate function block count record");
    fails(
        &func(2, "1,3105555534; 10;"),
        Rule::DeclareBlocks,
        "Function defines 3105555534 basic blocks, which is too big",
    );
}

#[test]
fn basic_blocks_match_the_count() {
    fails(&func(2, "1,2; 10;"), Rule::BasicBlocks, "Function expected 2 basic blocks. Found: 1");
    fails(&func(2, "1,1; 10; 10;"), Rule::BasicBlocks, "after the last of the 1 basic blocks");
    fails(&func(2, "1,1; 10; 43,5,0;"), Rule::BasicBlocks, "after the last");
}

#[test]
fn constants_block_comes_before_instructions_once() {
    fails(&func(2, "1,1; 10; 11 { 1,0; 4,2; }"), Rule::ConstantsOrder, "before its instructions");
    fails(&func(2, "1,1; 11 { 1,0; 4,2; } 11 { 1,0; 4,2; } 10;"), Rule::ConstantsOrder, "once");
}

#[test]
fn constants_follow_a_set_type() {
    fails(&func(2, "1,1; 11 { 4,2; } 10;"), Rule::ConstSetType, "not preceded by set type");
    fails(&func(2, "1,1; 11 { 1,1; 3; } 10;"), Rule::ConstSetType, "void");
    fails(&func(2, "1,1; 11 { 1,2; 3; } 10;"), Rule::ConstSetType, "void (i32)");
    fails(&func(2, "1,1; 11 { 1,40; 3; } 10;"), Rule::ConstSetType, "@t40");
    passes(&func(2, "1,1; 11 { 1,9; 3; 1,5; 3; 1,0; } 10;"));
}

#[test]
fn integer_constants_are_integers_that_fit() {
    fails(&func(2, "1,1; 11 { 1,5; 4,2; } 10;"), Rule::ConstInteger, "non-integer type float");
    fails(&func(2, "1,1; 11 { 1,8; 4,512; } 10;"), Rule::ConstInteger, "256 doesn't fit in i8");
    fails(&func(2, "1,1; 11 { 1,3; 4,4; } 10;"), Rule::ConstInteger, "doesn't fit in i1");
    fails(&func(2, "1,1; 11 { 1,0; 4,1; } 10;"), Rule::ConstInteger, "doesn't fit in i32");
    passes(&func(2, "1,1; 11 { 1,8; 4,510; 4,257; 1,3; 4,3; 4,2; 1,6; 4,1; } 10;"));
}

#[test]
fn float_constants_are_floats_of_their_width() {
    fails(&func(2, "1,1; 11 { 1,0; 6,0; } 10;"), Rule::ConstFloat, "non-float type i32");
    fails(&func(2, "1,1; 11 { 1,5; 6,4294967296; } 10;"), Rule::ConstFloat, "wider than 32 bits");
    passes(&func(2, "1,1; 11 { 1,7; 6,4294967296; } 10;"));
}

// Operands and forward declarations.

#[test]
fn operands_are_defined_or_declared() {
    // In @f0 of type i32(i32), %p0 is value 1 and %v0 is value 2.
    fails(&func(4, "1,1; 10,0;"), Rule::ValueRef, "Can't find type for %v0");
    fails(&func(4, "1,1; 10,4294967296;"), Rule::ValueRef, "Invalid relative value id: 4294967296");
    fails(&func(4, "1,1; 2,1,4294967295,0; 10,1;"), Rule::ValueRef, "Can't find type for %v1");
    // %v0 = add %p0, %v1 (declared); %v1 = add %p0, %p0; ret %v1.
    passes(&func(4, "1,1; 43,3,0; 2,1,4294967295,0; 2,2,2,0; 10,1;"));
}

#[test]
fn forward_declarations_are_unique_later_and_honoured() {
    fails(
        &func(4, "1,1; 43,3,0; 43,3,0; 2,1,4294967295,0; 2,2,2,0; 10,1;"),
        Rule::ForwardDecl,
        "Duplicate forward declaration",
    );
    fails(&func(4, "1,1; 2,1,1,0; 43,2,0; 10,1;"), Rule::ForwardDecl, "already defined");
    fails(&func(4, "1,1; 43,1,0; 2,1,1,0; 10,1;"), Rule::ForwardDecl, "already defined");
    fails(&func(4, "1,1; 43,2,6; 2,1,1,0; 10,1;"), Rule::ForwardDecl, "%v0 defined with multiple types: i32 and i64");
    fails(&func(4, "1,1; 43,3,0; 2,1,1,0; 10,1;"), Rule::ForwardDecl, "%v1 is declared but never defined");
    fails(&func(4, "1,1; 43,3105555534,0; 10,1;"), Rule::ForwardDecl, "Forward reference @3105555534 too big");
    fails(&func(4, "1,1; 43,2,1; 10,1;"), Rule::ForwardDecl, "void");
}

#[test]
fn forward_uses_must_be_defined() {
    // A phi operand may refer forward without a declaration; the value must then exist.
    fails(&func(2, "1,3; 11,1; 16,0,3,1; 11,2; 10;"), Rule::ValueRef, "used but never defined");
}

// Terminators.

#[test]
fn branch_targets_are_non_entry_blocks() {
    fails(&func(2, "1,2; 11,0; 10;"), Rule::BranchTarget, "Branch %b0 out of range");
    fails(&func(2, "1,2; 11,2; 10;"), Rule::BranchTarget, "Branch %b2 out of range");
    fails(&func(2, "1,2; 11,1,5,1; 10;"), Rule::BranchTarget, "%b5");
    fails(&func(2, "1,1; 11; 10;"), Rule::RecordLength, "1 or 3");
}

#[test]
fn conditional_branches_test_an_i1() {
    fails(&func(2, "1,3; 11,1,2,1; 10; 10;"), Rule::CondBr, "Branch condition not i1. Found: i32");
    passes(&func(2, "1,3; 11 { 1,3; 4,2; } 11,1,2,1; 10; 10;"));
}

#[test]
fn returns_match_the_function_type() {
    fails(&func(2, "1,1; 10,1;"), Rule::Ret, "ret i32 in a function returning void");
    fails(&func(4, "1,1; 10;"), Rule::Ret, "ret void in a function returning i32");
    fails(&func(4, "1,1; 11 { 1,6; 4,2; } 10,1;"), Rule::Ret, "ret i64 in a function returning i32");
    fails(&func(4, "1,1; 10,1,1;"), Rule::RecordLength, "0 or 1");
}

#[test]
fn switches_are_on_integers_with_single_cases() {
    // switch i32 %p0 { default: %b1; i32 1: %b1 }
    passes(&func(2, "1,2; 12,0,1,1,1,1,1,2,1; 10;"));
    fails(&func(2, "1,2; 12,5,1,1,0; 10;"), Rule::Switch, "non-wide integer. Found: float");
    fails(&func(2, "1,2; 12,6,1,1,0; 10;"), Rule::Switch, "Switch on i32 value declared as i64");
    fails(&func(2, "1,2; 12,0,1,1,1,2,1,2,1; 10;"), Rule::Switch, "Case ranges are not supported");
    fails(&func(2, "1,2; 12,8,1,1,0; 10;"), Rule::Switch, "declared as i8");
    fails(&func(2, "1,2; 12,0,1,1,1,1,1,8589934592,1; 10;"), Rule::Switch, "doesn't fit in i32");
    fails(&func(2, "1,2; 12,0,1,1,2,1,1,2,1; 10;"), Rule::RecordLength, "2 cases");
    fails(&func(2, "1,2; 12,0,1,0,0; 10;"), Rule::BranchTarget, "%b0");
}

// Arithmetic.

#[test]
fn binary_operators_take_one_type_they_are_defined_on() {
    fails(&func(2, "1,1; 11 { 1,6; 4,2; } 2,2,1,0; 10;"), Rule::Binop, "Binop argument types differ: i32 and i64");
    fails(&func(2, "1,1; 11 { 1,5; 6,0; } 2,1,1,3; 10;"), Rule::Binop, "udiv: Invalid type for operator: float");
    fails(&func(2, "1,1; 2,1,1,13; 10;"), Rule::Binop, "Binary opcode 13 not understood");
    fails(&func(2, "1,1; 2,1,1; 10;"), Rule::RecordLength, "3 or 4");
    passes(&func(2, "1,1; 11 { 1,5; 6,0; } 2,1,1,6; 2,1,1,0; 10;"));
    passes(&func(2, "1,1; 11 { 1,3; 4,2; } 2,1,1,12; 10;"));
}

#[test]
fn integer_arithmetic_on_i1_is_an_abi_violation() {
    abi_fails(
        &func(2, "1,1; 11 { 1,3; 4,2; } 2,1,1,0; 10;"),
        Rule::BinopI1,
        "add: Invalid integer arithmetic type: i1",
    );
}

#[test]
fn conversions_are_defined_on_their_types() {
    // %p0 is an i32 parameter.
    fails(&func(2, "1,1; 3,1,0,1; 10;"), Rule::Cast, "Invalid cast 'zext'. Not defined on i32 to i32");
    fails(&func(2, "1,1; 3,1,6,0; 10;"), Rule::Cast, "Invalid cast 'trunc'. Not defined on i32 to i64");
    fails(&func(2, "1,1; 3,1,5,7; 10;"), Rule::Cast, "'fptrunc'");
    fails(&func(2, "1,1; 3,1,7,8; 10;"), Rule::Cast, "'fpext'");
    fails(&func(2, "1,1; 3,1,0,3; 10;"), Rule::Cast, "'fptoui'");
    fails(&func(2, "1,1; 3,1,0,4; 10;"), Rule::Cast, "'fptosi'");
    fails(&func(2, "1,1; 3,1,0,5; 10;"), Rule::Cast, "'uitofp'");
    fails(&func(2, "1,1; 3,1,8,6; 10;"), Rule::Cast, "'sitofp'");
    fails(&func(2, "1,1; 3,1,6,11; 10;"), Rule::Cast, "'bitcast'. Not defined on i32 to i64");
    fails(&func(2, "1,1; 3,1,6,9; 10;"), Rule::Cast, "Cast opcode 9 not understood");
    fails(&func(2, "1,1; 3,1,1,1; 10;"), Rule::Cast, "void");
    passes(&func(2, "1,1; 3,1,6,1; 3,2,8,0; 3,3,5,5; 3,1,0,11; 10;"));
}

#[test]
fn comparisons_compare_one_type() {
    fails(&func(2, "1,1; 11 { 1,6; 4,2; } 28,2,1,32; 10;"), Rule::Compare, "Compare argument types differ");
    fails(&func(2, "1,1; 11 { 1,5; 6,0; } 28,1,1,32; 10;"), Rule::Compare, "Expects integer type. Found: float");
    fails(&func(2, "1,1; 28,1,1,1; 10;"), Rule::Compare, "Expects floating point type. Found: i32");
    fails(&func(2, "1,1; 28,1,1,20; 10;"), Rule::Compare, "predicate 20 not understood");
}

#[test]
fn selects_choose_on_i1() {
    // %c0 = i1 1 (value 2); first instruction value 3.
    passes(&func(2, "1,1; 11 { 1,3; 4,2; } 29,2,2,1; 10;"));
    fails(&func(2, "1,1; 11 { 1,3; 4,2; } 29,2,2,2; 10;"), Rule::Select, "condition i32");
    fails(&func(2, "1,1; 11 { 1,3; 4,2; } 29,2,1,1; 10;"), Rule::Select, "not same type");
    // A scalar i1 chooses between whole vectors (%c1 = <4 x i32> undef), as LLVM allows.
    passes(&func(2, "1,1; 11 { 1,3; 4,2; 1,9; 3; } 29,1,1,2; 10;"));
    // A vector condition needs the operands' lane count: <4 x i1> does not pick i32s.
    fails(&func(2, "1,1; 11 { 1,3; 4,2; 1,9; 3; } 28,1,1,32; 29,4,4,1; 10;"), Rule::Select, "Select condition");
}

#[test]
fn vector_element_instructions() {
    // void(<4 x i32>) is @t12 below; %p0 is the vector (value 1).
    let vec_fn = |body: &str| {
        format!("8 {{ 1,1; 17 {{ 1,5; 7,32; 12,4,0; 2; 21,0,2,1; 7,8; }} 8,3,0,0,3; 19 {{ 5,0; }} 12 {{ {body} }} }}")
    };
    passes(&vec_fn("1,1; 11 { 1,0; 4,0; } 6,2,1; 7,3,1,2; 10;"));
    fails(&vec_fn("1,1; 11 { 1,0; 4,0; } 6,1,1; 10;"), Rule::Vector, "Vector expected. Found: i32");
    fails(&vec_fn("1,1; 11 { 1,4; 4,0; } 6,2,1; 10;"), Rule::Vector, "Index not i32. Found: i8");
    fails(
        &vec_fn("1,1; 11 { 1,4; 4,0; 1,0; 4,0; } 7,3,2,1; 10;"),
        Rule::Vector,
        "Illegal element type i8. Expected: i32",
    );
}

// Memory.

#[test]
fn alloca_takes_an_i32_size() {
    passes(&func(2, "1,1; 19,1,3; 10;"));
    abi_fails(&func(2, "1,1; 11 { 1,6; 4,2; } 19,1,1; 10;"), Rule::Alloca, "alloca array size is not i32. Found: i64");
}

#[test]
fn alignments_are_at_most_2_pow_29() {
    fails(&func(2, "1,1; 19,1,31; 10;"), Rule::Align, "Alignment can't be greater than 2**29. Found: 2**30");
    fails(&func(2, "1,1; 20,1,31,0; 10;"), Rule::Align, "2**30");
    fails(&func(2, "1,1; 24,1,1,31; 10;"), Rule::Align, "2**30");
}

#[test]
fn loads_and_stores_use_i32_addresses_and_value_types() {
    passes(&func(2, "1,1; 20,1,1,0; 24,2,1,1; 10;"));
    fails(&func(2, "1,1; 11 { 1,6; 4,2; } 20,1,1,0; 10;"), Rule::Memory, "load: Address not i32. Found: i64");
    fails(&func(2, "1,1; 11 { 1,6; 4,2; } 24,1,2,1; 10;"), Rule::Memory, "store: Address not i32. Found: i64");
    fails(&func(2, "1,1; 20,1,1,1; 10;"), Rule::Memory, "void");
}

#[test]
fn load_store_alignment_follows_the_abi() {
    abi_fails(&func(2, "1,1; 20,1,3,0; 10;"), Rule::MemoryAlign, "load: Illegal alignment for i32. Expects: 1");
    abi_fails(
        &func(2, "1,1; 11 { 1,7; 6,0; } 24,2,1,3; 10;"),
        Rule::MemoryAlign,
        "Illegal alignment for double. Expects: 1 or 8",
    );
    abi_fails(&func(2, "1,1; 20,1,1,3; 10;"), Rule::MemoryAlign, "Illegal type i1");
}

// Phi.

#[test]
fn phis_start_non_entry_blocks_with_their_type() {
    // Blocks: %b0 br %b1; %b1: phi i32 [%p0, %b0] ; ret.
    passes(&func(2, "1,2; 11,1; 16,0,2,0; 10;"));
    fails(&func(2, "1,2; 16,0,2,0; 11,1; 10;"), Rule::Phi, "entry block");
    fails(&func(2, "1,2; 11,1; 2,1,1,0; 16,0,4,0; 10;"), Rule::Phi, "after a non-phi");
    fails(&func(2, "1,2; 11,1; 16,6,2,0; 10;"), Rule::Phi, "has type i32, not i64");
    fails(&func(2, "1,2; 11,1; 16,1,2,0; 10;"), Rule::Phi, "void");
    fails(&func(2, "1,2; 11,1; 16,0,2,7; 10;"), Rule::Phi, "%b7 out of range");
    fails(&func(2, "1,2; 11,1; 16,0,2; 10;"), Rule::RecordLength, "pairs");
    // Declarations may come before and between phis.
    passes(&func(2, "1,2; 11,1; 43,4,0; 16,0,2,0; 16,0,4,0; 2,2,2,0; 10;"));
}

// Calls.

#[test]
fn direct_calls_match_the_callee() {
    // @f0 void(i32) defined, @f1 i32(i32) defined. In @f0, %p0 is value 2.
    let m = |body: &str| module("8,2,0,0,3; 8,4,0,0,3;", "5,0;", "", &format!("12 {{ {body} }} 12 {{ 1,1; 10,1; }}"));
    passes(&m("1,1; 34,0,2,1; 34,1,3,2; 10;"));
    fails(&m("1,1; 34,0,2; 10;"), Rule::Call, "Call has 0 parameters. Signature expects: 1");
    fails(&m("1,1; 11 { 1,6; 4,2; } 34,0,3,1; 10;"), Rule::Call, "Parameter 1 mismatch: i64 and i32");
    fails(&m("1,1; 34,0,1,1; 10;"), Rule::Call, "Direct call to %p0, which is not a function");
    fails(&m("1,1; 34,2,2,1; 10;"), Rule::Call, "calling convention/tail field 2");
    fails(&m("1,1; 34;"), Rule::RecordLength, "at least 2");
}

#[test]
fn indirect_calls_go_through_i32_values() {
    // call void %p0(i32 %p0); %v0 = call i32 %p0(i32 %p0)
    passes(&func(2, "1,1; 44,0,1,1,1; 44,1,1,0,1; 10;"));
    fails(&func(2, "1,1; 11 { 1,5; 6,0; } 44,0,1,1; 10;"), Rule::Call, "Call indirect address not i32. Found: float");
    fails(&func(2, "1,1; 44,0,1,2; 10;"), Rule::Call, "Invalid type void (i32)");
    fails(&func(2, "1,1; 44,0;"), Rule::RecordLength, "at least 3");
}

#[test]
fn call_arguments_are_wide_values() {
    // An i8 argument to an indirect call.
    abi_fails(
        &func(2, "1,1; 11 { 1,8; 4,2; } 44,0,2,1,1; 10;"),
        Rule::CallTypes,
        "Argument 1 of indirect call has invalid type: i8",
    );
    // An i1 result of an indirect call.
    abi_fails(&func(2, "1,1; 44,0,1,3; 10;"), Rule::CallTypes, "Return type of indirect call is invalid: i1");
}

#[test]
fn every_rule_has_a_test() {
    // Rules exercised above, by id; keeps this file honest as rules are added.
    let src = include_str!("rules.rs");
    for r in Rule::ALL {
        let name = format!("Rule::{r:?}");
        assert!(src.contains(&name), "no negative test uses {name}");
    }
}
