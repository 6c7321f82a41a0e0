; PASSES: expand-indirectbr
; ERROR: function @computed_goto
; ERROR: indirectbr
; ERROR: computed goto
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

define i32 @computed_goto(i8* %target) {
entry:
  indirectbr i8* %target, [label %a, label %b]
a:
  ret i32 1
b:
  ret i32 2
}
