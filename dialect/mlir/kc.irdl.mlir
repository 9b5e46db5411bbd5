// GENERATED from kc's op registry (dialect/src/registry.rs) by
// dialect/src/registry/mlir_defs.rs. Do not edit; regenerate with
//   cargo run -p kc-dialect --example mlir_defs -- dialect/mlir
//
// The kernel and conv dialects in IRDL: operand, result, attribute and region
// constraints of every op. IRDL cannot declare traits and MLIR 22's dynamic ops
// report none (DynamicOpDefinition::hasTrait is always false), so kernel.return is
// not a terminator here and whole kernels are rejected; KcDialects.td (ODS) is the
// definition that verifies kernels. IRDL's dynamic types print parameters as
// attributes: the address space is quoted, !kernel.ptr<"global", i32>; and as
// IRDL types and ops share one symbol table, the type of the op kernel.var is
// named !kernel.variable<T> here.
builtin.module {
  irdl.dialect @conv {
    irdl.type @token {
    }
    irdl.operation @entry {
      %res_token = irdl.base @conv::@token
      irdl.results(token: %res_token)
    }
    irdl.operation @anchor {
      %res_token = irdl.base @conv::@token
      irdl.results(token: %res_token)
    }
    irdl.operation @loop {
      %parent = irdl.base @conv::@token
      %res_token = irdl.base @conv::@token
      irdl.operands(parent: %parent)
      irdl.results(token: %res_token)
    }
  }
  irdl.dialect @kernel {
    irdl.type @ptr {
      %global = irdl.is "global"
      %shared = irdl.is "shared"
      %space = irdl.any_of(%global, %shared)
      %elem_i1 = irdl.is i1
      %elem_i32 = irdl.is i32
      %elem_i64 = irdl.is i64
      %elem_f32 = irdl.is f32
      %elem = irdl.any_of(%elem_i1, %elem_i32, %elem_i64, %elem_f32)
      irdl.parameters(space: %space, elem: %elem)
    }
    irdl.type @variable {
      %elem_i1 = irdl.is i1
      %elem_i32 = irdl.is i32
      %elem_i64 = irdl.is i64
      %elem_f32 = irdl.is f32
      %elem = irdl.any_of(%elem_i1, %elem_i32, %elem_i64, %elem_f32)
      irdl.parameters(elem: %elem)
    }
    irdl.operation @func {
      %attr_sym_name = irdl.base "#builtin.string"
      irdl.attributes { "sym_name" = %attr_sym_name }
      %region0 = irdl.region
      irdl.regions(body: %region0)
    }
    irdl.operation @return {
    }
    irdl.operation @if {
      %cond = irdl.is i1
      %region0 = irdl.region with size 1
      %region1 = irdl.region with size 1
      irdl.operands(cond: %cond)
      irdl.regions(then: %region0, else: %region1)
    }
    irdl.operation @loop {
      %region0 = irdl.region with size 1
      %region1 = irdl.region with size 1
      irdl.regions(body: %region0, latch: %region1)
    }
    irdl.operation @yield {
    }
    irdl.operation @break {
    }
    irdl.operation @continue {
    }
    irdl.operation @var {
      %init_i1 = irdl.is i1
      %init_i32 = irdl.is i32
      %init_i64 = irdl.is i64
      %init_f32 = irdl.is f32
      %init = irdl.any_of(%init_i1, %init_i32, %init_i64, %init_f32)
      %res_var = irdl.base @kernel::@variable
      irdl.operands(init: %init)
      irdl.results(var: %res_var)
    }
    irdl.operation @get {
      %var = irdl.base @kernel::@variable
      %res_value_i1 = irdl.is i1
      %res_value_i32 = irdl.is i32
      %res_value_i64 = irdl.is i64
      %res_value_f32 = irdl.is f32
      %res_value = irdl.any_of(%res_value_i1, %res_value_i32, %res_value_i64, %res_value_f32)
      irdl.operands(var: %var)
      irdl.results(value: %res_value)
    }
    irdl.operation @set {
      %var = irdl.base @kernel::@variable
      %value_i1 = irdl.is i1
      %value_i32 = irdl.is i32
      %value_i64 = irdl.is i64
      %value_f32 = irdl.is f32
      %value = irdl.any_of(%value_i1, %value_i32, %value_i64, %value_f32)
      irdl.operands(var: %var, value: %value)
    }
    irdl.operation @workitem_id {
      %res_res = irdl.is i32
      %attr_dim_x = irdl.is "x"
      %attr_dim_y = irdl.is "y"
      %attr_dim_z = irdl.is "z"
      %attr_dim = irdl.any_of(%attr_dim_x, %attr_dim_y, %attr_dim_z)
      irdl.attributes { "dim" = %attr_dim }
      irdl.results(res: %res_res)
    }
    irdl.operation @workgroup_id {
      %res_res = irdl.is i32
      %attr_dim_x = irdl.is "x"
      %attr_dim_y = irdl.is "y"
      %attr_dim_z = irdl.is "z"
      %attr_dim = irdl.any_of(%attr_dim_x, %attr_dim_y, %attr_dim_z)
      irdl.attributes { "dim" = %attr_dim }
      irdl.results(res: %res_res)
    }
    irdl.operation @workgroup_size {
      %res_res = irdl.is i32
      %attr_dim_x = irdl.is "x"
      %attr_dim_y = irdl.is "y"
      %attr_dim_z = irdl.is "z"
      %attr_dim = irdl.any_of(%attr_dim_x, %attr_dim_y, %attr_dim_z)
      irdl.attributes { "dim" = %attr_dim }
      irdl.results(res: %res_res)
    }
    irdl.operation @num_workgroups {
      %res_res = irdl.is i32
      %attr_dim_x = irdl.is "x"
      %attr_dim_y = irdl.is "y"
      %attr_dim_z = irdl.is "z"
      %attr_dim = irdl.any_of(%attr_dim_x, %attr_dim_y, %attr_dim_z)
      irdl.attributes { "dim" = %attr_dim }
      irdl.results(res: %res_res)
    }
    irdl.operation @lane_id {
      %res_res = irdl.is i32
      irdl.results(res: %res_res)
    }
    irdl.operation @wave_size {
      %res_res = irdl.is i32
      irdl.results(res: %res_res)
    }
    irdl.operation @shared_alloc {
      %res_ptr_space = irdl.is "shared"
      %res_ptr_elem = irdl.any
      %res_ptr = irdl.parametric @kernel::@ptr<%res_ptr_space, %res_ptr_elem>
      %attr_size = irdl.base "#builtin.integer"
      irdl.attributes { "size" = %attr_size }
      irdl.results(ptr: %res_ptr)
    }
    irdl.operation @ptr_offset {
      %ptr = irdl.base @kernel::@ptr
      %index_i1 = irdl.is i1
      %index_i32 = irdl.is i32
      %index_i64 = irdl.is i64
      %index = irdl.any_of(%index_i1, %index_i32, %index_i64)
      %res_res = irdl.base @kernel::@ptr
      irdl.operands(ptr: %ptr, index: %index)
      irdl.results(res: %res_res)
    }
    irdl.operation @load {
      %ptr = irdl.base @kernel::@ptr
      %index_i1 = irdl.is i1
      %index_i32 = irdl.is i32
      %index_i64 = irdl.is i64
      %index = irdl.any_of(%index_i1, %index_i32, %index_i64)
      %res_value_i1 = irdl.is i1
      %res_value_i32 = irdl.is i32
      %res_value_i64 = irdl.is i64
      %res_value_f32 = irdl.is f32
      %res_value = irdl.any_of(%res_value_i1, %res_value_i32, %res_value_i64, %res_value_f32)
      irdl.operands(ptr: %ptr, index: %index)
      irdl.results(value: %res_value)
    }
    irdl.operation @store {
      %value_i1 = irdl.is i1
      %value_i32 = irdl.is i32
      %value_i64 = irdl.is i64
      %value_f32 = irdl.is f32
      %value = irdl.any_of(%value_i1, %value_i32, %value_i64, %value_f32)
      %ptr = irdl.base @kernel::@ptr
      %index_i1 = irdl.is i1
      %index_i32 = irdl.is i32
      %index_i64 = irdl.is i64
      %index = irdl.any_of(%index_i1, %index_i32, %index_i64)
      irdl.operands(value: %value, ptr: %ptr, index: %index)
    }
    irdl.operation @atomic {
      %ptr = irdl.base @kernel::@ptr
      %value_i1 = irdl.is i1
      %value_i32 = irdl.is i32
      %value_i64 = irdl.is i64
      %value_f32 = irdl.is f32
      %value = irdl.any_of(%value_i1, %value_i32, %value_i64, %value_f32)
      %res_old_i1 = irdl.is i1
      %res_old_i32 = irdl.is i32
      %res_old_i64 = irdl.is i64
      %res_old_f32 = irdl.is f32
      %res_old = irdl.any_of(%res_old_i1, %res_old_i32, %res_old_i64, %res_old_f32)
      %attr_kind_add = irdl.is "add"
      %attr_kind_min = irdl.is "min"
      %attr_kind_max = irdl.is "max"
      %attr_kind_umin = irdl.is "umin"
      %attr_kind_umax = irdl.is "umax"
      %attr_kind_xchg = irdl.is "xchg"
      %attr_kind_fadd = irdl.is "fadd"
      %attr_kind = irdl.any_of(%attr_kind_add, %attr_kind_min, %attr_kind_max, %attr_kind_umin, %attr_kind_umax, %attr_kind_xchg, %attr_kind_fadd)
      %attr_ordering_relaxed = irdl.is "relaxed"
      %attr_ordering_acquire = irdl.is "acquire"
      %attr_ordering_release = irdl.is "release"
      %attr_ordering_acq_rel = irdl.is "acq_rel"
      %attr_ordering_seq_cst = irdl.is "seq_cst"
      %attr_ordering = irdl.any_of(%attr_ordering_relaxed, %attr_ordering_acquire, %attr_ordering_release, %attr_ordering_acq_rel, %attr_ordering_seq_cst)
      %attr_scope_wavefront = irdl.is "wavefront"
      %attr_scope_workgroup = irdl.is "workgroup"
      %attr_scope_agent = irdl.is "agent"
      %attr_scope_system = irdl.is "system"
      %attr_scope = irdl.any_of(%attr_scope_wavefront, %attr_scope_workgroup, %attr_scope_agent, %attr_scope_system)
      irdl.attributes { "kind" = %attr_kind, "ordering" = %attr_ordering, "scope" = %attr_scope }
      irdl.operands(ptr: %ptr, value: %value)
      irdl.results(old: %res_old)
    }
    irdl.operation @atomic_cmpxchg {
      %ptr = irdl.base @kernel::@ptr
      %expected_i1 = irdl.is i1
      %expected_i32 = irdl.is i32
      %expected_i64 = irdl.is i64
      %expected_f32 = irdl.is f32
      %expected = irdl.any_of(%expected_i1, %expected_i32, %expected_i64, %expected_f32)
      %desired_i1 = irdl.is i1
      %desired_i32 = irdl.is i32
      %desired_i64 = irdl.is i64
      %desired_f32 = irdl.is f32
      %desired = irdl.any_of(%desired_i1, %desired_i32, %desired_i64, %desired_f32)
      %res_old_i1 = irdl.is i1
      %res_old_i32 = irdl.is i32
      %res_old_i64 = irdl.is i64
      %res_old_f32 = irdl.is f32
      %res_old = irdl.any_of(%res_old_i1, %res_old_i32, %res_old_i64, %res_old_f32)
      %attr_ordering_relaxed = irdl.is "relaxed"
      %attr_ordering_acquire = irdl.is "acquire"
      %attr_ordering_release = irdl.is "release"
      %attr_ordering_acq_rel = irdl.is "acq_rel"
      %attr_ordering_seq_cst = irdl.is "seq_cst"
      %attr_ordering = irdl.any_of(%attr_ordering_relaxed, %attr_ordering_acquire, %attr_ordering_release, %attr_ordering_acq_rel, %attr_ordering_seq_cst)
      %attr_scope_wavefront = irdl.is "wavefront"
      %attr_scope_workgroup = irdl.is "workgroup"
      %attr_scope_agent = irdl.is "agent"
      %attr_scope_system = irdl.is "system"
      %attr_scope = irdl.any_of(%attr_scope_wavefront, %attr_scope_workgroup, %attr_scope_agent, %attr_scope_system)
      irdl.attributes { "ordering" = %attr_ordering, "scope" = %attr_scope }
      irdl.operands(ptr: %ptr, expected: %expected, desired: %desired)
      irdl.results(old: %res_old)
    }
    irdl.operation @atomic_load {
      %ptr = irdl.base @kernel::@ptr
      %res_value_i1 = irdl.is i1
      %res_value_i32 = irdl.is i32
      %res_value_i64 = irdl.is i64
      %res_value_f32 = irdl.is f32
      %res_value = irdl.any_of(%res_value_i1, %res_value_i32, %res_value_i64, %res_value_f32)
      %attr_ordering_relaxed = irdl.is "relaxed"
      %attr_ordering_acquire = irdl.is "acquire"
      %attr_ordering_release = irdl.is "release"
      %attr_ordering_acq_rel = irdl.is "acq_rel"
      %attr_ordering_seq_cst = irdl.is "seq_cst"
      %attr_ordering = irdl.any_of(%attr_ordering_relaxed, %attr_ordering_acquire, %attr_ordering_release, %attr_ordering_acq_rel, %attr_ordering_seq_cst)
      %attr_scope_wavefront = irdl.is "wavefront"
      %attr_scope_workgroup = irdl.is "workgroup"
      %attr_scope_agent = irdl.is "agent"
      %attr_scope_system = irdl.is "system"
      %attr_scope = irdl.any_of(%attr_scope_wavefront, %attr_scope_workgroup, %attr_scope_agent, %attr_scope_system)
      irdl.attributes { "ordering" = %attr_ordering, "scope" = %attr_scope }
      irdl.operands(ptr: %ptr)
      irdl.results(value: %res_value)
    }
    irdl.operation @atomic_store {
      %value_i1 = irdl.is i1
      %value_i32 = irdl.is i32
      %value_i64 = irdl.is i64
      %value_f32 = irdl.is f32
      %value = irdl.any_of(%value_i1, %value_i32, %value_i64, %value_f32)
      %ptr = irdl.base @kernel::@ptr
      %attr_ordering_relaxed = irdl.is "relaxed"
      %attr_ordering_acquire = irdl.is "acquire"
      %attr_ordering_release = irdl.is "release"
      %attr_ordering_acq_rel = irdl.is "acq_rel"
      %attr_ordering_seq_cst = irdl.is "seq_cst"
      %attr_ordering = irdl.any_of(%attr_ordering_relaxed, %attr_ordering_acquire, %attr_ordering_release, %attr_ordering_acq_rel, %attr_ordering_seq_cst)
      %attr_scope_wavefront = irdl.is "wavefront"
      %attr_scope_workgroup = irdl.is "workgroup"
      %attr_scope_agent = irdl.is "agent"
      %attr_scope_system = irdl.is "system"
      %attr_scope = irdl.any_of(%attr_scope_wavefront, %attr_scope_workgroup, %attr_scope_agent, %attr_scope_system)
      irdl.attributes { "ordering" = %attr_ordering, "scope" = %attr_scope }
      irdl.operands(value: %value, ptr: %ptr)
    }
    irdl.operation @fence {
      %attr_ordering_relaxed = irdl.is "relaxed"
      %attr_ordering_acquire = irdl.is "acquire"
      %attr_ordering_release = irdl.is "release"
      %attr_ordering_acq_rel = irdl.is "acq_rel"
      %attr_ordering_seq_cst = irdl.is "seq_cst"
      %attr_ordering = irdl.any_of(%attr_ordering_relaxed, %attr_ordering_acquire, %attr_ordering_release, %attr_ordering_acq_rel, %attr_ordering_seq_cst)
      %attr_scope_wavefront = irdl.is "wavefront"
      %attr_scope_workgroup = irdl.is "workgroup"
      %attr_scope_agent = irdl.is "agent"
      %attr_scope_system = irdl.is "system"
      %attr_scope = irdl.any_of(%attr_scope_wavefront, %attr_scope_workgroup, %attr_scope_agent, %attr_scope_system)
      irdl.attributes { "ordering" = %attr_ordering, "scope" = %attr_scope }
    }
    irdl.operation @barrier {
      %token = irdl.base @conv::@token
      irdl.operands(token: optional %token)
    }
    irdl.operation @ballot {
      %cond = irdl.is i1
      %token = irdl.base @conv::@token
      %res_mask = irdl.is i64
      irdl.operands(cond: %cond, token: optional %token)
      irdl.results(mask: %res_mask)
    }
    irdl.operation @readfirstlane {
      %value_i32 = irdl.is i32
      %value_i64 = irdl.is i64
      %value_f32 = irdl.is f32
      %value = irdl.any_of(%value_i32, %value_i64, %value_f32)
      %token = irdl.base @conv::@token
      %res_res_i32 = irdl.is i32
      %res_res_i64 = irdl.is i64
      %res_res_f32 = irdl.is f32
      %res_res = irdl.any_of(%res_res_i32, %res_res_i64, %res_res_f32)
      irdl.operands(value: %value, token: optional %token)
      irdl.results(res: %res_res)
    }
    irdl.operation @readlane {
      %value_i32 = irdl.is i32
      %value_i64 = irdl.is i64
      %value_f32 = irdl.is f32
      %value = irdl.any_of(%value_i32, %value_i64, %value_f32)
      %lane = irdl.is i32
      %token = irdl.base @conv::@token
      %res_res_i32 = irdl.is i32
      %res_res_i64 = irdl.is i64
      %res_res_f32 = irdl.is f32
      %res_res = irdl.any_of(%res_res_i32, %res_res_i64, %res_res_f32)
      irdl.operands(value: %value, lane: %lane, token: optional %token)
      irdl.results(res: %res_res)
    }
    irdl.operation @shuffle {
      %value_i32 = irdl.is i32
      %value_i64 = irdl.is i64
      %value_f32 = irdl.is f32
      %value = irdl.any_of(%value_i32, %value_i64, %value_f32)
      %lane = irdl.is i32
      %token = irdl.base @conv::@token
      %res_res_i32 = irdl.is i32
      %res_res_i64 = irdl.is i64
      %res_res_f32 = irdl.is f32
      %res_res = irdl.any_of(%res_res_i32, %res_res_i64, %res_res_f32)
      irdl.operands(value: %value, lane: %lane, token: optional %token)
      irdl.results(res: %res_res)
    }
    irdl.operation @reduce {
      %value_i32 = irdl.is i32
      %value_i64 = irdl.is i64
      %value_f32 = irdl.is f32
      %value = irdl.any_of(%value_i32, %value_i64, %value_f32)
      %token = irdl.base @conv::@token
      %res_res_i32 = irdl.is i32
      %res_res_i64 = irdl.is i64
      %res_res_f32 = irdl.is f32
      %res_res = irdl.any_of(%res_res_i32, %res_res_i64, %res_res_f32)
      %attr_kind_add = irdl.is "add"
      %attr_kind_min = irdl.is "min"
      %attr_kind_max = irdl.is "max"
      %attr_kind_umin = irdl.is "umin"
      %attr_kind_umax = irdl.is "umax"
      %attr_kind_fadd = irdl.is "fadd"
      %attr_kind_fmin = irdl.is "fmin"
      %attr_kind_fmax = irdl.is "fmax"
      %attr_kind = irdl.any_of(%attr_kind_add, %attr_kind_min, %attr_kind_max, %attr_kind_umin, %attr_kind_umax, %attr_kind_fadd, %attr_kind_fmin, %attr_kind_fmax)
      irdl.attributes { "kind" = %attr_kind }
      irdl.operands(value: %value, token: optional %token)
      irdl.results(res: %res_res)
    }
    irdl.operation @scan {
      %value_i32 = irdl.is i32
      %value_i64 = irdl.is i64
      %value_f32 = irdl.is f32
      %value = irdl.any_of(%value_i32, %value_i64, %value_f32)
      %token = irdl.base @conv::@token
      %res_res_i32 = irdl.is i32
      %res_res_i64 = irdl.is i64
      %res_res_f32 = irdl.is f32
      %res_res = irdl.any_of(%res_res_i32, %res_res_i64, %res_res_f32)
      %attr_kind_add = irdl.is "add"
      %attr_kind_min = irdl.is "min"
      %attr_kind_max = irdl.is "max"
      %attr_kind_umin = irdl.is "umin"
      %attr_kind_umax = irdl.is "umax"
      %attr_kind_fadd = irdl.is "fadd"
      %attr_kind_fmin = irdl.is "fmin"
      %attr_kind_fmax = irdl.is "fmax"
      %attr_kind = irdl.any_of(%attr_kind_add, %attr_kind_min, %attr_kind_max, %attr_kind_umin, %attr_kind_umax, %attr_kind_fadd, %attr_kind_fmin, %attr_kind_fmax)
      irdl.attributes { "kind" = %attr_kind }
      irdl.operands(value: %value, token: optional %token)
      irdl.results(res: %res_res)
    }
    irdl.operation @mulhiu {
      %lhs = irdl.is i32
      %rhs = irdl.is i32
      %res_res = irdl.is i32
      irdl.operands(lhs: %lhs, rhs: %rhs)
      irdl.results(res: %res_res)
    }
  }
}
