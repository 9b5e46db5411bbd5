; Private memory per lane: every lane stores its id and 3*id (a pair) and 7*id in its own
; scratch with the three addressing forms clang-22 emits for gfx942 (`off, off offset:N`, an
; SGPR base, a VGPR offset), the odd lanes overwrite the first slot under a partial EXEC,
; then every lane reads everything back: out[k*64 + tid] for k = 0..3.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl scratch
	.p2align 8
	.type scratch,@function
scratch:
	s_load_dwordx2 s[0:1], s[0:1], 0x0
	v_and_b32_e32 v0, 0x3ff, v0
	v_mul_lo_u32 v2, v0, 3
	v_mov_b32_e32 v3, 0
	v_mul_lo_u32 v4, v0, 7
	scratch_store_dword off, v0, off offset:4
	scratch_store_dwordx2 off, v[2:3], off offset:8
	s_movk_i32 s4, 0x1000
	scratch_store_dword off, v4, s4 offset:12
	v_and_b32_e32 v5, 1, v0
	v_cmp_ne_u32_e64 s[6:7], 0, v5
	s_and_saveexec_b64 s[8:9], s[6:7]
	v_mov_b32_e32 v5, 0x64
	v_mov_b32_e32 v6, 4
	scratch_store_dword v6, v5, off
	s_or_b64 exec, exec, s[8:9]
	v_mov_b32_e32 v6, 0x1000
	scratch_load_dword v7, off, off offset:4
	scratch_load_dwordx2 v[8:9], off, off offset:8
	scratch_load_dword v10, v6, off offset:12
	v_lshlrev_b32_e32 v1, 2, v0
	s_waitcnt vmcnt(0) lgkmcnt(0)
	global_store_dword v1, v7, s[0:1]
	global_store_dword v1, v8, s[0:1] offset:256
	global_store_dword v1, v9, s[0:1] offset:512
	global_store_dword v1, v10, s[0:1] offset:768
	s_endpgm
.Lfunc_end0:
	.size scratch, .Lfunc_end0-scratch
	.rodata
	.p2align 6
	.amdhsa_kernel scratch
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 4112
		.amdhsa_enable_private_segment 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 11
		.amdhsa_next_free_sgpr 10
		.amdhsa_accum_offset 12
	.end_amdhsa_kernel
