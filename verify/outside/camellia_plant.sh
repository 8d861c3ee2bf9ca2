# camellia_plant.sh — sourced: the one-line bug planted in a copy of libgcrypt's Camellia GFNI
# AVX-512 assembly (seed 002's file) for the positive control of the libgcrypt-1.12 suite
# (verify/outside/libgcrypt_suite.sh, mode camellia-kernel-planted).  In the FL^-1 half of the
# FL layer (macro fls64, which every entry point expands), the second byte lane of rl takes
# rr's first lane instead of its second: a wrong operand, as a register renaming slip makes it.
plant_file=cipher/camellia-gfni-avx512-amd64.S
plant_find=$'\tvpternlogq $0x1e, r##_5, t1, r##_1; \\'
plant_replace=$'\tvpternlogq $0x1e, r##_4, t1, r##_1; \\'
