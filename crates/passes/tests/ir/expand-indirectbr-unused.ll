; PASSES: expand-indirectbr
; Two blocks whose addresses no indirectbr uses keep different addresses (-1 and -2, in
; block order; PNaCl made both -1), so that comparing them gives what it gave before. Run
; before and after with lli-14. (main comes first: once its names are stripped, a block
; address can name a numbered block only before the function is defined.)
; CHECK: icmp eq i8* %p, inttoptr (i32 -2 to i8*)
; CHECK: ret i8* inttoptr (i32 -1 to i8*)
; CHECK: ret i8* inttoptr (i32 -2 to i8*)
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

define i32 @main() {
  %p = call i8* @label_address(i1 false)
  %q = call i8* @label_address(i1 true)
  %same = icmp eq i8* %p, %q
  %p.is.two = icmp eq i8* %p, blockaddress(@label_address, %two)
  %a = zext i1 %same to i32
  %b = zext i1 %p.is.two to i32
  %b2 = shl i32 %b, 1
  %r = or i32 %a, %b2
  %r4 = add i32 %r, 4
  ret i32 %r4
}

define internal i8* @label_address(i1 %second) {
entry:
  br i1 %second, label %two, label %one
one:
  ret i8* blockaddress(@label_address, %one)
two:
  ret i8* blockaddress(@label_address, %two)
}
