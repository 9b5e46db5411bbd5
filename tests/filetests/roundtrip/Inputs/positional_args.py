#!/usr/bin/env python3
"""For kernels that went through mlir-opt, which renames a kernel's parameters %arg0, %arg1, ...

  positional_args.py args KC.mlir ARGS.json   ARGS.json with each parameter named as mlir-opt
                                              names it (the order is the entry block's in
                                              KC.mlir, kc's own print of the kernel)
  positional_args.py same A.json B.json       exit 0 when two `kc run` outputs hold the same
                                              buffers in the same order, whatever their names
"""
import json, re, sys

def args(ir_path, args_path):
    m = re.search(r"\^entry\((.*)\):", open(ir_path).read())
    names = re.findall(r"%([\w.$-]+):", m.group(1)) if m else []
    rename = {n: f"arg{i}" for i, n in enumerate(names)}
    a = json.load(open(args_path))
    print(json.dumps({rename.get(k, k): v for k, v in a.items()}))

def same(a_path, b_path):
    a, b = json.load(open(a_path)), json.load(open(b_path))
    sys.exit(0 if list(a["buffers"].values()) == list(b["buffers"].values()) else 1)

{"args": args, "same": same}[sys.argv[1]](*sys.argv[2:])
