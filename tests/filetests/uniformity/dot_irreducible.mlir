kernel.func @nested {
^entry(%out: !kernel.ptr<global, i32>, %n: i32):
  %e = conv.entry : !conv.token
  %tid = kernel.workitem_id x : i32
  %zero = arith.constant 0 : i32
  cf.br ^outer(%zero : i32)
^outer(%k: i32):
  %c = arith.cmpi slt, %tid, %n : i32
  cf.cond_br %c, ^a, ^b
^a:
  %d = arith.cmpi slt, %k, %n : i32
  cf.cond_br %d, ^b, ^latch
^b:
  cf.br ^a
^latch:
  %one = arith.constant 1 : i32
  %k1 = arith.addi %k, %one : i32
  %more = arith.cmpi slt, %k1, %n : i32
  cf.cond_br %more, ^outer(%k1 : i32), ^exit
^exit:
  kernel.return
}
// --emit=dot on an irreducible cycle (^a, ^b both entries) nested in a reducible loop: nested
// clusters, the inner one bold purple, labelled irreducible and assumed divergent and filled;
// back edges (to each cycle's header) dashed; the join of the divergent branch double-bordered.
// RUN: %kc %s --emit=dot | FileCheck %s

// CHECK:      digraph "@nested" {
// CHECK:        "entry" [label=<{{.*}}>];
// CHECK-NEXT:   "exit" [label=<{{.*}}>];
// CHECK-NEXT:   subgraph "cluster_cycle0" {
// CHECK-NEXT:     label="cycle 0: depth=1: entries(^outer) ^a ^b ^latch";
// CHECK-NEXT:     labeljust=l;
// CHECK-NEXT:     style="rounded,dashed";
// CHECK-NEXT:     color="gray40";
// CHECK-NEXT:     "outer" [label=<{{.*}}// divergent branch{{.*}}>, color=red, penwidth=2, tooltip="ends in a divergent branch"];
// CHECK-NEXT:     "latch" [label=<{{.*}}>, peripheries=2, style=filled, fillcolor="#ffe4c4", tooltip="divergent exit of the branch in ^a"];
// CHECK-NEXT:     subgraph "cluster_cycle1" {
// CHECK-NEXT:       label="cycle 1: depth=2: entries(^a ^b)\nirreducible\nassumed divergent\ndivergent exit";
// CHECK-NEXT:       labeljust=l;
// CHECK-NEXT:       style="rounded,bold,filled";
// CHECK-NEXT:       color="purple";
// CHECK-NEXT:       fillcolor="#fde2e2";
// CHECK-NEXT:       "a" [label=<{{.*}}join of the divergent branch in ^outer{{.*}}>, color=red, penwidth=2, peripheries=2, style=filled, fillcolor="#dde8ff", tooltip="join of the divergent branch in ^outer; ends in a divergent branch"];
// CHECK-NEXT:       "b" [label=<{{.*}}>];
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   "entry" -> "outer";
// CHECK-NEXT:   "outer" -> "a" [label="T divergent", color=red, fontcolor=red, penwidth=2, style=bold];
// CHECK-NEXT:   "outer" -> "b" [label="F divergent", color=red, fontcolor=red, penwidth=2, style=bold];
// CHECK-NEXT:   "a" -> "b" [label="T divergent", color=red, fontcolor=red, penwidth=2, style=bold];
// CHECK-NEXT:   "a" -> "latch" [label="F divergent", color=red, fontcolor=red, penwidth=2, style=bold];
// CHECK-NEXT:   "b" -> "a" [style=dashed];
// CHECK-NEXT:   "latch" -> "outer" [label="T", style=dashed];
// CHECK-NEXT:   "latch" -> "exit" [label="F"];
// CHECK-NEXT: }
// CHECK-NOT: {{.}}
