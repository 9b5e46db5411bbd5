; The simulator benchmark kernel: a loop of 8 VALU ops (integer, f32, compare, select)
; and 3 scalar ops per iteration; out[tid] = the integer state after `n` iterations.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl valu_loop
	.p2align 8
	.type valu_loop,@function
valu_loop:
	s_load_dwordx2 s[2:3], s[0:1], 0x0      ; out
	s_load_dword s4, s[0:1], 0x8            ; n (> 0)
	v_and_b32_e32 v0, 0x3ff, v0
	v_mov_b32_e32 v1, 0
	v_cvt_f32_u32_e32 v2, v0
	v_mov_b32_e32 v3, 1.0
	s_waitcnt lgkmcnt(0)
.LBB0_1:
	v_add_u32_e32 v1, v1, v0
	v_xor_b32_e32 v1, 0x55, v1
	v_mul_lo_u32 v4, v1, v0
	v_fma_f32 v3, v2, v3, 0.5
	v_mul_f32_e32 v3, 0.5, v3
	v_lshlrev_b32_e32 v5, 3, v4
	v_cmp_gt_u32_e64 s[6:7], v5, v1
	v_cndmask_b32_e64 v1, v1, v5, s[6:7]
	s_add_i32 s4, s4, -1
	s_cmp_lg_u32 s4, 0
	s_cbranch_scc1 .LBB0_1
	v_lshlrev_b32_e32 v0, 2, v0
	global_store_dword v0, v1, s[2:3]
	s_endpgm
.Lfunc_end0:
	.size valu_loop, .Lfunc_end0-valu_loop
	.rodata
	.p2align 6
	.amdhsa_kernel valu_loop
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 12
		.amdhsa_next_free_vgpr 6
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
