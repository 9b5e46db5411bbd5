; The seed-002 `diamond` kernel lowered with FORK/JOIN (if (tid == 0) out[tid] = 1; else out[tid] = 2;
; out[64 + tid] = 3), with the hardware branch stack, per-lane addresses.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl diamond
	.p2align 8
	.type diamond,@function
diamond:                                ; s[0:1] = kernarg ptr, v0 = packed tid
	s_load_dwordx2 s[8:9], s[0:1], 0x0      ; out (s[0:3] will hold the fork stack entry)
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v2, 2, v0             ; byte offset of out[tid]
	v_cmp_eq_u32_e64 s[6:7], 0, v0          ; then-lanes: tid == 0
	s_getreg_b32 s10, hwreg(HW_REG_MODE, 29, 3) ; CSP before the fork
	s_mov_b64 s[12:13], 0                   ; lanes arrived at the join
	s_cbranch_i_fork s[6:7], .LBB0_1        ; then-lanes pass
	s_branch .LBB0_2                        ; else-lanes fail
.LBB0_1: ; then
	v_mov_b32_e32 v1, 1
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v1, s[8:9]       ; out[tid] = 1
	s_branch .LBB0_3
.LBB0_2: ; else
	v_mov_b32_e32 v1, 2
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v1, s[8:9]       ; out[tid] = 2
.LBB0_3: ; join
	s_or_b64 s[12:13], s[12:13], exec
	s_cbranch_join s10                      ; pop the other side, or go on
	s_mov_b64 exec, s[12:13]
	v_mov_b32_e32 v1, 3
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v1, s[8:9] offset:256 ; out[64 + tid] = 3
	s_endpgm
.Lfunc_end0:
	.size diamond, .Lfunc_end0-diamond
	.rodata
	.p2align 6
	.amdhsa_kernel diamond
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 3
		.amdhsa_next_free_sgpr 14
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
	.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 8
    .max_flat_workgroup_size: 1024
    .name:           diamond
    .private_segment_fixed_size: 0
    .sgpr_count:     6
    .symbol:         diamond.kd
    .vgpr_count:     3
    .wavefront_size: 64
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
