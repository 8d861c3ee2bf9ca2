# aria_plant.sh — sourced: the one-line bug planted in a copy of libgcrypt's ARIA assembly for
# the positive control of the libgcrypt-1.12 suite (verify/outside/libgcrypt_suite.sh).  The
# first S-box layer's x2 affine transform of one register takes its input from another register
# (x3 instead of x7): a wrong operand, as a register renaming slip would make it.
plant_file=cipher/aria-gfni-avx512-amd64.S
plant_find=$'\tvgf2p8affineqb $(tf_x2_const), t4, x7, x7;\t\\'
plant_replace=$'\tvgf2p8affineqb $(tf_x2_const), t4, x3, x7;\t\\'
