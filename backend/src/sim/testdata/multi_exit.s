; The seed-002 `multi_exit` kernel (out, cond): lanes with tid > cond[0] or tid > cond[1]
; store out[1] = 0, the others out[0] = 42. The seed listing plus its kernarg loads and
; the s_waitcnt it elides.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.text
	.globl multi_exit
	.p2align 8
	.type multi_exit,@function
multi_exit:
	s_load_dwordx4 s[0:3], s[0:1], 0x0     ; out, cond
	v_and_b32_e32 v0, 0x3ff, v0
	v_mov_b32_e32 v1, 0
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[2:3] sc0 sc1 ; c1
	s_waitcnt vmcnt(0)
	v_cmp_gt_i32_e64 s[4:5], v0, v2        ; entry exit mask (tid > c1)
	v_cmp_le_i32_e32 vcc, v0, v2           ; tid <= c1
	s_and_saveexec_b64 s[6:7], vcc
	s_cbranch_execz .LBB1_4
; %bb.1: path1
	global_load_dword v1, v1, s[2:3] offset:4 ; c2
	s_mov_b64 s[2:3], -1                   ; assume all path1 lanes exit
	s_waitcnt vmcnt(0)
	v_cmp_le_i32_e32 vcc, v0, v1           ; tid <= c2
	s_and_saveexec_b64 s[8:9], vcc
	s_cbranch_execz .LBB1_3
; %bb.2: path2
	v_mov_b32_e32 v1, 42
	v_mov_b32_e32 v3, 0
	global_store_dword v3, v1, s[0:1]      ; out[0] = 42
	s_xor_b64 s[2:3], exec, -1             ; lanes not in path2 exit
.LBB1_3: ; Flow1
	s_or_b64 exec, exec, s[8:9]
	s_andn2_b64 s[4:5], s[4:5], exec
	s_and_b64 s[2:3], s[2:3], exec
	s_or_b64 s[4:5], s[4:5], s[2:3]
.LBB1_4: ; Flow
	s_or_b64 exec, exec, s[6:7]
	s_and_saveexec_b64 s[2:3], s[4:5]
	s_cbranch_execz .LBB1_6
; %bb.5: early_exit
	v_mov_b32_e32 v3, 0
	global_store_dword v3, v3, s[0:1] offset:4 ; out[1] = 0
.LBB1_6:
	s_endpgm
.Lfunc_end1:
	.size multi_exit, .Lfunc_end1-multi_exit
	.rodata
	.p2align 6
	.amdhsa_kernel multi_exit
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 16
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 10
		.amdhsa_accum_offset 4
	.end_amdhsa_kernel
