//! LLVM IR, as the producer half of pnacl sees it.
//!
//! - [`ir`]: a model of LLVM modules general enough for every module clang writes for C and
//!   C++ (typed or opaque pointers), and mutable, so that the ABI simplification passes can
//!   rewrite it in place.
//! - [`hash`]: the fast hasher of the model's interning tables and id-keyed maps.
//!
//! The model is the meeting point of the LLVM side: the bitcode reader fills it, the
//! simplification passes rewrite it, `freeze` lowers it into the PNaCl IR, `thaw` raises a
//! PNaCl module into it, and the printer writes it as LLVM IR text.

pub mod hash;
pub mod ir;
pub mod print;
pub mod reader;

pub use ir::Module;
pub use reader::{ReadError, read};
