//! Assembler cases found in use: each assembles, and its disassembly (listing and
//! PNaClAsm column) assembles back to the same bytes.

use pnacl_text::{asm, dis};

fn round_trip(text: &str) {
    let bytes = asm::assemble(text).unwrap_or_else(|e| panic!("{}", e.render("case")));
    for options in [dis::Options::default(), dis::Options { records: false, ..Default::default() }] {
        let mut out = Vec::new();
        let error = dis::disassemble(&bytes, &options, &mut out).expect("in-memory output");
        assert!(error.is_none(), "{error:?}");
        let listing = String::from_utf8(out).unwrap();
        let again = asm::assemble(&listing).unwrap_or_else(|e| panic!("{}\n{listing}", e.render("listing")));
        assert_eq!(again, bytes, "{listing}");
    }
}

/// A constants block whose first line is a vector type: `<4 x i32>:` is not a block width
/// (`<N>`).
#[test]
fn a_constants_block_may_start_with_a_vector_type() {
    round_trip(
        "module {
  version 1;
  types {
    count 5;
    @t0 = i32;
    @t1 = <4 x i32>;
    @t2 = <4 x i32> ();
    @t3 = void;
    @t4 = void (i32);
  }
  define internal <4 x i32> @f0();
  define external void @f1(i32);
  globals {
    count 0;
  }
  valuesymtab {
    @f1 : \"_start\";
  }
  function <4 x i32> @f0() {
    blocks 1;
    constants {
      <4 x i32>:
        %c0 = <4 x i32> undef;
    }
  %b0:
    ret <4 x i32> %c0;
  }
  function void @f1(i32 %p0) {
    blocks 1;
  %b0:
    ret void;
  }
}",
    );
}
