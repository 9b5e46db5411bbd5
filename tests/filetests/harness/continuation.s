; Harness self-test: a RUN line ending in `\` continues on the next RUN line,
; and `#`/`;` comment markers work as well as `//`.
; RUN: echo one \
; RUN:      two \
; RUN:      three | FileCheck %s
# RUN: echo 'a|b' | \
# RUN:   FileCheck %s --check-prefix=PIPE
; CHECK: one two three
; PIPE: a|b
