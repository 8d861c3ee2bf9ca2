# gcm_plant.sh — sourced: the one-line bug planted in a copy of libgcrypt's cipher/cipher-gcm.c
# for the libgcrypt-1.12 suite's gcm-planted test (verify/outside/libgcrypt_suite.sh).
# gcm_ctr_encrypt runs libgcrypt's generic CTR, whose counter is 128 bits, up to the block where
# GCM's 32-bit counter wraps, then puts back the upper 96 bits the generic increment carried
# into; the plant leaves them carried.  The class of a real bug (a counter incremented past 32
# bits), reachable only when the counter wraps inside a payload: the gcm family's counter-block
# cases, whose 16-byte IV is solved for a J0 just below the wrap (docs/gcm.md).
plant_file=cipher/cipher-gcm.c
plant_find='buf_cpy(c->u_ctr.ctr, ctr_copy, GCRY_GCM_BLOCK_LEN - sizeof(u32));'
plant_replace='(void)ctr_copy; /* planted: the upper 96 bits not restored after the wrap */'
