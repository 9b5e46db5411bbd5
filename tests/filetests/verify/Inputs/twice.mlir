kernel.func @k {
^entry:
  kernel.return
} loc("twice.mlir":1:1)
kernel.func @k {
^entry:
  kernel.return
} loc("twice.mlir":5:1)
