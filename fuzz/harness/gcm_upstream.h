/* gcm_upstream.h — AES-GCM as the gcm family (fuzz/gcm.c) and the upstream conventions of
 * ./asmdiff check share it: the case, the family's buffers, and what a convention's make_ops
 * returns for an outside kernel, so a convention reads the case but never the family's code
 * (docs/architecture.md's layers).
 *
 * The family decodes an input into a struct gcm_case (key, IV or a chosen pre-counter block
 * J0, AAD, payload, tag length, the cuts of each stream into update calls, a tamper) and
 * judges with its reference, once.  The libraries take the case through their own streaming
 * APIs (reference/oracles/gcm_oracles.h).  An outside kernel is a home's set of entry points
 * (Linux's aes_gcm_precompute / aad_update / enc_update / dec_update / enc_final / dec_final):
 * its ops are a struct gcm_upstream, whose seal and open make that home's calls through
 * DRV_CALL as its glue does, on the pieces the family placed (each piece of each stream in a
 * guarded buffer of its own, cut where the case cuts it: the glue's own buffering of a block
 * that straddles a cut is the convention's, placed in the family's block buffers below). */
#ifndef ASMDIFF_GCM_UPSTREAM_H
#define ASMDIFF_GCM_UPSTREAM_H

#include <stddef.h>
#include <stdint.h>

#include "splits.h"

#define GCM_AAD_MAX 4096
#define GCM_PT_MAX 6144
#define GCM_IV_MAX 64

enum gcm_tamper {
    GCM_TAMPER_NONE, GCM_TAMPER_TAG, GCM_TAMPER_CT, GCM_TAMPER_AAD, GCM_TAMPER_COUNT
};

struct gcm_case {
    size_t keylen, ivlen, aadlen, len, taglen;
    uint8_t key[32], iv[GCM_IV_MAX], aad[GCM_AAD_MAX], pt[GCM_PT_MAX];
    /* a counter-block case: J0 chosen (its counter near the wrap), iv the 16 bytes giving it */
    int from_j0;
    uint8_t j0[16];
    struct splits aad_cuts, pt_cuts; /* the update calls: cuts into the AAD and the payload */
    enum gcm_tamper tamper;
    size_t flip_bit; /* in the tag's leftmost taglen bytes, the ciphertext or the AAD */
};

/* The family's buffers (indices into its bufs), in this order (fuzz/gcm.c asserts it).  The
 * last four are an outside kernel's only: its home's key struct, the GHASH accumulator and
 * the counter its entry points take by pointer, and the glue's block buffer (a block that
 * straddles a cut, gathered; run in place and scattered back).  Their granule is 64, so they are
 * never misaligned and cost no input bytes (the seeds decode as before they existed): placed
 * flush against the guard page after them or the one before, as every buffer is. */
enum gcm_buf {
    GCM_B_KEY, GCM_B_IV, GCM_B_AAD, GCM_B_IN, GCM_B_OUT, GCM_B_TAG,
    GCM_B_CTX,       /* a home's key struct (the expanded key and what its precompute adds) */
    GCM_B_ACC,       /* the 16-byte GHASH accumulator the update calls carry */
    GCM_B_CTR,       /* the counter block, as the home takes it */
    GCM_B_BLOCK,     /* a gathered block (or the last bytes) of a stream, as a glue buffers
                      * it: an input, or a payload block en/decrypted in place */
    GCM_NBUFS
};

/* A stream in pieces, as the family placed them (piece i: len[i] bytes at p[i]). */
struct gcm_pieces {
    size_t n;
    const uint8_t *const *p;
    const size_t *len;
};
struct gcm_out_pieces {
    size_t n;
    uint8_t *const *p;
    const size_t *len;
};

/* An outside kernel as its convention calls it (struct impl.ops of an IMPL_OUTSIDE kernel). */
struct gcm_upstream {
    const void *fn; /* the entry point the check names (renamed in the check build) */
    /* The key struct of the case's key, placed (GCM_B_CTX) and completed by the home's own
     * code (a precompute call); the seal and open of the same pass use it.  Its own op. */
    void (*setkey)(const struct gcm_upstream *u, const struct gcm_case *c);
    /* Seal: the ciphertext into ct's pieces and the full 16-byte tag into tag (C memory);
     * the pre-counter block j0 (IV || 0^31 || 1 for a 12-byte IV, else the case's J0). */
    void (*seal)(const struct gcm_upstream *u, const struct gcm_case *c, const uint8_t j0[16],
                 const struct gcm_pieces *aad, const struct gcm_pieces *pt,
                 const struct gcm_out_pieces *ct, uint8_t tag[16]);
    /* Open: the plaintext into pt's pieces; the home's verdict, 1 when it accepts the tag's
     * leftmost taglen bytes, 0 when it rejects them, -1 for anything else it returns (tag
     * holds 16 bytes: the rest is what a caller's buffer would hold). */
    int (*open)(const struct gcm_upstream *u, const struct gcm_case *c, const uint8_t j0[16],
                const struct gcm_pieces *aad, const struct gcm_pieces *ct,
                const struct gcm_out_pieces *pt, const uint8_t tag[16], size_t taglen);
    /* 1: the home's final encrypts J0's leftmost 96 bits || 0^31 || 1 for the tag whatever
     * counter the payload started from (J0 itself for every 96-bit IV; Linux's final builds
     * the block so), so a counter-block case's tag is judged against that block's. */
    int tag_ctr_one;
    /* The bench (check --bench): a seal made with the home's calls directly, no checked call
     * and nothing placed: AES-128 under key, the 96-bit iv, no AAD, len bytes in place in one
     * update call, the 16-byte tag; NULL: not benched. */
    void (*bench_seal)(const struct gcm_upstream *u, const uint8_t key[16],
                       const uint8_t iv[12], uint8_t *buf, size_t len, uint8_t tag[16]);
};

#endif
