# poly1305_plant.sh — sourced: the one-line bug planted in a copy of libgcrypt's AVX-512 IFMA
# Poly1305 assembly for the libgcrypt-1.12 suite's poly1305-kernel-avx512-planted test
# (verify/outside/libgcrypt_suite.sh).  The vector multiply's partial reduction (the macro that
# multiplies three 44-bit limbs by r, carries, and folds the bits above 2^130 back times 5)
# loses its last carry: what limb 0 overflows after the fold is masked off and never added into
# limb 1.  The line is the macro's last one (no continuation), so it is replaced by an empty one.
plant_file=cipher/poly1305-amd64-avx512.S
plant_find=$'\tvpaddq  A1, A1, ZTMP1;'
plant_replace=''
