/* camellia-x86_64-setkey.S — Camellia (RFC 3713) key schedule, scalar x86-64.
 *
 *   void camellia_setkey_x86_64(uint64_t *sk, unsigned int *rounds, const uint8_t *key,
 *                               size_t keylen, int decrypt);
 *
 * Computes what reference/camellia.c camellia_set_encrypt_key (decrypt == 0) or
 * camellia_set_decrypt_key (decrypt != 0) computes: the subkeys in order of use, as native
 * uint64_t words holding the RFC's values, layout in kernels/camellia/camellia.h; *rounds = 18
 * (16-byte keys) or 24 (24- and 32-byte keys).  Any other keylen: *rounds = 0, sk untouched.
 * Speed is of no interest (a key schedule per key); this exists so that the key schedule has a
 * kernel of its own to be judged against the reference, and mutated.
 *
 * Algorithm (RFC 3713 section 2.2):
 *   KL = key[0..15]; KR = 0 (128), key[16..23] || ~key[16..23] (192), key[16..31] (256)
 *   D1 || D2 = KL ^ KR; D2 ^= F(D1, S1); D1 ^= F(D2, S2); D1 || D2 ^= KL;
 *   D2 ^= F(D1, S3); D1 ^= F(D2, S4); KA = D1 || D2
 *   (192, 256) D1 || D2 = KA ^ KR; D2 ^= F(D1, S5); D1 ^= F(D2, S6); KB = D1 || D2
 *   subkey i = one 64-bit half of (KL, KR, KA or KB) <<< r, by the table .Lsched_128/_256
 * F in 64-bit registers: eight S-box look-ups in a copy of the RFC's SBOX1 (SBOX2..4 by
 * rotating its input or output), then P as four 32-bit rotate-and-XOR steps (see
 * camellia_setkey_f).
 *
 * Calling convention: System V AMD64.  rdi sk, rsi rounds, rdx key, rcx keylen, r8d decrypt.
 *   Clobbers rax, rcx, rdx, r8-r11, flags; no vector register.  Key-derived values are
 *   cleared from the general registers used and from the stack frame before return.
 *   Frame (80 bytes): 0 KL, 16 KR, 32 KA, 48 KB (each high qword first), 64 keylen,
 *   72 decrypt.
 *
 * Register map: r10, r11 = D1, D2 of the Feistel steps (then one rotated source's high and
 *   low qword); rax the F argument and result; r9 the F key (Sigma), then the subkey table;
 *   rcx the rotation count; edx the subkey index i; r8d the number of subkeys; rdi sk.
 */

        .section .rodata
/* RFC 3713 section 2.4.4, SBOX1. */
        .type camellia_setkey_sbox1, @object
camellia_setkey_sbox1:
        .byte 0x70, 0x82, 0x2c, 0xec, 0xb3, 0x27, 0xc0, 0xe5, 0xe4, 0x85, 0x57, 0x35, 0xea, 0x0c, 0xae, 0x41
        .byte 0x23, 0xef, 0x6b, 0x93, 0x45, 0x19, 0xa5, 0x21, 0xed, 0x0e, 0x4f, 0x4e, 0x1d, 0x65, 0x92, 0xbd
        .byte 0x86, 0xb8, 0xaf, 0x8f, 0x7c, 0xeb, 0x1f, 0xce, 0x3e, 0x30, 0xdc, 0x5f, 0x5e, 0xc5, 0x0b, 0x1a
        .byte 0xa6, 0xe1, 0x39, 0xca, 0xd5, 0x47, 0x5d, 0x3d, 0xd9, 0x01, 0x5a, 0xd6, 0x51, 0x56, 0x6c, 0x4d
        .byte 0x8b, 0x0d, 0x9a, 0x66, 0xfb, 0xcc, 0xb0, 0x2d, 0x74, 0x12, 0x2b, 0x20, 0xf0, 0xb1, 0x84, 0x99
        .byte 0xdf, 0x4c, 0xcb, 0xc2, 0x34, 0x7e, 0x76, 0x05, 0x6d, 0xb7, 0xa9, 0x31, 0xd1, 0x17, 0x04, 0xd7
        .byte 0x14, 0x58, 0x3a, 0x61, 0xde, 0x1b, 0x11, 0x1c, 0x32, 0x0f, 0x9c, 0x16, 0x53, 0x18, 0xf2, 0x22
        .byte 0xfe, 0x44, 0xcf, 0xb2, 0xc3, 0xb5, 0x7a, 0x91, 0x24, 0x08, 0xe8, 0xa8, 0x60, 0xfc, 0x69, 0x50
        .byte 0xaa, 0xd0, 0xa0, 0x7d, 0xa1, 0x89, 0x62, 0x97, 0x54, 0x5b, 0x1e, 0x95, 0xe0, 0xff, 0x64, 0xd2
        .byte 0x10, 0xc4, 0x00, 0x48, 0xa3, 0xf7, 0x75, 0xdb, 0x8a, 0x03, 0xe6, 0xda, 0x09, 0x3f, 0xdd, 0x94
        .byte 0x87, 0x5c, 0x83, 0x02, 0xcd, 0x4a, 0x90, 0x33, 0x73, 0x67, 0xf6, 0xf3, 0x9d, 0x7f, 0xbf, 0xe2
        .byte 0x52, 0x9b, 0xd8, 0x26, 0xc8, 0x37, 0xc6, 0x3b, 0x81, 0x96, 0x6f, 0x4b, 0x13, 0xbe, 0x63, 0x2e
        .byte 0xe9, 0x79, 0xa7, 0x8c, 0x9f, 0x6e, 0xbc, 0x8e, 0x29, 0xf5, 0xf9, 0xb6, 0x2f, 0xfd, 0xb4, 0x59
        .byte 0x78, 0x98, 0x06, 0x6a, 0xe7, 0x46, 0x71, 0xba, 0xd4, 0x25, 0xab, 0x42, 0x88, 0xa2, 0x8d, 0xfa
        .byte 0x72, 0x07, 0xb9, 0x55, 0xf8, 0xee, 0xac, 0x0a, 0x36, 0x49, 0x2a, 0x68, 0x3c, 0x38, 0xf1, 0xa4
        .byte 0x40, 0x28, 0xd3, 0x7b, 0xbb, 0xc9, 0x43, 0xc1, 0x15, 0xe3, 0xad, 0xf4, 0x77, 0xc7, 0x80, 0x9e
        .size camellia_setkey_sbox1, . - camellia_setkey_sbox1

/* Section 2.2's subkey table, in order of use: per subkey the frame offset of its source
 * (0 KL, 16 KR, 32 KA, 48 KB), the rotation, and 0 for the high or 1 for the low half. */
        .type camellia_setkey_sched_128, @object
camellia_setkey_sched_128:
.Lsched_128:
        .byte  0,   0, 0,   0,   0, 1                        /* kw1 kw2 */
        .byte 32,   0, 0,  32,   0, 1,   0,  15, 0,   0,  15, 1,  32,  15, 0,  32,  15, 1   /* k1-k6 */
        .byte 32,  30, 0,  32,  30, 1                        /* ke1 ke2 */
        .byte  0,  45, 0,   0,  45, 1,  32,  45, 0,   0,  60, 1,  32,  60, 0,  32,  60, 1   /* k7-k12 */
        .byte  0,  77, 0,   0,  77, 1                        /* ke3 ke4 */
        .byte  0,  94, 0,   0,  94, 1,  32,  94, 0,  32,  94, 1,   0, 111, 0,   0, 111, 1   /* k13-k18 */
        .byte 32, 111, 0,  32, 111, 1                        /* kw3 kw4 */
        .size camellia_setkey_sched_128, . - camellia_setkey_sched_128
        .type camellia_setkey_sched_256, @object
camellia_setkey_sched_256:
.Lsched_256:
        .byte  0,   0, 0,   0,   0, 1                        /* kw1 kw2 */
        .byte 48,   0, 0,  48,   0, 1,  16,  15, 0,  16,  15, 1,  32,  15, 0,  32,  15, 1   /* k1-k6 */
        .byte 16,  30, 0,  16,  30, 1                        /* ke1 ke2 */
        .byte 48,  30, 0,  48,  30, 1,   0,  45, 0,   0,  45, 1,  32,  45, 0,  32,  45, 1   /* k7-k12 */
        .byte  0,  60, 0,   0,  60, 1                        /* ke3 ke4 */
        .byte 16,  60, 0,  16,  60, 1,  48,  60, 0,  48,  60, 1,   0,  77, 0,   0,  77, 1   /* k13-k18 */
        .byte 32,  77, 0,  32,  77, 1                        /* ke5 ke6 */
        .byte 16,  94, 0,  16,  94, 1,  32,  94, 0,  32,  94, 1,   0, 111, 0,   0, 111, 1   /* k19-k24 */
        .byte 48, 111, 0,  48, 111, 1                        /* kw3 kw4 */
        .size camellia_setkey_sched_256, . - camellia_setkey_sched_256

        .text

/* SBYTE shift, n:  rdx |= SBOXn(byte of rax at bit `shift`) << shift.  r8 = SBOX1; uses rcx. */
.macro SBYTE shift, n
        mov %rax, %rcx
        shr $\shift, %rcx
        movzbl %cl, %ecx
.if \n == 4
        rol $1, %cl                     /* SBOX4(x) = SBOX1(x <<< 1) */
.endif
        movzbl (%r8,%rcx), %ecx
.if \n == 2
        rol $1, %cl                     /* SBOX2(x) = SBOX1(x) <<< 1 */
.elseif \n == 3
        ror $1, %cl                     /* SBOX3(x) = SBOX1(x) <<< 7 */
.endif
        shl $\shift, %rcx
        or %rcx, %rdx
.endm

/* camellia_setkey_f:  rax = F(rax, r9) (section 2.4.1).  Clobbers rcx, rdx, r8, r9.
 * P on t = t1..t8 (t1 most significant), as 32-bit words L = t1..t4, R = t5..t8:
 *   L ^= R <<< 8;  R ^= L <<< 16;  L ^= R >>> 8;  R ^= L >>> 8;  then z = R || L
 * (the byte equations of P, four bytes at a time: e.g. the first step is t1^=t6, t2^=t7,
 * t3^=t8, t4^=t5). */
        .type camellia_setkey_f, @function
camellia_setkey_f:
        xor %r9, %rax
        lea camellia_setkey_sbox1(%rip), %r8
        xor %edx, %edx
        SBYTE 56, 1
        SBYTE 48, 2
        SBYTE 40, 3
        SBYTE 32, 4
        SBYTE 24, 2
        SBYTE 16, 3
        SBYTE 8, 4
        SBYTE 0, 1
        mov %rdx, %rcx
        shr $32, %rcx                   /* ecx = L, edx = R */
        mov %edx, %eax
        rol $8, %eax
        xor %eax, %ecx
        mov %ecx, %eax
        rol $16, %eax
        xor %eax, %edx
        mov %edx, %eax
        ror $8, %eax
        xor %eax, %ecx
        mov %ecx, %eax
        ror $8, %eax
        xor %eax, %edx
        mov %edx, %eax
        shl $32, %rax
        or %rcx, %rax
        ret
        .size camellia_setkey_f, .-camellia_setkey_f

/* FEISTEL2 sa, sb:  r11 ^= F(r10, sa); r10 ^= F(r11, sb).  Clobbers rax, rcx, rdx, r8, r9. */
.macro FEISTEL2 sa, sb
        mov %r10, %rax
        movabs $\sa, %r9
        call camellia_setkey_f
        xor %rax, %r11
        mov %r11, %rax
        movabs $\sb, %r9
        call camellia_setkey_f
        xor %rax, %r10
.endm

        .globl camellia_setkey_x86_64
        .type camellia_setkey_x86_64, @function
        .p2align 5
camellia_setkey_x86_64:
        endbr64
        cmp $16, %rcx
        je 1f
        cmp $24, %rcx
        je 1f
        cmp $32, %rcx
        je 1f
        movl $0, (%rsi)                 /* a key length RFC 3713 does not define: no rounds */
        ret
1:      sub $80, %rsp
        mov %rcx, 64(%rsp)
        movl %r8d, 72(%rsp)             /* an int: its upper 32 bits are the caller's junk */
        mov (%rdx), %rax                /* KL */
        bswap %rax
        mov %rax, 0(%rsp)
        mov 8(%rdx), %rax
        bswap %rax
        mov %rax, 8(%rsp)
        xor %eax, %eax                  /* KR = 0 for 128-bit keys */
        mov %rax, 16(%rsp)
        mov %rax, 24(%rsp)
        cmp $16, %rcx
        je 3f
        mov 16(%rdx), %rax              /* KR high = key[16..23] */
        bswap %rax
        mov %rax, 16(%rsp)
        cmp $24, %rcx
        jne 2f
        not %rax                        /* 192-bit key: KR low = ~key[16..23] */
        mov %rax, 24(%rsp)
        jmp 3f
2:      mov 24(%rdx), %rax              /* 256-bit key: KR low = key[24..31] */
        bswap %rax
        mov %rax, 24(%rsp)
3:      mov 0(%rsp), %r10               /* KA */
        xor 16(%rsp), %r10
        mov 8(%rsp), %r11
        xor 24(%rsp), %r11
        FEISTEL2 0xA09E667F3BCC908B, 0xB67AE8584CAA73B2
        xor 0(%rsp), %r10
        xor 8(%rsp), %r11
        FEISTEL2 0xC6EF372FE94F82BE, 0x54FF53A5F1D36F1C
        mov %r10, 32(%rsp)
        mov %r11, 40(%rsp)
        xor 16(%rsp), %r10              /* KB (only used for 192- and 256-bit keys) */
        xor 24(%rsp), %r11
        FEISTEL2 0x10E527FADE682D1D, 0xB05688C2B3E6C1FD
        mov %r10, 48(%rsp)
        mov %r11, 56(%rsp)

        /* subkeys: r9 the table, edx = i, r8d = n */
        lea .Lsched_128(%rip), %r9
        mov $26, %r8d
        movl $18, (%rsi)
        cmpq $16, 64(%rsp)
        je 4f
        lea .Lsched_256(%rip), %r9
        mov $34, %r8d
        movl $24, (%rsi)
4:      xor %edx, %edx
5:      movzbl (%r9), %eax              /* source */
        mov (%rsp,%rax), %r10
        mov 8(%rsp,%rax), %r11
        movzbl 1(%r9), %ecx             /* rotation */
        cmp $64, %ecx
        jb 6f
        xchg %r10, %r11
        sub $64, %ecx
6:      mov %r10, %rax
        shld %cl, %r11, %r10            /* (hi || lo) <<< cl, cl < 64 (0 leaves both) */
        shld %cl, %rax, %r11
        cmpb $0, 2(%r9)
        cmovne %r11, %r10               /* the low half */
        mov %rdx, %rax                  /* where subkey i goes */
        cmpl $0, 72(%rsp)
        je 7f
        lea -2(%r8), %ecx               /* decryption order: kw pairs swap ends, rest reverses */
        cmp $2, %edx
        jb 8f
        cmp %ecx, %edx
        jae 9f
        lea -1(%r8), %eax
        sub %edx, %eax
        jmp 7f
8:      lea (%rcx,%rdx), %eax
        jmp 7f
9:      mov %edx, %eax
        sub %ecx, %eax
7:      mov %r10, (%rdi,%rax,8)
        add $3, %r9
        inc %edx
        cmp %r8d, %edx
        jb 5b

        xor %eax, %eax                  /* clear the frame and the registers */
        mov %rax, 0(%rsp)
        mov %rax, 8(%rsp)
        mov %rax, 16(%rsp)
        mov %rax, 24(%rsp)
        mov %rax, 32(%rsp)
        mov %rax, 40(%rsp)
        mov %rax, 48(%rsp)
        mov %rax, 56(%rsp)
        mov %rax, 64(%rsp)
        mov %rax, 72(%rsp)
        xor %ecx, %ecx
        xor %edx, %edx
        xor %r9d, %r9d
        xor %r10d, %r10d
        xor %r11d, %r11d
        add $80, %rsp
        ret
        .size camellia_setkey_x86_64, .-camellia_setkey_x86_64

        .section .note.GNU-stack,"",@progbits
