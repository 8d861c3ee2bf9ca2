/* gf256.h — GF(2^8) with the AES polynomial x^8 + x^4 + x^3 + x + 1 (0x11b), and the GFNI
 * affine map, written once: the vector executor (emu/vexec.c: GF2P8MULB, GF2P8AFFINEQB,
 * GF2P8AFFINEINVQB, the AES rounds) and the GFNI constant generators (tools/gfni_gen.h) use
 * these.  Bit by bit, from the definitions, independent of any table; the users build their
 * tables from them.  Semantics from the Intel SDM, Vol. 2: GF2P8MULB, GF2P8AFFINEQB,
 * GF2P8AFFINEINVQB (per byte x, with A a qword and b the imm8):
 *   GF2P8AFFINEQB     bit i of result = parity(A.byte[7-i] AND x)      ^ b.bit[i]
 *   GF2P8AFFINEINVQB  bit i of result = parity(A.byte[7-i] AND inv(x)) ^ b.bit[i]
 * where inv is inversion in the field, with inv(0) = 0. */
#ifndef ASMDIFF_EMU_GF256_H
#define ASMDIFF_EMU_GF256_H

#include <stdint.h>

/* a * b modulo x^8 + x^4 + x^3 + x + 1 */
static inline uint8_t gf256_mul(uint8_t a, uint8_t b)
{
    unsigned r = 0, x = a;
    for (int i = 0; i < 8; i++) {
        if (b & (1u << i))
            r ^= x;
        x <<= 1;
        if (x & 0x100)
            x ^= 0x11b;
    }
    return (uint8_t)r;
}

/* x^254: the inverse of x != 0, and 0 for 0 (as GF2P8AFFINEINVQB's table) */
static inline uint8_t gf256_inv(uint8_t x)
{
    uint8_t r = 1;
    for (int i = 0; i < 254; i++)
        r = gf256_mul(r, x);
    return r;
}

static inline unsigned gf256_parity8(unsigned v)
{
    v ^= v >> 4;
    v ^= v >> 2;
    v ^= v >> 1;
    return v & 1;
}

/* GF2P8AFFINEQB of one byte: bit i = parity(A.byte[7-i] AND x) ^ imm.bit[i] */
static inline uint8_t gf256_affine(uint64_t matrix, uint8_t x, uint8_t imm)
{
    uint8_t r = 0;
    for (int i = 0; i < 8; i++) {
        uint8_t row = (uint8_t)(matrix >> (8 * (7 - i)));
        r |= (uint8_t)((gf256_parity8(row & x) ^ ((imm >> i) & 1)) << i);
    }
    return r;
}

/* GF2P8AFFINEINVQB of one byte */
static inline uint8_t gf256_affine_inv(uint64_t matrix, uint8_t x, uint8_t imm)
{
    return gf256_affine(matrix, gf256_inv(x), imm);
}

#endif
