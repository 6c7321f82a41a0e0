; PASSES: resolve-aliases
; Uses of an alias become uses of what it names; the aliases go.
target datalayout = "e-p:32:32-i64:64"
target triple = "le32-unknown-nacl"

@target = global i32 5
; CHECK-NOT: alias
@var_alias = alias i32, i32* @target
@fn_alias = alias i32 (), i32 ()* @real
@chain = alias i32 (), i32 ()* @fn_alias

; CHECK: @ref = global i32* @target
@ref = global i32* @var_alias

define i32 @real() {
  ret i32 1
}

; CHECK-LABEL: define i32 @user()
define i32 @user() {
; CHECK: load i32, i32* @target
  %v = load i32, i32* @var_alias
; CHECK: call i32 @real()
  %a = call i32 @fn_alias()
; CHECK: call i32 @real()
  %b = call i32 @chain()
  %s = add i32 %a, %b
  %t = add i32 %s, %v
  ret i32 %t
}
