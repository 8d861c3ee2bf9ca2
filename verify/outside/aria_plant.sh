# aria_plant.sh — sourced: the one-line bug planted in a copy of libgcrypt's ARIA assembly for
# the positive control of the libgcrypt-1.12 suite (verify/outside/libgcrypt_suite.sh).
# In the 16-way GFNI S-box layer (the one the AVX-512 kernel expands: the 8-way one above it
# is not used by that file, and a bug there changes nothing), the x2 affine transform of
# register y7 takes its input from y3: a wrong operand, as a register renaming slip makes it.
plant_file=cipher/aria-gfni-avx512-amd64.S
plant_find=$'\tvgf2p8affineqb $(tf_x2_const), t4, y7, y7;\t\\'
plant_replace=$'\tvgf2p8affineqb $(tf_x2_const), t4, y3, y7;\t\\'
