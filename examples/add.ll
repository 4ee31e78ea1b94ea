; A tiny module for the README's first command.
source_filename = "add.ll"

define i32 @add(i32 %a, i32 %b) {
  %sum = add i32 %a, %b
  ret i32 %sum
}
