; out[tid] = num[tid] / den[tid] with LLVM's f32 division sequence in a kernel that flushes f32
; subnormals (llc-22 -mcpu=gfx942, "denormal-fp-math-f32"="preserve-sign"): the FMA steps
; run with subnormals kept, bracketed by s_setreg_imm32_b32 of the MODE register's f32 field.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl fdiv_flush
	.p2align 8
	.type fdiv_flush,@function
fdiv_flush:
	s_load_dwordx4 s[4:7], s[0:1], 0x0      ; num, den
	s_load_dwordx2 s[8:9], s[0:1], 0x10     ; out
	s_lshl_b32 s2, s2, 6                    ; workgroup base: 64 * wg.x
	v_and_b32_e32 v0, 0x3ff, v0
	v_add_u32_e32 v0, s2, v0
	v_lshlrev_b32_e32 v7, 2, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v0, v7, s[4:5]        ; num
	global_load_dword v1, v7, s[6:7]        ; den
	s_waitcnt vmcnt(0)
	v_div_scale_f32 v2, s[0:1], v1, v1, v0
	v_div_scale_f32 v3, vcc, v0, v1, v0
	v_rcp_f32_e32 v4, v2
	s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
	v_fma_f32 v5, -v2, v4, 1.0
	v_fma_f32 v4, v5, v4, v4
	v_mul_f32_e32 v5, v3, v4
	v_fma_f32 v6, -v2, v5, v3
	v_fma_f32 v5, v6, v4, v5
	v_fma_f32 v2, -v2, v5, v3
	s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 0
	v_div_fmas_f32 v2, v2, v4, v5
	v_div_fixup_f32 v0, v2, v1, v0
	global_store_dword v7, v0, s[8:9]
	s_endpgm
.Lfunc_end3:
	.size fdiv_flush, .Lfunc_end3-fdiv_flush
	.rodata
	.p2align 6
	.amdhsa_kernel fdiv_flush
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 24
		.amdhsa_float_denorm_mode_32 0
		.amdhsa_next_free_vgpr 8
		.amdhsa_next_free_sgpr 10
		.amdhsa_accum_offset 8
	.end_amdhsa_kernel
