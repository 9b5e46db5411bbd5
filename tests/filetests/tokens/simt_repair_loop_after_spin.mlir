// simt-repair on a spin loop whose release is inside another loop after its exit, a loop with a
// heart: the switch block goes past that loop, which then nests in the repaired loop (its heart
// takes the spin loop's token). A switch inside it would be its second entry (the spin loop's
// back edge enters the switch): an irreducible cycle whose heart no longer dominates it, which
// the token rules reject.
// RUN: %kc %s --emit=cf-ir --no-locs 2>&1 | FileCheck %s
// CHECK: note: repaired
// CHECK-NOT: error
// CHECK: ^spin:
// CHECK-NEXT: %h = conv.loop %e : !conv.token
// CHECK: cf.cond_br %q, ^simt.switch(%c1 : i32), ^after
// CHECK-NEXT: ^after:
// CHECK-NEXT: %h2 = conv.loop %h : !conv.token
// CHECK: kernel.atomic add
// CHECK-NEXT: cf.cond_br %d, ^after, ^simt.switch(%c0 : i32)
// CHECK-NEXT: ^simt.switch(%simt.sel: i32):
// CHECK-NEXT: %[[S:[0-9]+]] = arith.cmpi eq, %simt.sel, %c0 : i32
// CHECK-NEXT: cf.cond_br %[[S]], ^exit, ^spin
// The backend takes the repaired kernel, and the assembler its listing.
// RUN: %kc %s -S -o - 2>/dev/null | %llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=gfx942 -filetype=obj -o /dev/null
kernel.func @spin_then_loop {
^entry(%d: i1, %buf: !kernel.ptr<global, i32>):
  %e = conv.entry : !conv.token
  %tid = kernel.workitem_id x : i32
  cf.br ^spin
^spin:
  %h = conv.loop %e : !conv.token
  %v = kernel.load %buf, %tid : !kernel.ptr<global, i32>, i32
  %z = arith.constant 0 : i32
  %q = arith.cmpi ne, %v, %z : i32
  cf.cond_br %q, ^spin, ^after
^after:
  %h2 = conv.loop %e : !conv.token
  %p = kernel.ptr_offset %buf, %v : !kernel.ptr<global, i32>, i32
  %one = arith.constant 1 : i32
  %old = kernel.atomic add, %p, %one {ordering = "seq_cst", scope = "agent"} : !kernel.ptr<global, i32>
  cf.cond_br %d, ^after, ^exit
^exit:
  kernel.return
}
