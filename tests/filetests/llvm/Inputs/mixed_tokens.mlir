kernel.func @mixed {
^entry(%out: !kernel.ptr<global, i64>, %c: i1):
  %a = conv.anchor : !conv.token
  %x = kernel.ballot %c, %a : i64
  %y = kernel.ballot %c : i64
  %zero = arith.constant 0 : i32
  kernel.store %y, %out, %zero : !kernel.ptr<global, i64>, i32
  kernel.return
}
