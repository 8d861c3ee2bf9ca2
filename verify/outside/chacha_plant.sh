# chacha_plant.sh — sourced: the one-line bug planted in a copy of libgcrypt's ChaCha20 AVX2
# assembly for the libgcrypt-1.12 suite's chacha-kernel-avx2-planted test
# (verify/outside/libgcrypt_suite.sh).  The per-lane counter offsets of the 8-block batch (the
# bytes vpmovzxbd widens into the amounts added to word 12 in each lane) lose the second 4-block
# group's +4: blocks 4-7 of every batch repeat the counters of blocks 0-3, as a table typo or a
# 4-block table reused for 8 lanes makes it.
plant_file=cipher/chacha20-amd64-avx2.S
plant_find=$'\t.byte 0,1,2,3,4,5,6,7'
plant_replace=$'\t.byte 0,1,2,3,0,1,2,3'
