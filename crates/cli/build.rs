//! Rebuilds the `pnacl` binary when the C library's files change: `libc.rs` embeds them
//! (include_dir!, include_str!), which cargo does not track by itself.

fn main() {
    println!("cargo:rerun-if-changed=../../libc");
}
