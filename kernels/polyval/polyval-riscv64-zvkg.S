/* polyval-riscv64-zvkg.S — POLYVAL update (RFC 8452 section 3) with the RISC-V vector GHASH
 * instructions of Zvkg, in two forms that differ only in the LMUL of the byte reversal.
 * Interface: kernels/polyval/polyval.h.  The judge: polyval_update() in reference/polyval.c.
 *
 *   void polyval_update_zvkg_lmul1(uint8_t state[16], const uint8_t key_h[16],
 *                                  const uint8_t *blocks, size_t nblocks);
 *   void polyval_update_zvkg_fraclmul(uint8_t state[16], const uint8_t key_h[16],
 *                                     const uint8_t *blocks, size_t nblocks);
 *
 * What it computes: for each 16-byte block X, state = dot(state + X, H), dot(a, b) = a*b*x^-128
 * in GF(2^128) mod x^128 + x^127 + x^126 + x^121 + 1, elements little-endian (POLYVAL order).
 *
 * How: Zvkg's vghsh.vv does one GHASH step, Y = (Y xor X) * H' in GCM's bit-reflected
 * representation (vghsh.vv vd=Y, vs2=H', vs1=X; EGW=128, EGS=4 at SEW=32).  RFC 8452
 * Appendix A relates the two hashes:
 *     POLYVAL(H, X1..Xn) = rev(GHASH(mulX_GHASH(rev(H)), rev(X1), ..., rev(Xn)))
 * with rev() reversing the 16 bytes.  The relation holds step by step, so the running state
 * crosses over the same way: load rev(state), do one vghsh per rev(X), store rev(result).
 * mulX_GHASH(rev(H)) is rev(H) times the field element x, which in GCM's order is the byte
 * string 40 00 .. 00; vgmul.vv computes that product.  Reversal is vrgather.vv with the index
 * vector 15, 14, .., 0 on 16 bytes at SEW=8.
 *
 * The two forms:
 *   _lmul1     reverses at e8, m1.  On real cores vrgather.vv tends to cost time in proportion
 *              to the register group (LMUL * VLEN bits), even with vl = 16: slow for VLEN > 128.
 *   _fraclmul  reverses at e8 with the fractional LMUL that makes LMUL * VLEN = 128 bits for the
 *              VLEN read from vlenb at run time: mf8 (vlenb >= 128), mf4 (>= 64), mf2 (>= 32),
 *              else m1.  One step smaller and VLMAX drops below 16 bytes: vl = 8, half a block.
 *              vsetvli takes vtype as an immediate, so the choice is made once into a register
 *              (t1) and applied with vsetvl; _lmul1 goes through the same code with e8, m1.
 * vghsh/vgmul run at e32, m1, vl = 4 (one element group) in both forms: at e32 a fractional
 * LMUL below SEW/ELEN = 1/2 need not exist, and one group per instruction is what the running
 * state needs anyway (each group's step depends on the previous block's result).
 *
 * Calling convention: RISC-V LP64 (psABI).  Arguments a0 = state (in/out), a1 = key_h,
 * a2 = blocks, a3 = nblocks.  Clobbers t0-t3, a2, a3, vl, vtype and v0-v7; v0-v7 are zeroed
 * (every byte, whole registers) before return so no key- or data-derived value stays behind.
 * Preserves s0-s11, fs0-fs11, sp, gp, tp; touches no stack; does not read vxrm or vxsat.
 * Requires V and Zvkg (the caller checks: cpu.h CPU_RV_V | CPU_RV_ZVKG).
 *
 * Register map:
 *   a0 state pointer     a1 key pointer      a2 next block      a3 blocks left
 *   t0 vlenb (fraclmul)  t1 vtype for the SEW=8 steps           t2 16 (AVL in bytes)
 *   t3 scratch
 *   v1 byte index 15..0 (e8)          v2 H' = mulX_GHASH(rev(H))   v3 Y = rev(state)
 *   v4 block as loaded          v5 rev(block); rev(H) while H' is made
 */

        .option arch, +v, +zvkg

/* vtype values for vsetvl: vlmul in bits 2:0, vsew in 5:3 (e8 = 0), vta (6), vma (7).
 * Tail and mask agnostic: nothing here reads past vl or uses masks. */
        .equ    VTYPE_E8_M1,  0xc0
        .equ    VTYPE_E8_MF2, 0xc7
        .equ    VTYPE_E8_MF4, 0xc6
        .equ    VTYPE_E8_MF8, 0xc5

/* polyval_update_body: the whole kernel after the vtype choice.
 * In: a0-a3 as above, t1 = vtype for the SEW=8 steps.  Out: state stored at a0.
 * Temporaries: t0, t2, t3, v1-v5.  Ends by zeroing v0-v7. */
.macro polyval_update_body
        li      t2, 16
        vsetvl  zero, t2, t1                    /* 16 bytes at the chosen LMUL */
        vid.v   v1
        vrsub.vi v1, v1, 15                     /* index i -> 15 - i: reverses 16 bytes */
        vle8.v  v4, (a1)
        vrgather.vv v5, v4, v1                  /* rev(H) */
        vle8.v  v4, (a0)
        vrgather.vv v3, v4, v1                  /* Y = rev(state) */

        /* H' = x * rev(H).  Tail undisturbed while x is built, so the elements vmv.s.x does
         * not write keep the zeros of vmv.v.i. */
        vsetivli zero, 4, e32, m1, tu, ma
        vmv.v.i v2, 0
        li      t3, 0x40                        /* x^1 in GCM order: byte 0, bit 6 */
        vmv.s.x v2, t3
        vgmul.vv v2, v5                         /* H' = x * rev(H) */

        beqz    a3, .Lstore\@
.Lblock\@:
        vsetvl  zero, t2, t1
        vle8.v  v4, (a2)
        vrgather.vv v5, v4, v1                  /* rev(X) */
        vsetivli zero, 4, e32, m1, ta, ma
        vghsh.vv v3, v2, v5                     /* Y = (Y xor rev(X)) * H' */
        addi    a2, a2, 16
        addi    a3, a3, -1                      /* one block hashed */
        bnez    a3, .Lblock\@

.Lstore\@:
        vsetvl  zero, t2, t1
        vrgather.vv v4, v3, v1                  /* state = rev(Y) */
        vse8.v  v4, (a0)

        /* Zero v0-v7 whole: LMUL=8 with vl = VLMAX covers every byte of the group. */
        vsetvli t3, zero, e8, m8, ta, ma
        vmv.v.i v0, 0
        ret
.endm

        .text

        .globl  polyval_update_zvkg_lmul1
        .type   polyval_update_zvkg_lmul1, @function
        .p2align 2
polyval_update_zvkg_lmul1:
        li      t1, VTYPE_E8_M1                 /* the reversal at LMUL=1, whatever VLEN is */
        polyval_update_body
        .size   polyval_update_zvkg_lmul1, . - polyval_update_zvkg_lmul1

        .globl  polyval_update_zvkg_fraclmul
        .type   polyval_update_zvkg_fraclmul, @function
        .p2align 2
polyval_update_zvkg_fraclmul:
        /* the smallest LMUL whose group still holds 128 bits: LMUL = 16 / vlenb */
        csrr    t0, vlenb
        li      t1, VTYPE_E8_MF8
        li      t3, 128                         /* mf8 from vlenb 128 (VLEN 1024) */
        bgeu    t0, t3, 1f
        li      t1, VTYPE_E8_MF4
        li      t3, 64                          /* mf4 from vlenb 64 (VLEN 512) */
        bgeu    t0, t3, 1f
        li      t1, VTYPE_E8_MF2
        li      t3, 32                          /* mf2 from vlenb 32 (VLEN 256) */
        bgeu    t0, t3, 1f
        li      t1, VTYPE_E8_M1                 /* VLEN 128: a whole register is 128 bits */
1:
        polyval_update_body
        .size   polyval_update_zvkg_fraclmul, . - polyval_update_zvkg_fraclmul

        .section .note.GNU-stack, "", @progbits
