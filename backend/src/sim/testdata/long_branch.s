; A long branch (what `branch_relax` emits for a target beyond ±128 KiB): s_getpc_b64, the
; label difference added in two halves, s_setpc_b64; forward over a store, then backward
; into a loop that runs once more. out[tid] = 7 + 10 * 2: the skipped v_mov_b32 never runs
; and the loop body twice.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl long_branch
	.p2align 8
	.type long_branch,@function
long_branch:
	s_load_dwordx2 s[0:1], s[0:1], 0x0
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v2, 2, v0
	v_mov_b32_e32 v1, 7
	s_mov_b32 s6, 2
	s_cmp_ge_u32 s6, s6                     ; SCC = 1
	s_cbranch_scc0 .LBB0_1                  ; the inverse of the relaxed s_cbranch_scc1
	s_getpc_b64 s[4:5]
.LBB0_0:
	s_add_u32 s4, s4, (.LBB0_2-.LBB0_0)&4294967295
	s_addc_u32 s5, s5, (.LBB0_2-.LBB0_0)>>32
	s_setpc_b64 s[4:5]
.LBB0_1:
	v_mov_b32_e32 v1, 1                     ; skipped
.LBB0_2: ; loop
	v_add_u32_e32 v1, 10, v1
	s_sub_u32 s6, s6, 1
	s_cmp_ge_u32 s6, 1                      ; SCC = another round
	s_cbranch_scc0 .LBB0_4
	s_getpc_b64 s[4:5]
.LBB0_3:
	s_add_u32 s4, s4, (.LBB0_2-.LBB0_3)&4294967295
	s_addc_u32 s5, s5, (.LBB0_2-.LBB0_3)>>32
	s_setpc_b64 s[4:5]
.LBB0_4:
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v1, s[0:1]
	s_endpgm
.Lfunc_end0:
	.size long_branch, .Lfunc_end0-long_branch
	.rodata
	.p2align 6
	.amdhsa_kernel long_branch
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 3
		.amdhsa_next_free_sgpr 7
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
