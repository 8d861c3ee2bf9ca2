/* miscoded.S — the positive control of tools/asmdiff/encoding.py: an instruction LLVM up to
 * 19 encodes wrongly (the broadcast operand of vgf2p8affineqb with a disp8: clang writes 0x38
 * unscaled, the CPU scales it by 8 and reads 0x1c0(%rsi)), beside its neighbours that every
 * assembler writes right.  Never run: only disassembled. */
	.text
	.globl	asmdiff_encoding_control
	.type	asmdiff_encoding_control, @function
asmdiff_encoding_control:
	vpternlogq	$0x96, 0x38(%rsi){1to8}, %zmm1, %zmm2
	vgf2p8affineqb	$0, 0x38(%rsi){1to8}, %zmm1, %zmm2
	vgf2p8affineqb	$0, 0x40(%rsi), %zmm1, %zmm2
	ret
	.size	asmdiff_encoding_control, .-asmdiff_encoding_control
	.section .note.GNU-stack, "", @progbits
