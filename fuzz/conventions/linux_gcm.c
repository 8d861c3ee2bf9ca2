/* linux_gcm.c — Linux 6.12's x86-64 AES-GCM as the gcm family's linux convention:
 * arch/x86/crypto/aes-gcm-avx10-x86_64.S (VAES and VPCLMULQDQ with AVX-512BW/VL, 256- and
 * 512-bit vectors) and aes-gcm-aesni-x86_64.S (AES-NI and PCLMULQDQ, with and without AVX),
 * called as arch/x86/crypto/aesni-intel_glue.c calls them.
 *
 * The entry points, as the glue declares them (asmlinkage):
 *
 *   void aes_gcm_precompute_S(struct aes_gcm_key_* *key);
 *   void aes_gcm_aad_update_A(const key *, u8 ghash_acc[16], const u8 *aad, int aadlen);
 *   void aes_gcm_enc_update_S / dec_update_S(const key *, const u32 le_ctr[4],
 *                                            u8 ghash_acc[16], const u8 *src, u8 *dst,
 *                                            int datalen);
 *   void aes_gcm_enc_final_A(const key *, const u32 le_ctr[4], u8 ghash_acc[16],
 *                            u64 total_aadlen, u64 total_datalen);
 *   bool aes_gcm_dec_final_A(const key *, const u32 le_ctr[4], const u8 ghash_acc[16],
 *                            u64 total_aadlen, u64 total_datalen, const u8 tag[16], int taglen);
 *
 * S is vaes_avx10_256, vaes_avx10_512, aesni_avx or aesni; A is vaes_avx10 for both AVX10
 * widths (one shared function), else S.  The key struct (the glue's declarations and its
 * BUILD_BUG_ONs): struct crypto_aes_ctx first (the encryption round keys at 0, the decryption
 * ones at 240, the key length in bytes at 480), the RFC 4106 nonce at 484 (0: the generic
 * gcm(aes) algorithms), then
 *   aes_gcm_key_aesni: H^8..H^1 at 496, their halves XORed at 624, H times x^64 at 688;
 *                      704 bytes, 16-byte aligned (PTR_ALIGN(ctx, 16));
 *   aes_gcm_key_avx10: H^16..H^1 at 512, three zero blocks at 768; 832 bytes (its 64-byte
 *                      alignment rounds 816 up), 64-byte aligned (PTR_ALIGN(ctx, 64)).
 * The expanded key is built here from our reference's key expansion (reference/aes.c: the
 * encryption schedule and the equivalent inverse cipher's, as aesni_set_key leaves them), the
 * rest zero, and the file's own precompute fills the key powers, as the glue's gcm_setkey does
 * under kernel_fpu_begin().  The key struct is then an input of every later call (checked
 * unchanged after each), and precompute must have left the expanded key as it was.
 *
 * The calls are the glue's gcm_crypt, made here as it makes them (our code, from what the glue
 * does): ghash_acc zeroed; le_ctr = {2, be32(iv + 8), be32(iv + 4), be32(iv)} from the 96-bit
 * IV; the AAD through gcm_process_assoc (every piece of the case a scatterlist segment: the
 * whole blocks of a piece in place, a block that straddles a cut gathered in the glue's
 * 16-byte buffer and hashed from there, every call but the last a multiple of 16 bytes, the
 * last the rest); the payload as skcipher_walk hands it (a piece's bytes in place, rounded
 * down to a multiple of 16 unless they are all that is left; a block that straddles a cut,
 * or the last bytes when they straddle one, gathered into the walk's bounce buffer, run
 * there in place, and copied out), le_ctr[0] += the blocks of each call but the last, in C, a u32 that
 * wraps; a message without payload still makes its zero-length update call, as the glue does;
 * then enc_final (the 16-byte tag written over ghash_acc) or dec_final with the transmitted
 * tag in a 16-byte buffer (its leftmost taglen bytes; the rest is not the tag) and taglen.
 * The buffers the glue keeps on its stack (its AAD block, the walk's bounce buffers, the
 * counter, the accumulator, the tag) are the family's guarded buffers, placed exactly as long
 * as each call may read: a read past the bytes a call was given faults.  Cuts are the case's:
 * any byte, empty pieces skipped (a scatterlist has none).  Not modelled: the walk's page
 * boundaries (a piece that crosses a page in the kernel's mapping is cut there too: the same
 * shapes of calls as the case's cuts make), the RFC 4106 algorithms.
 *
 * The contract, and the cases outside it (refused: not run, counted in the check's rows):
 *   - the IV is 96 bits (the glue's ivsize, GCM_AES_IV_SIZE): other IV lengths are refused;
 *     a counter-block case (the family's chosen J0, its counter near the 2^32 wrap) is taken
 *     as the update functions' own contract states it: le_ctr is any counter, "only the low
 *     32-bit word of the counter is incremented, following the GCM standard"; le_ctr starts at
 *     inc32(J0).  The final builds its tag's counter block from le_ctr's upper 96 bits and a
 *     low word of 1 (J0 for every 96-bit IV), so such a case's tag is judged against
 *     CIPH_K(J0's upper 96 bits || 1) xor S (gcm_upstream.h, tag_ctr_one);
 *   - tag lengths 4, 8, 12, 13, 14, 15, 16 (generic_gcmaes_set_authsize): others refused;
 *   - lengths fit an int (the family's do).
 * Rows (--op): vaes_avx10_512, vaes_avx10_256, aesni_avx, aesni: the functions of that level,
 * the other entry points taken from the same file by name (drv_outside_entry); the symbol's
 * name says the row (the shared vaes_avx10 functions: vaes_avx10_512).  Leftovers are
 * information (CONV_LINUX_LEFTOVERS).  Only the layout and the prototypes are facts we use;
 * nothing of the files is copied. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "gcm_upstream.h"
#include "reference/aes.h"

#define CTX_DEC 240
#define CTX_KEYLEN 480
#define CTX_AES_BYTES 484 /* struct crypto_aes_ctx */
#define AESNI_CTX_BYTES 704
#define AVX10_CTX_BYTES 832

struct op_row {
    const char *name;
    const char *precompute, *aad, *enc, *dec, *enc_final, *dec_final;
    size_t ctx_bytes;
};

static const struct op_row rows[] = {
    {"vaes_avx10_512", "aes_gcm_precompute_vaes_avx10_512", "aes_gcm_aad_update_vaes_avx10",
     "aes_gcm_enc_update_vaes_avx10_512", "aes_gcm_dec_update_vaes_avx10_512",
     "aes_gcm_enc_final_vaes_avx10", "aes_gcm_dec_final_vaes_avx10", AVX10_CTX_BYTES},
    {"vaes_avx10_256", "aes_gcm_precompute_vaes_avx10_256", "aes_gcm_aad_update_vaes_avx10",
     "aes_gcm_enc_update_vaes_avx10_256", "aes_gcm_dec_update_vaes_avx10_256",
     "aes_gcm_enc_final_vaes_avx10", "aes_gcm_dec_final_vaes_avx10", AVX10_CTX_BYTES},
    {"aesni_avx", "aes_gcm_precompute_aesni_avx", "aes_gcm_aad_update_aesni_avx",
     "aes_gcm_enc_update_aesni_avx", "aes_gcm_dec_update_aesni_avx",
     "aes_gcm_enc_final_aesni_avx", "aes_gcm_dec_final_aesni_avx", AESNI_CTX_BYTES},
    {"aesni", "aes_gcm_precompute_aesni", "aes_gcm_aad_update_aesni",
     "aes_gcm_enc_update_aesni", "aes_gcm_dec_update_aesni", "aes_gcm_enc_final_aesni",
     "aes_gcm_dec_final_aesni", AESNI_CTX_BYTES},
};
#define NROWS (sizeof rows / sizeof rows[0])

struct op_kernel {
    struct gcm_upstream u; /* first: the family's view (gcm_upstream.h) */
    const struct op_row *row;
    const void *precompute, *aad, *enc, *dec, *enc_final, *dec_final;
};

/* What the glue keeps between its calls: the key struct (built, then as precompute left
 * it, both 64-byte aligned as the glue's PTR_ALIGN), and the placed one; each value a call
 * is given is copied to its own static buffer when it is placed, which stays as it was until
 * it is placed again (the driver checks every placed input after every call). */
static uint8_t ctx_built[AVX10_CTX_BYTES] __attribute__((aligned(64)));
static uint8_t ctx_done[AVX10_CTX_BYTES] __attribute__((aligned(64)));
static const uint8_t *ctx_now;
static uint8_t block_in[16], tag_in[16];
static uint32_t ctr_in[4];
static const uint8_t acc_zero[16];

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The key struct before precompute: crypto_aes_ctx from our key expansion, the rest zero
 * (AVX10_CTX_BYTES, the larger struct) */
static void expanded_key(uint8_t *ctx, const uint8_t *key, size_t keylen)
{
    struct aes_key ek, dk;
    uint32_t n = (uint32_t)keylen;
    memset(ctx, 0, AVX10_CTX_BYTES);
    aes_expand_key(&ek, key, keylen);
    aes_expand_key_decrypt(&dk, key, keylen);
    memcpy(ctx, ek.rk, 16 * ((size_t)ek.rounds + 1));
    memcpy(ctx + CTX_DEC, dk.rk, 16 * ((size_t)dk.rounds + 1));
    memcpy(ctx + CTX_KEYLEN, &n, sizeof n);
}

static void setkey(const struct gcm_upstream *u, const struct gcm_case *c)
{
    const struct op_kernel *k = (const struct op_kernel *)u;
    size_t n = k->row->ctx_bytes;
    expanded_key(ctx_built, c->key, c->keylen);
    drv_op("setkey (the expanded key, then precompute)");
    uint8_t *ctx = drv_inout(GCM_B_CTX, ctx_built, n);
    DRV_CALL(k->precompute, ctx);
    drv_expect_equal("the expanded key after precompute (it must leave it)", ctx_built, ctx,
                     CTX_AES_BYTES);
    memcpy(ctx_done, ctx, n);
    ctx_now = drv_in(GCM_B_CTX, ctx_done, n); /* an input of every call from here on */
}

static const uint32_t *place_ctr(const uint32_t le[4])
{
    memcpy(ctr_in, le, sizeof ctr_in);
    return drv_in(GCM_B_CTR, ctr_in, sizeof ctr_in);
}

static const uint8_t *place_block(const uint8_t *b, size_t n)
{
    memcpy(block_in, b, n);
    return drv_in(GCM_B_BLOCK, block_in, n);
}

static void aad_call(const struct op_kernel *k, uint8_t *acc, const uint8_t *p, size_t n)
{
    DRV_CALL(k->aad, ctx_now, acc, p, (int)n);
}

/* gcm_process_assoc: each piece a segment; every call but the last a multiple of 16 bytes */
static void process_aad(const struct op_kernel *k, uint8_t *acc, const struct gcm_pieces *aad)
{
    uint8_t buf[16];
    size_t pos = 0, left = 0;
    for (size_t i = 0; i < aad->n; i++) left += aad->len[i];
    for (size_t i = 0; i < aad->n; i++) {
        const uint8_t *src = aad->p[i];
        size_t n = aad->len[i];
        if (!n) continue;
        left -= n;
        if (pos) {
            size_t take = n < 16 - pos ? n : 16 - pos;
            memcpy(buf + pos, src, take);
            pos += take, src += take, n -= take;
            if (pos < 16) continue;
            aad_call(k, acc, place_block(buf, 16), 16);
            pos = 0;
        }
        size_t l = left ? n & ~(size_t)15 : n;
        aad_call(k, acc, src, l);
        src += l, n -= l;
        if (n) memcpy(buf, src, n), pos = n;
    }
    if (pos) aad_call(k, acc, place_block(buf, pos), pos);
}

/* (i, at) moved on by `by` bytes of the pieces len[0 .. n) */
static void advance(const size_t *len, size_t *i, size_t *at, size_t by)
{
    while (by) {
        size_t room = len[*i] - *at;
        if (by < room) {
            *at += by;
            return;
        }
        by -= room, (*i)++, *at = 0;
    }
}

/* gcm_crypt's loop over the payload as skcipher_walk hands it: each piece a segment; where
 * less than a block (or than what is left) remains in a segment, that block is gathered into
 * the walk's bounce buffer, run there and copied out */
static void process_payload(const struct op_kernel *k, int enc, uint8_t *acc, uint32_t le[4],
                            const struct gcm_pieces *in, const struct gcm_out_pieces *out)
{
    const void *fn = enc ? k->enc : k->dec;
    size_t left = 0, i = 0, at = 0;
    for (size_t j = 0; j < in->n; j++) left += in->len[j];
    for (;;) {
        while (left && at == in->len[i]) i++, at = 0;
        size_t seg = left ? in->len[i] - at : 0, bsize = left < 16 ? left : 16;
        int slow = seg < bsize;
        const uint8_t *src;
        uint8_t *dst;
        if (slow) {
            uint8_t b[16];
            size_t gi = i, gat = at;
            for (size_t got = 0; got < bsize;) {
                while (gat == in->len[gi]) gi++, gat = 0;
                size_t take = in->len[gi] - gat < bsize - got ? in->len[gi] - gat : bsize - got;
                memcpy(b + got, in->p[gi] + gat, take);
                got += take, gat += take;
            }
            /* skcipher_next_slow: one bounce buffer, src and dst (in place) */
            dst = drv_inout(GCM_B_BLOCK, b, bsize);
            src = dst;
            seg = bsize;
        } else {
            src = in->p[i] + at;
            dst = out->p[i] + at;
        }
        int last = seg == left;
        size_t nbytes = last ? seg : seg & ~(size_t)15;
        DRV_CALL(fn, ctx_now, place_ctr(le), acc, src, dst, (int)nbytes);
        if (slow) /* the walk copies the bounce buffer's output back */
            for (size_t done = 0, oi = i, oat = at; done < nbytes;) {
                while (oat == out->len[oi]) oi++, oat = 0;
                size_t room = out->len[oi] - oat;
                size_t take = room < nbytes - done ? room : nbytes - done;
                memcpy(out->p[oi] + oat, dst + done, take);
                done += take, oat += take;
            }
        if (last) return;
        advance(in->len, &i, &at, nbytes);
        left -= nbytes;
        le[0] += (uint32_t)(nbytes / 16);
    }
}

static size_t total(const struct gcm_pieces *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) n += s->len[i];
    return n;
}

/* le_ctr from the pre-counter block: the first payload counter, inc32(J0), its words
 * little-endian from the last (2 for a 96-bit IV, as the glue sets it) */
static void le_ctr_of(const uint8_t j0[16], uint32_t le[4])
{
    le[0] = be32(j0 + 12) + 1, le[1] = be32(j0 + 8), le[2] = be32(j0 + 4), le[3] = be32(j0);
}

static void seal_calls(const struct gcm_upstream *u, const struct gcm_case *c,
                       const uint8_t j0[16], const struct gcm_pieces *aad,
                       const struct gcm_pieces *pt, const struct gcm_out_pieces *ct,
                       uint8_t tag[16])
{
    const struct op_kernel *k = (const struct op_kernel *)u;
    uint32_t le[4];
    (void)c;
    le_ctr_of(j0, le);
    uint8_t *acc = drv_inout(GCM_B_ACC, acc_zero, 16);
    process_aad(k, acc, aad);
    process_payload(k, 1, acc, le, pt, ct);
    DRV_CALL(k->enc_final, ctx_now, place_ctr(le), acc, (uint64_t)total(aad),
             (uint64_t)total(pt));
    memcpy(tag, acc, 16);
}

static int open_calls(const struct gcm_upstream *u, const struct gcm_case *c,
                      const uint8_t j0[16], const struct gcm_pieces *aad,
                      const struct gcm_pieces *ct, const struct gcm_out_pieces *pt,
                      const uint8_t tag[16], size_t taglen)
{
    const struct op_kernel *k = (const struct op_kernel *)u;
    uint32_t le[4];
    (void)c;
    le_ctr_of(j0, le);
    uint8_t *acc = drv_inout(GCM_B_ACC, acc_zero, 16);
    process_aad(k, acc, aad);
    process_payload(k, 0, acc, le, ct, pt);
    memcpy(tag_in, tag, 16);
    const uint8_t *t = drv_in(GCM_B_TAG, tag_in, 16);
    uint8_t ok = (uint8_t)DRV_CALL(k->dec_final, ctx_now, place_ctr(le), acc,
                                   (uint64_t)total(aad), (uint64_t)total(ct), t, (int)taglen);
    return ok == 1 ? 1 : ok == 0 ? 0 : -1;
}

static struct op_kernel kernels[OUTSIDE_MAX];
static size_t nkernels;

/* ---- the bench: the same calls made directly (gcm_upstream.h, bench_seal) ---- */

typedef void (*precompute_fn)(void *key);
typedef void (*update_fn)(const void *key, const uint32_t *le_ctr, uint8_t *acc,
                          const uint8_t *src, uint8_t *dst, int datalen);
typedef void (*enc_final_fn)(const void *key, const uint32_t *le_ctr, uint8_t *acc,
                             uint64_t total_aadlen, uint64_t total_datalen);

/* each kernel's key struct for the bench's key, made once (the glue's setkey) */
static struct {
    uint8_t ctx[AVX10_CTX_BYTES] __attribute__((aligned(64)));
    uint8_t key[16];
    int made;
} bench_keys[OUTSIDE_MAX];

static void bench_seal(const struct gcm_upstream *u, const uint8_t key[16], const uint8_t iv[12],
                       uint8_t *buf, size_t len, uint8_t tag[16])
{
    const struct op_kernel *k = (const struct op_kernel *)u;
    size_t slot = (size_t)(k - kernels);
    if (!bench_keys[slot].made || memcmp(bench_keys[slot].key, key, 16)) {
        expanded_key(bench_keys[slot].ctx, key, 16);
        ((precompute_fn)k->precompute)(bench_keys[slot].ctx);
        memcpy(bench_keys[slot].key, key, 16);
        bench_keys[slot].made = 1;
    }
    uint8_t acc[16] = {0};
    uint32_t le[4] = {2, be32(iv + 8), be32(iv + 4), be32(iv)};
    ((update_fn)k->enc)(bench_keys[slot].ctx, le, acc, buf, buf, (int)len);
    ((enc_final_fn)k->enc_final)(bench_keys[slot].ctx, le, acc, 0, (uint64_t)len);
    memcpy(tag, acc, 16);
}

static const char *op_name(const struct convention *cv, size_t op)
{
    (void)cv;
    return op < NROWS ? rows[op].name : "?";
}

/* A function of the file the glue calls: the file must define it. */
static const void *entry(const void *fn, const char *name, const char *row)
{
    const void *f = drv_outside_entry(fn, name);
    if (!f) {
        fprintf(stderr, "asmdiff: the linux convention's row %s calls %s, which the file does "
                        "not define as a global function\n", row, name);
        printf("gcm: FAIL: the file defines no %s (the linux convention's row %s)\n", name, row);
        exit(2);
    }
    return f;
}

static const void *make_ops(const struct convention *cv, const void *fn, size_t op)
{
    (void)cv;
    if (nkernels == OUTSIDE_MAX || op >= NROWS) return NULL;
    const struct op_row *row = &rows[op];
    kernels[nkernels] = (struct op_kernel){
        .u = {.fn = fn, .setkey = setkey, .seal = seal_calls, .open = open_calls,
              .tag_ctr_one = 1, .bench_seal = bench_seal},
        .row = row,
        .precompute = entry(fn, row->precompute, row->name),
        .aad = entry(fn, row->aad, row->name),
        .enc = entry(fn, row->enc, row->name),
        .dec = entry(fn, row->dec, row->name),
        .enc_final = entry(fn, row->enc_final, row->name),
        .dec_final = entry(fn, row->dec_final, row->name)};
    return &kernels[nkernels++].u;
}

static int ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), m = strlen(end);
    return n >= m && !strcmp(s + n - m, end);
}

/* The row the symbol's name says: the first whose functions one ends it (the shared
 * vaes_avx10 functions: vaes_avx10_512) */
static int identify(const struct convention *cv, const void *fn, const char *symbol)
{
    (void)cv, (void)fn;
    for (size_t i = 0; i < NROWS; i++) {
        const struct op_row *r = &rows[i];
        const char *names[] = {r->precompute, r->aad, r->enc, r->dec, r->enc_final,
                               r->dec_final};
        for (size_t j = 0; j < sizeof names / sizeof names[0]; j++)
            if (ends_with(symbol, names[j])) return (int)i;
    }
    return -1;
}

/* Every row is one computation (AES-GCM through the glue): --op may name any of them. */
static int same_operation(const struct convention *cv, size_t a, size_t b)
{
    (void)cv, (void)a, (void)b;
    return 1;
}

/* The glue's contract: a 96-bit IV (or a counter block, the update functions' own contract),
 * a tag length generic_gcmaes_set_authsize takes */
static int accepts(const struct convention *cv, const void *ops, const void *cv_case)
{
    const struct gcm_case *c = cv_case;
    (void)cv, (void)ops;
    static const unsigned tags = 1u << 4 | 1u << 8 | 1u << 12 | 1u << 13 | 1u << 14 |
                                 1u << 15 | 1u << 16;
    return (c->from_j0 || c->ivlen == 12) && c->taglen <= 16 && (tags >> c->taglen & 1);
}

/* registered by name in fuzz/meson.build's 'conventions' list (driver.h: struct convention) */
const struct convention convention_linux_gcm = {
    .name = "linux",
    .prototype =
        "asmlinkage void aes_gcm_precompute_S(key); aes_gcm_aad_update_A(key, u8 ghash_acc[16], "
        "const u8 *aad, int aadlen); aes_gcm_{enc,dec}_update_S(key, const u32 le_ctr[4], u8 "
        "ghash_acc[16], const u8 *src, u8 *dst, int datalen); aes_gcm_enc_final_A(key, le_ctr, "
        "ghash_acc, u64 total_aadlen, u64 total_datalen); bool aes_gcm_dec_final_A(..., const u8 "
        "tag[16], int taglen) of aes-gcm-avx10-x86_64.S (S vaes_avx10_256/_512, A vaes_avx10: "
        "struct aes_gcm_key_avx10, 832 bytes, 64-byte aligned) and aes-gcm-aesni-x86_64.S (S = A "
        "= aesni, aesni_avx: struct aes_gcm_key_aesni, 704 bytes, 16-byte aligned), the "
        "crypto_aes_ctx from our key expansion, the powers from the file's precompute; called as "
        "aesni-intel_glue.c's gcm_crypt calls them (AAD and payload cut at any byte, the glue's "
        "buffering of a straddling block; every call but the last a multiple of 16 bytes); "
        "96-bit IVs (le_ctr {2, iv words}) or a counter block (le_ctr = inc32(J0), the tag's "
        "block J0's upper 96 bits || 1); tags of 4, 8, 12-16 bytes; --op vaes_avx10_512, "
        "vaes_avx10_256, aesni_avx, aesni",
    .clean = 0,
    .leftovers = CONV_LINUX_LEFTOVERS,
    .nops = NROWS,
    .op_name = op_name,
    .make_ops = make_ops,
    .identify = identify,
    .accepts = accepts,
    .same_operation = same_operation,
    .rows = rows,
};
