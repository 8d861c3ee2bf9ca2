# chacha_k1_plant.sh — sourced: a one-line change to a copy of libgcrypt 1.12.4's AVX-512
# ChaCha20 assembly for the libgcrypt-1.12 suite's chacha-kernel-avx512-k1-cleared test
# (verify/outside/libgcrypt_suite.sh): not a bug but the fix of the one finding the shipped file
# has under the libgcrypt convention (opmask k1 left all ones by its kxnorq): where the file
# clears k2 before returning, k1 is cleared too, so the rest of the check (the libFuzzer stage
# included, which stops at the first finding) is seen clean.
plant_file=cipher/chacha20-amd64-avx512.S
plant_find=$'\tkxorq %k2, %k2, %k2;'
plant_replace=$'\tkxorq %k2, %k2, %k2; kxorq %k1, %k1, %k1;'
