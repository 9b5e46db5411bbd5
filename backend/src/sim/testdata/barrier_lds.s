; Two or more waves exchange values through LDS across s_barrier:
; lds[tid] = tid * 3; barrier; out[tid] = lds[n - 1 - tid] (n = block size, in kernarg).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl reverse
	.p2align 8
	.type reverse,@function
reverse:
	s_load_dwordx2 s[2:3], s[0:1], 0x0      ; out
	s_load_dword s4, s[0:1], 0x8            ; n
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 2, v0             ; 4 * tid
	v_mul_lo_u32 v2, v0, 3
	ds_write_b32 v1, v2
	s_waitcnt lgkmcnt(0)
	s_barrier
	v_not_b32_e32 v3, v0                    ; -1 - tid
	v_add_u32_e32 v3, s4, v3                ; n - 1 - tid
	v_lshlrev_b32_e32 v3, 2, v3
	ds_read_b32 v4, v3
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v4, s[2:3]
	s_endpgm
.Lfunc_end2:
	.size reverse, .Lfunc_end2-reverse
	.rodata
	.p2align 6
	.amdhsa_kernel reverse
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 12
		.amdhsa_group_segment_fixed_size 4096
		.amdhsa_next_free_vgpr 5
		.amdhsa_next_free_sgpr 5
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
