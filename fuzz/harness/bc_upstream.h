/* bc_upstream.h — upstream block-cipher conventions as tables of entry points (./asmdiff check).
 *
 * Linux's, libgcrypt's and OpenSSL's block-cipher assembly exports families of entry points that
 * differ only in how many blocks a call takes and which operation it does
 * (aria_aesni_avx_encrypt_16way, ..._32way, ..._64way; _gcry_camellia_*_enc_blk1_32 and
 * _enc_blk64).  Such a convention is data: a context builder (the upstream key-schedule layout,
 * from the reference's schedules) and rows, one per entry point: its name, what it does, its
 * width and how it takes its arguments.  This piece does the rest for every such convention:
 * identifying which row a symbol is (its name first, then a known answer on 64 blocks with a
 * marker past the row's width), the cases a row's contract admits, and the calls on the
 * placed buffers, in calls of the row's width.
 *
 * A convention file (fuzz/conventions/<name>_<family>.c) is then:
 *
 *     static void context(uint8_t *ctx, const struct bc_keys *k) { ...the upstream layout... }
 *     static const struct bc_entry rows[] = {
 *         {"encrypt_16way", BC_DOES_ENC, 16, BC_CTX_DST_SRC},
 *         {"ctr_crypt_16way", BC_DOES_CTR, 16, BC_CTX_DST_SRC_KS_IV},
 *         ...
 *     };
 *     BC_UPSTREAM_CONVENTION(linux, aria, rows, context, 548, 0, CONV_LINUX_LEFTOVERS, "...");
 *
 * and one word in the family's 'conventions' list in fuzz/meson.build. */
#ifndef ASMDIFF_BC_UPSTREAM_H
#define ASMDIFF_BC_UPSTREAM_H

#include <stddef.h>
#include <stdint.h>

#include "blockcipher.h"

/* What an entry point does (blockcipher.h's operations: 1u << enum bc_op). */
enum bc_does {
    BC_DOES_ENC = 1u << BC_OP_ECB_ENC,     /* ECB encryption */
    BC_DOES_DEC = 1u << BC_OP_ECB_DEC,     /* ECB decryption */
    BC_DOES_CTR = 1u << BC_OP_CTR,         /* CTR with a 128-bit big-endian counter, advanced */
    BC_DOES_CBC_DEC = 1u << BC_OP_CBC_DEC, /* CBC decryption, the IV advanced */
    BC_DOES_CTR32LE = 1u << BC_OP_CTR32LE, /* CTR with ctr32le's counter, advanced */
    BC_DOES_XTS_ENC = 1u << BC_OP_XTS_ENC, /* XTS from the encrypted tweak, advanced */
    BC_DOES_XTS_DEC = 1u << BC_OP_XTS_DEC,
};

/* How an entry point takes its arguments (ctx: the context the convention builds; key: ctx,
 * or ctx + dec_key_offset for the operations that decrypt; n: the call's blocks; len: its
 * bytes; iv: the counter, IV or tweak). */
enum bc_shape {
    BC_CTX_DST_SRC,       /* fn(ctx, dst, src): exactly width blocks */
    BC_CTX_DST_SRC_KEY,   /* fn(ctx, dst, src, key) */
    BC_CTX_DST_SRC_COUNT, /* fn(ctx, dst, src, unsigned n): min_blocks..width blocks */
    BC_CTX_DST_SRC_IV,    /* fn(ctx, dst, src, iv): exactly width blocks of CTR */
    BC_CTX_DST_SRC_KS_IV, /* fn(ctx, dst, src, keystream, iv): exactly width blocks of CTR,
                           * keystream width blocks of scratch the call writes */
    /* a width of 0: any number of blocks a call (XTS: any length of at least 16 bytes) */
    BC_CTX_DST_SRC_LEN,        /* fn(ctx, dst, src, size_t len) (Linux's aesni_ecb_enc) */
    BC_CTX_DST_SRC_LEN_IV,     /* fn(ctx, dst, src, size_t len, iv) (aesni_ctr_enc, _xts_enc) */
    BC_CTX_SRC_DST_LEN_IV,     /* fn(ctx, src, dst, unsigned len, iv) (aes_xts_encrypt_*) */
    BC_CTX_SRC_DST_SIZE,       /* fn(ctx, src, dst, size_t len) (RISC-V's aes_ecb_*_zvkned) */
    BC_CTX_SRC_DST_SIZE_IV,    /* fn(ctx, src, dst, size_t len, iv) (RISC-V's aes_cbc_decrypt_
                                * zvkned, aes_ctr32_crypt_zvkned_zvkb, aes_xts_*_zvkned_zvbb_zvkg) */
    BC_SRC_IV_CTX_DST_LEN,     /* fn(src, iv, ctx, dst, len) (aes_ctr_enc_*_by8): len passed as
                                * 64 bits, zero-extended: Linux 6.12's by8 code reads all of r8
                                * though its prototype says unsigned int (with junk in the upper
                                * half, as the ABI allows, it runs off its buffers) */
    BC_KEY_ENC_DST_SRC_N_ROUNDS,  /* fn(key, int encrypt, dst, src, size_t n, unsigned rounds)
                                   * (libgcrypt's _gcry_vaes_*_ecb_crypt_amd64) */
    BC_KEY_IV_DST_SRC_N_ROUNDS,   /* fn(key, iv, dst, src, size_t n, unsigned rounds)
                                   * (its cbc_dec, ctr_enc, ctr32le_enc) */
    BC_KEY_IV_DST_SRC_N_ROUNDS_ENC, /* fn(key, iv, dst, src, size_t n, unsigned rounds,
                                     * int encrypt) (its xts_crypt: whole blocks) */
    BC_CTX_BLOCK_INPLACE, /* fn(ctx, u8 block[16]): one block encrypted in place, width 1
                           * (Linux's aes_xts_encrypt_iv, which makes the XTS tweak) */
};

struct bc_entry {
    const char *name;    /* the operation's name (--op), and the end of its symbol
                          * ("encrypt_16way", "enc_blk1_32") unless suffix says otherwise */
    unsigned does;       /* enum bc_does */
    unsigned width;      /* blocks per call (at most, for BC_CTX_DST_SRC_COUNT; 0: any) */
    enum bc_shape shape;
    unsigned min_blocks; /* BC_CTX_DST_SRC_COUNT: the fewest blocks a call may take */
    const char *suffix;  /* the end of its symbol, when not its name ("ctr_enc"); or NULL */
    unsigned keylen;     /* the one key size (bytes) the entry point takes (Linux's
                          * aes_ctr_enc_128_avx_by8), or 0 for all */
};

/* What the CTR entry points promise of the counter. */
enum bc_ctr_contract {
    BC_CTR_ANY,            /* any counter: the carry goes through all 128 bits */
    BC_CTR_LOW16_NO_WRAP,  /* libgcrypt's ctr16be bulk interface: its caller never lets the
                            * low 16 bits of the counter wrap inside a call */
    BC_CTR_LOW32_NO_WRAP,  /* Linux's RISC-V aes_ctr32_crypt_zvkned_zvkb: it advances only the
                            * low 32 bits (no carry into the upper 96); its glue splits a request
                            * where they wrap and carries itself */
};

/* What the XTS entry points take. */
enum bc_xts_contract {
    BC_XTS_STEALING,     /* any length of 16 bytes and more, the last call stealing (Linux) */
    BC_XTS_WHOLE_BLOCKS, /* whole blocks only: the caller steals (libgcrypt's cipher-xts.c) */
};

/* The reference's schedules of the case (or of the probe's key), for a context builder: the
 * kernels' part of the family's schedule (blockcipher.h: the family's kernel_offset). */
struct bc_keys {
    const void *enc, *dec;
    unsigned rounds;
    size_t keylen;
};

/* A table convention's data (struct convention.rows). */
struct bc_upstream {
    const struct bc_entry *entries;
    size_t nentries;
    size_t ctx_bytes;
    void (*context)(uint8_t *ctx, const struct bc_keys *k);
    /* 16: the context must start 16-byte aligned (placed as BC_BUF_CONTEXT, its length
     * rounded up to 16, so it stays aligned flush against the guard page); 0: any */
    size_t ctx_align;
    size_t dec_key_offset; /* key for the operations that decrypt */
    enum bc_ctr_contract ctr;
    enum bc_xts_contract xts;
};

/* The convention's functions (struct convention's), the same for every table. */
const char *bc_upstream_op_name(const struct convention *cv, size_t op);
const void *bc_upstream_make_ops(const struct convention *cv, const void *fn, size_t op);
int bc_upstream_identify(const struct convention *cv, const void *fn, const char *symbol);
int bc_upstream_accepts(const struct convention *cv, const void *ops, const void *c);

/* For blockcipher.c: whether im is an upstream table's kernel, whether it does operation op
 * (enum bc_op), and its calls on the placed buffers (iv: the counter, IV, or XTS's tweak
 * already encrypted under the second key). */
int bc_upstream_of(const struct impl *im);
int bc_upstream_does(const struct impl *im, int op);
void bc_upstream_call(const struct impl *im, const struct bc_case *c, int op, uint8_t *dst,
                      const uint8_t *src, uint8_t *iv);
/* For the bench: op on bytes of buf in place, called directly (no checked call) in calls of
 * the row's width, the context built from keys; iv as above.  -1 when the row does not do op,
 * takes another key size, or no whole number of its calls makes bytes. */
int bc_upstream_bench(const struct impl *im, int op, const struct bc_keys *keys, uint8_t *buf,
                      size_t bytes, uint8_t *iv);

/* convention_<name>_<family>, a table convention (fuzz/meson.build's registry names it so):
 * its rows, context builder and context size, which leftovers are findings (enum
 * convention_clean) and why the others are allowed, the upstream prototype; then, as needed,
 * .dec_key_offset = N, .ctr = BC_CTR_LOW16_NO_WRAP (or _LOW32_) and .xts = BC_XTS_WHOLE_BLOCKS. */
#define BC_UPSTREAM_CONVENTION(name_, family_, rows_, context_, ctx_bytes_, clean_, leftovers_, \
                               prototype_, ...)                                               \
    static const struct bc_upstream bc_upstream_##name_##_##family_ = {                       \
        .entries = (rows_),                                                                   \
        .nentries = sizeof(rows_) / sizeof((rows_)[0]),                                       \
        .context = (context_),                                                                \
        .ctx_bytes = (ctx_bytes_),                                                            \
        __VA_ARGS__};                                                                         \
    const struct convention convention_##name_##_##family_ = {                                \
        .name = #name_,                                                                       \
        .prototype = (prototype_),                                                            \
        .clean = (clean_),                                                                    \
        .leftovers = (leftovers_),                                                            \
        .nops = sizeof(rows_) / sizeof((rows_)[0]),                                           \
        .op_name = bc_upstream_op_name,                                                       \
        .make_ops = bc_upstream_make_ops,                                                     \
        .identify = bc_upstream_identify,                                                     \
        .accepts = bc_upstream_accepts,                                                       \
        .rows = &bc_upstream_##name_##_##family_}

#endif
