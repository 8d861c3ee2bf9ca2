/* asm/asm-offsets.h — asmdiff's stand-in for the header Linux generates at build time (Kbuild's
 * asm-offsets), for the files the inventory assembles (corpus_inventory.sh): the offsets of
 * struct aria_ctx (Linux 6.12, include/crypto/aria.h: u32 enc_key[17][4], u32 dec_key[17][4],
 * int rounds, int key_length) that the ARIA assembly reads its keys and rounds through. */
#ifndef ASMDIFF_INVENTORY_ASM_OFFSETS_H
#define ASMDIFF_INVENTORY_ASM_OFFSETS_H
#define ARIA_CTX_enc_key 0
#define ARIA_CTX_dec_key 272
#define ARIA_CTX_rounds 544
#endif
