# mpi_plant.sh — sourced: the one-line bug planted in a copy of libgcrypt's mpi/amd64/mpih-add1.S
# for the libgcrypt-1.12 suite's mpi-planted test (verify/outside/libgcrypt_suite.sh): the limb
# add of the unrolled loop's macro drops the carry in (adcq -> addq).  configure links that file
# into the build folder as mpi/mpih-add1-asm.S: tools/build_libgcrypt --plant must change the
# object that is linked, mpi/.libs/mpih-add1-asm.o, or it refuses.
plant_file=mpi/amd64/mpih-add1.S
plant_find=$'\tadcq\toffset(%rdx), %rax; \\'
plant_replace=$'\taddq\toffset(%rdx), %rax; \\'
