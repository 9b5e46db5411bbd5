; f32 subnormals under the MODE register: out[k * 64 + tid] for in[tid] = a, the descriptor's
; f32 denormal mode as the test sets it (absent here: llvm-mc assembles 0, flush):
; k = 0: a + a; 1: a * 0.5; 2: a + a after s_setreg_imm32_b32 keeps subnormals; 3: the two
; denormal fields read back with s_getreg_b32; 4: a + a after s_setreg_b32 flushes again;
; 5: (a == 0) under the descriptor's mode, restored by s_setreg_b32.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl denorm
	.p2align 8
	.type denorm,@function
denorm:
	s_load_dwordx4 s[4:7], s[0:1], 0x0      ; in, out
	s_getreg_b32 s10, hwreg(HW_REG_MODE, 4, 2)  ; the descriptor's f32 mode
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 2, v0             ; 4 * tid
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[4:5]        ; a
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v3, v2, v2
	global_store_dword v1, v3, s[6:7]
	v_mul_f32_e32 v3, 0.5, v2
	global_store_dword v1, v3, s[6:7] offset:256
	s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
	v_add_f32_e32 v3, v2, v2
	global_store_dword v1, v3, s[6:7] offset:512
	s_getreg_b32 s8, hwreg(HW_REG_MODE, 4, 4)
	v_mov_b32_e32 v3, s8
	global_store_dword v1, v3, s[6:7] offset:768
	s_mov_b32 s9, 0
	s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s9
	v_add_f32_e32 v3, v2, v2
	global_store_dword v1, v3, s[6:7] offset:1024
	s_setreg_b32 hwreg(HW_REG_MODE, 4, 2), s10
	v_cmp_eq_f32_e64 s[2:3], 0, v2
	v_cndmask_b32_e64 v3, 0, 1, s[2:3]
	global_store_dword v1, v3, s[6:7] offset:1280
	s_endpgm
.Lfunc_end0:
	.size denorm, .Lfunc_end0-denorm
	.rodata
	.p2align 6
	.amdhsa_kernel denorm
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 16
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 11
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
