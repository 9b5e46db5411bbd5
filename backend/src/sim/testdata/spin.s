; A SIMT deadlock: lane 0 waits in a loop for a flag that lane 1 would set after the loop.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl spin
	.p2align 8
	.type spin,@function
spin:
	s_load_dwordx2 s[2:3], s[0:1], 0x0      ; flag
	v_and_b32_e32 v0, 0x3ff, v0
	v_mov_b32_e32 v1, 0
	s_mov_b64 s[4:5], 0
	s_waitcnt lgkmcnt(0)
.LBB4_1: ; outer
	s_add_i32 s6, s6, 1
.LBB4_2: ; spin: until flag != 0
	global_load_dword v2, v1, s[2:3] sc0 sc1
	s_waitcnt vmcnt(0)
	v_cmp_ne_u32_e64 s[6:7], 0, v2
	s_or_b64 s[4:5], s[6:7], s[4:5]
	s_andn2_b64 exec, exec, s[4:5]
	s_cbranch_execnz .LBB4_2
	s_or_b64 exec, exec, s[4:5]
	v_mov_b32_e32 v3, 1
	global_store_dword v1, v3, s[2:3]       ; flag = 1 (never reached)
	s_branch .LBB4_1
.Lfunc_end4:
	.size spin, .Lfunc_end4-spin
	.rodata
	.p2align 6
	.amdhsa_kernel spin
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
