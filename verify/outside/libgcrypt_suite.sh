#!/usr/bin/env bash
# libgcrypt_suite.sh MODE FAMILY BUDGET — the libgcrypt-1.12 suite, on libgcrypt 1.12 built from
# Debian's sources (tools/build_libgcrypt, cached in $ASMDIFF_BUILD/lib-cache).
#   clean:   FAMILY through the library at every hardware-feature level (./asmdiff check
#            --libgcrypt) must come out clean;
#   planted: the same library with one line of its ARIA assembly broken (aria_plant.sh) must be
#            caught (a MISMATCH on the libgcrypt implementation), or the suite is blind;
#   not-implemented: FAMILY named with --libgcrypt though the library has no implementation of
#            it (nh) must be a FAIL row and exit 1: nothing of the library runs there, and the
#            fuzz stage must not run (it would fuzz our own kernels and say pass);
#   kernel-ecb-ctr: the library's own ARIA AVX-512/GFNI file, taken from its source tree as
#            outside kernels (./asmdiff check aria --kernel ... in the libgcrypt convention),
#            both entry points in one check, each must come out clean;
#   kernel-planted: the planted copy of that file must be caught the same way;
#   kernel-ecb-ctr-emulated: kernel-ecb-ctr with ASMDIFF_CPU_MASK=
#            -avx512f,-gfni, so the kernel can run only in the vector executor: the same verdict
#            (clean) is required, then emu-diff on the check build's tool must compare its calls
#            with the CPU (more than zero) without a finding;
#   camellia-kernel-{avx512,avx2}: the library's Camellia GFNI AVX-512 file (seed 002's) and
#            GFNI AVX2 file, their three entry points (enc, dec, ctr) in one check, each clean;
#            camellia-kernel-planted: the AVX-512 file with camellia_plant.sh's line, caught;
#   polyval-kernel-{shipped,fraclmul}: cipher/cipher-gcm-riscv-zvkg.c as shipped and with the
#            fractional-LMUL byte reversal (polyval_fraclmul_patch.py), each clean under
#            qemu-riscv64 at VLEN 128, 256, 512 and 1024 (./asmdiff check --arch riscv64);
#            polyval-kernel-fraclmul-planted: that change with mf8 one step too early, which
#            must be caught at VLEN 512 (and only there);
#   aes-kernel-vaes-avx2: cipher/rijndael-vaes-avx2-amd64.S's ECB, CBC decryption, CTR (its
#            ctr16be) and XTS (whole blocks) entry points in one check, each clean (the AVX-512
#            file calls into this one for its tails: a check of it needs both files linked);
#   aes-kernel-vaes-avx512: cipher/rijndael-vaes-avx512-amd64.S's ECB, CBC decryption, CTR and
#            XTS entry points with the AVX2 file linked beside them (check --with), each clean;
#   chacha-kernel-{ssse3,avx2,avx512}: cipher/chacha20-amd64-ssse3.S (blocks4 and blocks1 in one
#            check), -avx2.S (blocks8) and -avx512.S (blocks) in the libgcrypt convention
#            (fuzz/conventions/libgcrypt_chacha.c), each clean with calls in its kat and fuzz
#            rows, but the AVX-512 one: a finding test (opmask k1 left all ones, the one
#            finding; every output right), and chacha-kernel-avx512-k1-cleared the same file
#            with k1 cleared too (chacha_k1_plant.sh), clean; chacha-kernel-stitched-refused:
#            the stitched _gcry_chacha20_poly1305_amd64_avx2_blocks8 named, refused before
#            anything runs (the convention's refuse()); chacha-kernel-avx2-planted: the AVX2 file with chacha_plant.sh's line (the
#            second 4-block group's counter offsets lost), caught on the known answers;
#   poly1305-kernel-avx512: cipher/poly1305-amd64-avx512.S (IFMA) in the libgcrypt convention
#            (fuzz/conventions/libgcrypt_poly1305.c), clean the same way;
#            poly1305-kernel-avx512-r2-zeros: a finding test, the stored input on which the
#            file's tag is wrong (fixtures/poly1305-gcrypt-ifma-r2-zeros.input);
#            poly1305-kernel-avx512-planted: with poly1305_plant.sh's line (the vector partial
#            reduction's last carry dropped), caught on the known answers;
#   ghash-kernel-rows: cipher/cipher-gcm-intel-pclmul.c (C with inline assembly) in the ghash
#            family's libgcrypt convention (fuzz/conventions/libgcrypt_ghash.c), beside our
#            stand-in headers (verify/outside/libgcrypt-amd64): its setup once per path its
#            hw_features select (--op pclmul, vpclmul-avx2, vpclmul-avx512), three kernels of
#            one check, each clean natively and in the check's emulated set, every row with calls;
#            ghash-kernel-planted: gcm_lsh_avx512's reduction constant broken (plant.py),
#            caught on the vpclmul-avx512 row alone, natively and with the features masked;
#            ghash-kernel-avx512-under-declared: the vpclmul-avx512 row held to the avx2 row's
#            needs, its first EVEX instruction reported by the ISA-subset stage;
#   polyval-pclmul-rows: the same file's POLYVAL update (_gcry_polyval_intel_pclmul, static:
#            the setup stores it) in the polyval family's libgcrypt convention
#            (fuzz/conventions/libgcrypt_polyval.c), the same three rows, each clean natively
#            and emulated, every row with calls; polyval-pclmul-planted: the POLYVAL update's
#            hash stored without its byte swap (plant.py), caught on every row by the known
#            answers, natively and with the features masked;
#   mpi-kernel-add-sub: mpi/amd64/mpih-add1.S and mpih-sub1.S in one check, whose latent bug (the int
#            size counted in all of rcx) must be reported as the guard-page finding it is;
#   kernel-ctr-as-ecb: the CTR entry point named with --op ecb must be refused before anything
#            runs (it computes CTR on the first known answer), never checked as ECB;
#   mpi-planted: the library with one line of mpi/amd64/mpih-add1.S broken (mpi_plant.sh; the
#            build compiles it as mpi/mpih-add1-asm.S) must be caught through its API (FAMILY
#            mpi);
#   gcm-planted: the library with one line of cipher/cipher-gcm.c broken (gcm_plant.sh: the
#            counter's upper 96 bits not restored after the 32-bit wrap) must be caught through
#            its API at every level, by the gcm family's counter-block cases (FAMILY gcm).
# Every mode judges the check's JSON records (verify/expect_records.py: the rows, the verdict),
# the emu-diff run its result stream, never the printed text.
# Without network or compilers for the library the test skips (77) naming what failed; under
# ASMDIFF_STRICT=1 that is an error.
set -u
# libgcrypt's guards: HWF_INTEL_AVX512 (src/hwf-x86.c) is AVX512 F, DQ, CD, BW, VL, IFMA, VBMI,
# VBMI2, VNNI, BITALG and VPOPCNTDQ together (its AVX-512 entry points open with
# spec_stop_avx512's vpopcntb, BITALG): of those, the ones cpu.h names
h512=avx512f,avx512bw,avx512dq,avx512vl,avx512vbmi,avx512bitalg
expect() { python3 "$top/verify/expect_records.py" "$@"; }
mode=$1 family=$2 budget=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/verify/missing.sh"
cache=${ASMDIFF_BUILD:?}/lib-cache
# Whether this CPU has AVX-512 (F, BW, VL) and GFNI: machines of CI's kind without them occur.
# There libgcrypt's own dispatch never takes its GFNI/AVX-512 ARIA path, where aria_plant.sh's
# line is (the planted library then computes right: nothing to catch), and no CPU side exists
# for emu-diff to compare the executor with.
cpu_has_avx512_gfni() {
  local f
  for f in avx512f avx512bw avx512vl gfni; do grep -qw "$f" /proc/cpuinfo || return 1; done
}
if [ "$mode" = planted ] && [ "$family" = aria ] && ! cpu_has_avx512_gfni; then
  echo "SKIP: the planted line is in libgcrypt's GFNI/AVX-512 ARIA path, which its own dispatch" \
       "takes only on a CPU with AVX-512 and GFNI: this CPU lacks them"
  exit 77
fi
log=$(mktemp)
# the planted modes: which one-line plant (sourced: plant_file, plant_find, plant_replace)
plant=""
case $mode in
  planted|kernel-planted)        plant=aria_plant.sh ;;
  mpi-planted)                   plant=mpi_plant.sh ;;
  gcm-planted)                   plant=gcm_plant.sh ;;
  camellia-kernel-planted)       plant=camellia_plant.sh ;;
  chacha-kernel-avx2-planted)    plant=chacha_plant.sh ;;
  poly1305-kernel-avx512-planted) plant=poly1305_plant.sh ;;
  chacha-kernel-avx512-k1-cleared) plant=chacha_k1_plant.sh ;;
esac
if [ -n "$plant" ]; then
  . "$here/$plant"
  prefix=$("$top/tools/build_libgcrypt" --plant "$plant_file" "$plant_find" "$plant_replace" "$cache" 2>"$log")
else
  prefix=$("$top/tools/build_libgcrypt" "$cache" 2>"$log")
fi
rc=$?
if [ $rc != 0 ]; then
  tail -n 20 "$log"; rm -f "$log"
  missing "libgcrypt 1.12 could not be built here (tools/build_libgcrypt exit $rc, above)" \
    "tools/build_libgcrypt (Debian's source package, built by the slow set)"
fi
rm -f "$log"
echo "libgcrypt: $prefix"
case $mode in
  not-implemented)
    expect verdict=findings "row:'$family libgcrypt' result=FAIL" "no row:'$family fuzz ${budget}s'" -- \
      python3 "$top/tools/asmdiff_cmd.py" check --libgcrypt "$prefix" "$family" --budget "$budget"
    exit $? ;;
  polyval-kernel-*)
    # cipher/cipher-gcm-riscv-zvkg.c (RVV intrinsics) in a riscv64 check build, beside our
    # stand-ins for the headers it includes with quotes (verify/outside/libgcrypt-riscv) and the
    # tree's own simd-common-riscv.h; fraclmul: the post-patch copy made from it here
    src=$(ls -d "$cache"/src/libgcrypt20-*/ | head -n1)
    file=$src/cipher/cipher-gcm-riscv-zvkg.c
    if [ "$mode" != polyval-kernel-shipped ]; then
      work=$(mktemp -d)
      plant=""
      [ "$mode" = polyval-kernel-fraclmul-planted ] && plant=--plant
      python3 "$here/polyval_fraclmul_patch.py" $plant "$file" "$work/cipher-gcm-riscv-zvkg.c" || exit 1
      file=$work/cipher-gcm-riscv-zvkg.c
    fi
    cmd=(python3 "$top/tools/asmdiff_cmd.py" check polyval --arch riscv64 --kernel "$file"
         --symbol _gcry_polyval_riscv_zvkg --convention libgcrypt --needs v,zvkg
         --include "$here/libgcrypt-riscv"
         --beside "$here/libgcrypt-riscv/cipher-internal.h" --beside "$here/libgcrypt-riscv/g10lib.h"
         --beside "$src/cipher/simd-common-riscv.h" --budget "$budget")
    if [ "$mode" = polyval-kernel-fraclmul-planted ]; then
      # mf8 one step too early: wrong at VLEN 512 alone
      expect verdict=findings 'row:"vlen512 kat" result=FINDING finding.kind=MISMATCH' \
        'row:"vlen256 kat" result=pass' 'row:"vlen1024 kat" result=pass' -- "${cmd[@]}"
      exit $?
    fi
    expect verdict=clean 'row:"vlen128 kat" result=pass' 'row:"vlen1024 random" result=pass' -- \
      "${cmd[@]}"
    exit $? ;;
  ghash-kernel-*|polyval-pclmul-*)
    # cipher/cipher-gcm-intel-pclmul.c (C with inline assembly) in the ghash or the polyval
    # family's libgcrypt convention (fuzz/conventions/libgcrypt_ghash.c, libgcrypt_polyval.c,
    # both on libgcrypt_gcm_intel.h), built beside our stand-ins for the headers it includes
    # with quotes (the handle holds only the members the file reads).  Its one global function,
    # the setup, stores the file's two static updates, GHASH's and POLYVAL's; per case the
    # convention calls the setup with the row's hw_features (--op: pclmul, vpclmul-avx2,
    # vpclmul-avx512), then the update it stored: three kernels of one check, each held to
    # libgcrypt's guard for its path (--needs: HWF_INTEL_PCLMUL and the pshufb's SSSE3; with
    # HWF_INTEL_VAES_VPCLMUL and AVX2; with HWF_INTEL_AVX512 too); the check runs them natively
    # and again emulated (the needs' AVX-512, VAES, VPCLMULQDQ and PCLMULQDQ masked: in the
    # vector executor).  GHASH's symbol is the setup; POLYVAL's the static update itself, as a
    # user names it (the check build makes it global; the setup is found beside it).
    # ghash-kernel-planted: the AVX-512 setup's reduction constant (gcm_lsh_avx512's, the x^128
    # fold of H^n <<< 1 for the 32-block table) broken in its first lane, which only the
    # vpclmul-avx512 row's calls of 32 blocks or more use.  polyval-pclmul-planted: the POLYVAL
    # update's hash stored without its byte swap back (be => le), a byte-order bug in the code
    # every POLYVAL call of every row ends with and GHASH's rows never run
    src=$(ls -d "$cache"/src/libgcrypt20-*/ | head -n1)
    file=$src/cipher/cipher-gcm-intel-pclmul.c
    case $mode in
      ghash-kernel-planted)
        plant_at=("gcm_lsh_avx512(void *h, unsigned int hoffs)"
                  "U64_C(0x0000000000000001), U64_C(0xc200000000000000),"
                  "U64_C(0x0000000000000001), U64_C(0xc100000000000000), /* planted */") ;;
      polyval-pclmul-planted)
        plant_at=("gfmul_pclmul_aggr4_le (buf, c->u_mode.gcm.u_ghash_key.key,"
                  'asm volatile ("pshufb %[be_mask], %%xmm1\n\t" /* be => le */'
                  'asm volatile (/* planted: the hash stored without its be => le swap */') ;;
      *) plant_at=() ;;
    esac
    if [ ${#plant_at[@]} != 0 ]; then
      work=$ASMDIFF_BUILD/check/$mode
      mkdir -p "$work"
      python3 "$here/plant.py" "$file" "$work/cipher-gcm-intel-pclmul.c" "${plant_at[@]}" || exit 1
      file=$work/cipher-gcm-intel-pclmul.c
    fi
    fam=ghash s=_gcry_ghash_setup_intel_pclmul
    case $mode in polyval-*) fam=polyval s=_gcry_polyval_intel_pclmul ;; esac
    n1=pclmul,ssse3 n2=pclmul,ssse3,avx2,vaes,vpclmulqdq
    n5=$n2,$h512
    [ "$mode" = ghash-kernel-avx512-under-declared ] && n5=$n2
    cmd=(python3 "$top/tools/asmdiff_cmd.py" check $fam --convention libgcrypt
         --kernel "$file" --symbol $s --op pclmul --needs $n1
         --kernel "$file" --symbol $s --op vpclmul-avx2 --needs $n2
         --kernel "$file" --symbol $s --op vpclmul-avx512 --needs $n5
         --include "$here/libgcrypt-amd64" --budget "$budget")
    # the stand-ins are the conventions' own (fuzz/conventions/libgcrypt-amd64: they read the
    # handle's layout and the hardware bits from them too)
    for h in cipher-internal.h g10lib.h cipher.h bufhelp.h; do
      cmd+=(--beside "$top/fuzz/conventions/libgcrypt-amd64/$h")
    done
    if [ "$mode" = ghash-kernel-avx512-under-declared ]; then
      # the vpclmul-avx512 row held to the avx2 row's guard (no HWF_INTEL_AVX512): its first
      # EVEX instruction (the spec stop's vpopcntb, or the zmm loads) is beyond those features,
      # which the ISA-subset stage must name; the rows the needs are honest for stay clean
      expect verdict=findings \
        "row:'cpu features (seeds)' kernel=$s@vpclmul-avx512 result=FINDING 'finding.kind=BEYOND ITS CPU FEATURES' 'detail~needs AVX512'" \
        "row:'cpu features (seeds)' kernel=$s@pclmul result=pass calls>0" \
        "row:'cpu features (seeds)' kernel=$s@vpclmul-avx2 result=pass calls>0" \
        -- "${cmd[@]}"
      exit $?
    fi
    if [ ${#plant_at[@]} != 0 ]; then
      if [ "$mode" = ghash-kernel-planted ]; then
        # caught on the avx512 row alone, by the first stage with calls of 32 blocks or more
        # (the seeds: the known answers are shorter)
        caught=("row:'replay (seeds)' kernel=$s@vpclmul-avx512 result=FINDING finding.kind=MISMATCH finding.implementation=$s@vpclmul-avx512"
                "row:'replay (seeds)' kernel=$s@pclmul result=pass calls>0"
                "row:'replay (seeds)' kernel=$s@vpclmul-avx2 result=pass calls>0"
                "row:kat kernel=$s@vpclmul-avx512 result=pass calls>0")
      else
        # caught on every row by the known answers (RFC 8452's of 4 blocks or more)
        caught=()
        for op in pclmul vpclmul-avx2 vpclmul-avx512; do
          caught+=("row:kat kernel=$s@$op result=FINDING finding.kind=MISMATCH finding.implementation=$s@$op")
        done
      fi
      # natively, and then with every feature of the three rows masked (each kernel in the
      # vector executor)
      expect verdict=findings "${caught[@]}" -- "${cmd[@]}" --fail-fast || exit 1
      mask=-pclmul,-vaes,-vpclmulqdq,-avx512f,-avx512bw,-avx512dq,-avx512vl,-avx512vbmi,-avx512bitalg
      ASMDIFF_CPU_MASK=$mask expect verdict=findings "${caught[@]}" -- "${cmd[@]}" --fail-fast
      exit $?
    fi
    rows=()
    for op in pclmul vpclmul-avx2 vpclmul-avx512; do
      for st in kat exhaustive random "fuzz ${budget}s"; do
        rows+=("row:'$st' kernel=$s@$op result=pass calls>0"
               "row:* 'stage~^$st \\(emulated, ' kernel=$s@$op result=pass calls>0")
      done
    done
    expect verdict=clean "${rows[@]}" \
      "every row:* result=pass calls>0 where kernel~^$s stage!=build stage!=operations" -- \
      "${cmd[@]}"
    exit $? ;;
  camellia-kernel-*|mpi-kernel-*|aes-kernel-*|chacha-kernel-*|poly1305-kernel-*)
    # the Camellia and mpi files of the library's tree as outside kernels (fuzz/camellia.c,
    # fuzz/mpi.c: the libgcrypt conventions); the entry points of one file are the kernels of
    # one check build (each with its own rows and calls); FAMILY and BUDGET as for the others
    clean=$("$top/tools/build_libgcrypt" "$cache" 2>/dev/null)
    src=$(ls -d "$cache"/src/libgcrypt20-*/ | head -n1)
    a512=$h512,gfni
    c512=cipher/camellia-gfni-avx512-amd64.S c2=cipher/camellia-gfni-avx2-amd64.S
    with=()
    case $mode in   # file, then symbol and needs per kernel
      camellia-kernel-avx512)  file=$c512 kernels=(_gcry_camellia_gfni_avx512_enc_blk64 $a512
                                    _gcry_camellia_gfni_avx512_dec_blk64 $a512
                                    _gcry_camellia_gfni_avx512_ctr_enc $a512) ;;
      camellia-kernel-planted) file=$c512 kernels=(_gcry_camellia_gfni_avx512_enc_blk64 $a512) ;;
      camellia-kernel-avx2)    file=$c2 kernels=(_gcry_camellia_gfni_avx2_enc_blk1_32 avx2,gfni
                                  _gcry_camellia_gfni_avx2_dec_blk1_32 avx2,gfni
                                  _gcry_camellia_gfni_avx2_ctr_enc avx2,gfni) ;;
      mpi-kernel-add-sub)  file="" kernels=(_gcry_mpih_add_n "" _gcry_mpih_sub_n "") ;;
      # the VAES paths: AES-NI, AVX2 and HWF_INTEL_VAES_VPCLMUL (VAES and VPCLMULQDQ); the
      # XTS code's single-lane vpclmulqdq on xmm is PCLMULQDQ, which that guard does not ask for
      aes-kernel-vaes-avx2) file=cipher/rijndael-vaes-avx2-amd64.S v2=aesni,pclmul,avx2,vaes,vpclmulqdq
                 kernels=(_gcry_vaes_avx2_ecb_crypt_amd64 $v2 _gcry_vaes_avx2_cbc_dec_amd64 $v2
                          _gcry_vaes_avx2_ctr_enc_amd64 $v2 _gcry_vaes_avx2_xts_crypt_amd64 $v2) ;;
      aes-kernel-vaes-avx512) file=cipher/rijndael-vaes-avx512-amd64.S v5=aesni,pclmul,$h512,vaes,vpclmulqdq
                 with=(--with "$src/cipher/rijndael-vaes-avx2-amd64.S")
                 kernels=(_gcry_vaes_avx512_ecb_crypt_amd64 $v5 _gcry_vaes_avx512_cbc_dec_amd64 $v5
                          _gcry_vaes_avx512_ctr_enc_amd64 $v5 _gcry_vaes_avx512_xts_crypt_amd64 $v5) ;;
      # ChaCha20 (fuzz/conventions/libgcrypt_chacha.c): chacha20.c takes each file on
      # HWF_INTEL_SSSE3, HWF_INTEL_AVX2, HWF_INTEL_AVX512
      chacha-kernel-ssse3) file=cipher/chacha20-amd64-ssse3.S
                 kernels=(_gcry_chacha20_amd64_ssse3_blocks4 ssse3 _gcry_chacha20_amd64_ssse3_blocks1 ssse3) ;;
      chacha-kernel-avx2) file=cipher/chacha20-amd64-avx2.S
                 kernels=(_gcry_chacha20_amd64_avx2_blocks8 avx2) ;;
      chacha-kernel-stitched-refused) file=cipher/chacha20-amd64-avx2.S
                 kernels=(_gcry_chacha20_poly1305_amd64_avx2_blocks8 avx2) ;;
      chacha-kernel-avx2-planted) file=cipher/chacha20-amd64-avx2.S
                 kernels=(_gcry_chacha20_amd64_avx2_blocks8 avx2) ;;
      chacha-kernel-avx512) file=cipher/chacha20-amd64-avx512.S
                 kernels=(_gcry_chacha20_amd64_avx512_blocks $h512) ;;
      chacha-kernel-avx512-k1-cleared) file=cipher/chacha20-amd64-avx512.S
                 kernels=(_gcry_chacha20_amd64_avx512_blocks $h512) ;;
      # Poly1305 (fuzz/conventions/libgcrypt_poly1305.c): poly1305.c on HWF_INTEL_AVX512, of
      # which the IFMA it multiplies with
      poly1305-kernel-avx512) file=cipher/poly1305-amd64-avx512.S
                 kernels=(_gcry_poly1305_amd64_avx512_blocks $h512,avx512ifma) ;;
      poly1305-kernel-avx512-planted) file=cipher/poly1305-amd64-avx512.S
                 kernels=(_gcry_poly1305_amd64_avx512_blocks $h512,avx512ifma) ;;
      poly1305-kernel-avx512-r2-zeros) file=cipher/poly1305-amd64-avx512.S
                 kernels=(_gcry_poly1305_amd64_avx512_blocks $h512,avx512ifma) ;;
      *) echo "libgcrypt_suite.sh: no mode $mode" >&2; exit 2 ;;
    esac
    cmd=(python3 "$top/tools/asmdiff_cmd.py" check "${mode%%-*}" ${with[@]+"${with[@]}"})
    syms=()
    for ((i = 0; i < ${#kernels[@]}; i += 2)); do
      sym=${kernels[i]} needs=${kernels[i+1]}
      f=$file
      case $sym in _gcry_mpih_add_n) f=mpi/amd64/mpih-add1.S ;; _gcry_mpih_sub_n) f=mpi/amd64/mpih-sub1.S ;; esac
      path=$src/$f
      # a planted mode's file: the copy in its planted build
      [ -n "$plant" ] && path=$prefix.build/$f
      cmd+=(--kernel "$path" --symbol "$sym" ${needs:+--needs "$needs"})
      syms+=("$sym")
    done
    cmd+=(--include "$clean.build" --include "$clean.build/mpi" --include "$src/${f%/*}"
          --include "$src/mpi" --budget "$budget")
    case $mode in
      camellia-kernel-planted)
        expect verdict=findings \
          "row:kat result=FINDING finding.kind=MISMATCH finding.implementation=${syms[0]}" -- \
          "${cmd[@]}" --fail-fast
        exit $? ;;
      chacha-kernel-stitched-refused)
        # the stitched ChaCha20-Poly1305 function is refused before anything runs (its name
        # ends like blocks8's, and it takes two more arguments), never checked as blocks8
        expect verdict=findings \
          "row:operations result=FAIL 'detail~computes ChaCha20 and Poly1305 in one call'" \
          "no row:kat" -- "${cmd[@]}"
        exit $? ;;
      chacha-kernel-avx512)
        # a finding test: libgcrypt 1.12.4's AVX-512 ChaCha20 leaves opmask k1 all ones (its
        # kxnorq constant; it clears k2 and the vector registers), which the libgcrypt
        # convention's clean-registers rule reports (docs/chacha.md).  Everything else must
        # hold: every finding is that one, and the output stages ran every case with calls
        # (a wrong output would be a MISMATCH finding of its own row)
        s=${syms[0]}
        expect verdict=findings \
          "row:kat kernel=$s result=FINDING 'finding.kind=REGISTER RESIDUE' 'detail~k1 not cleared' calls>0" \
          "every row:* 'detail~k1 not cleared: holds data' where result=FINDING" \
          "row:exhaustive kernel=$s calls>0" "row:random kernel=$s calls>0" \
          "row:'unicorn bounds (seeds)' kernel=$s calls>0" \
          "row:'checked call' result=pass" "row:'stack leftovers' result=pass" \
          "row:'guard pages' result=pass" -- "${cmd[@]}"
        exit $? ;;
      poly1305-kernel-avx512-r2-zeros)
        # a finding test: libgcrypt 1.12.4's IFMA Poly1305 gives a wrong tag for the stored
        # input (found by the check's 5 s of libFuzzer, 2026-12-05): key r = 2, s = 0, 8203 zero
        # bytes in one update, the tag off by 2^45 (bytes 5..11); the library's own
        # gcry_mac_* POLY1305 gives the same wrong tag, and the right one with intel-avx512
        # disabled (docs/poly1305.md); every other implementation of the family agrees with
        # the reference on it (replay-poly1305 has no such seed: the clean check would then fail)
        expect --stream --exit 1 \
          "finding implementation=${syms[0]} check=mismatch operation=mac" -- \
          "${cmd[@]}" "$here/fixtures/poly1305-gcrypt-ifma-r2-zeros.input"
        exit $? ;;
      poly1305-kernel-avx512)
        # libgcrypt 1.12.4's IFMA Poly1305 has a wrong-tag bug (the r2-zeros test below holds
        # its stored input): the deterministic stages must all pass with calls, and the 5-10 s
        # of libFuzzer meet that bug now and then (1 check in 8 here), so the one finding this
        # test lets through is a MISMATCH of a fuzz stage; anything else fails it.  A fuzz row
        # is either a pass with calls or that finding (a finding's row counts no calls: the
        # fuzzer stopped at it)
        s=${syms[0]}
        expect "row:kat kernel=$s result=pass calls>0" "row:exhaustive kernel=$s result=pass calls>0" \
          "row:'replay (seeds)' kernel=$s result=pass calls>0" "row:random kernel=$s result=pass calls>0" \
          "row:'fuzz ${budget}s' kernel=$s" \
          "no row:* 'stage~^fuzz' result!=pass result!=FINDING" \
          "no row:* 'stage~^fuzz' result=pass calls=null" "no row:* 'stage~^fuzz' result=pass calls=0" \
          "no row:* result=FINDING finding.kind!=MISMATCH" \
          "no row:* result=FINDING 'stage~^(kat|exhaustive|replay|random|unicorn|cpu)'" \
          "row:'vector leftovers' result=pass" "row:'checked call' result=pass" \
          "row:'guard pages' result=pass" -- "${cmd[@]}"
        exit $? ;;
      chacha-kernel-avx2-planted|poly1305-kernel-avx512-planted)
        # caught on the known answers (every ChaCha case calls the 8-block function; RFC 8439
        # A.3's 375-byte Poly1305 vector reaches the vector path)
        expect verdict=findings \
          "row:kat result=FINDING finding.kind=MISMATCH finding.implementation=${syms[0]}" -- \
          "${cmd[@]}" --fail-fast
        exit $? ;;
      mpi-kernel-*)
        # libgcrypt 1.12.4's latent bug (docs/check-your-patch.md): the int size counted in all
        # of rcx, so the loop runs past the last limb when the caller leaves junk above it; in
        # both files, each kernel's own rows (the fuzz stage too: run again without the kernel
        # whose finding stopped it)
        found=()
        for s in _gcry_mpih_add_n _gcry_mpih_sub_n; do
          found+=("row:kat kernel=$s result=FINDING 'finding.kind=GUARD PAGE' finding.implementation=$s"
                  "row:'fuzz ${budget}s' kernel=$s result=FINDING 'finding.kind=GUARD PAGE'")
        done
        expect verdict=findings "${found[@]}" -- "${cmd[@]}"
        exit $? ;;
    esac
    rows=()
    for s in "${syms[@]}"; do
      rows+=("row:kat kernel=$s result=pass calls>0" "row:exhaustive kernel=$s result=pass")
      # ChaCha20 and Poly1305: the libFuzzer stage called each entry point too
      case $mode in chacha-*|poly1305-*)
        rows+=("row:'fuzz ${budget}s' kernel=$s result=pass calls>0") ;;
      esac
    done
    expect verdict=clean "${rows[@]}" "row:'vector leftovers' result=pass" -- "${cmd[@]}"
    exit $? ;;
  kernel-*)
    # the file as the library's tree has it, with that tree's headers and its build's config.h
    clean=$("$top/tools/build_libgcrypt" "$cache" 2>/dev/null)
    src=$(ls -d "$cache"/src/libgcrypt20-*/ | head -n1)
    file=$src/cipher/aria-gfni-avx512-amd64.S
    [ "$mode" = kernel-planted ] && file=$prefix.build/cipher/aria-gfni-avx512-amd64.S
    ecb=_gcry_aria_gfni_avx512_ecb_crypt_blk64 ctr=_gcry_aria_gfni_avx512_ctr_crypt_blk64
    # kernel-ecb-ctr*: both entry points, kernels of one check build; the others one of them
    case $mode in
      kernel-ecb-ctr*) syms=("$ecb" "$ctr") ;;
      kernel-ctr*)     syms=("$ctr") ;;
      *)               syms=("$ecb") ;;
    esac
    sym=${syms[0]}
    cmd=(python3 "$top/tools/asmdiff_cmd.py" check aria)
    for s in "${syms[@]}"; do cmd+=(--kernel "$file" --symbol "$s"); done
    cmd+=(--include "$clean.build" --include "$src/cipher" --needs "$h512,gfni"
          --budget "$budget")
    # the verdict rows to see: one kernel's passed; two kernels' each passed with its calls
    rows=()
    for row in kat exhaustive random; do
      if [ ${#syms[@]} = 1 ]; then rows+=("row:$row result=pass")
      else for s in "${syms[@]}"; do rows+=("row:$row kernel=$s result=pass calls>0"); done
      fi
    done
    if [ "$mode" = kernel-ctr-as-ecb ]; then
      expect verdict=findings \
        "row:operations result=FAIL 'detail~computes ctr on the first known answer, not ecb'" \
        -- "${cmd[@]}" --op ecb
      exit $?
    fi
    if [ "$mode" = kernel-planted ]; then
      expect verdict=findings "row:kat result=FINDING finding.kind=MISMATCH finding.implementation=$sym" \
        -- "${cmd[@]}" --fail-fast
      exit $?
    fi
    if [ "${mode%-emulated}" != "$mode" ]; then
      ASMDIFF_CPU_MASK=-avx512f,-gfni expect verdict=clean "${rows[@]}" \
        "row:'vector leftovers' result=pass" -- "${cmd[@]}" || exit 1
      if ! cpu_has_avx512_gfni; then
        echo "emulated: clean as natively expected; emu-diff not run: this CPU lacks AVX-512 or" \
             "GFNI, so there is no CPU side to compare the executor with"
        exit 0
      fi
      # the check build's tool for this file without --op (other tests of the suite build the
      # same symbol from the planted copy, or with --op, at the same time: the newest folder
      # may be theirs), on the CPU
      # and in the executor from the same state, call for call
      tool=$(python3 - "$ASMDIFF_BUILD/check" "${#syms[@]}" "$sym" "$(readlink -f "$file")" <<'PY'
import glob, json, os, sys
top, n, sym, src = sys.argv[1:]
n = int(n)
for d in sorted(glob.glob(os.path.join(top, f"aria-{sym}*")), key=os.path.getmtime, reverse=True):
    try:
        opts = {o["name"]: o["value"] for o in
                json.load(open(os.path.join(d, "meson-info", "intro-buildoptions.json")))}
    except (OSError, ValueError):
        continue
    exe = os.path.join(d, "asmdiff-aria-outside")
    if opts.get("outside_source") == [f"{i}|{src}" for i in range(n)] and \
            opts.get("outside_op") == [f"{i}|" for i in range(n)] and \
            os.access(exe, os.X_OK):
        print(exe)
        break
PY
)
      [ -n "$tool" ] || { echo "emu-diff FAILED: no check build of $file found"; exit 1; }
      # its result stream: exit 0, calls compared, no finding (run natively, as the tool
      # always was here: no host profile's runner)
      ASMDIFF_RUNNER= expect --stream --exit 0 "summary exit=0 compared_calls>0" "no finding" \
        -- "$tool" emu-diff random 3000 1 || { echo "emu-diff FAILED"; exit 1; }
      echo "emulated: clean as native, and emu-diff agrees with the CPU"
      exit 0
    fi
    expect verdict=clean "${rows[@]}" "row:'vector leftovers' result=pass" -- "${cmd[@]}"
    exit $? ;;
esac
cmd=(python3 "$top/tools/asmdiff_cmd.py" check --libgcrypt "$prefix" "$family" --budget "$budget")
# the library's levels are rows of their own ("FAMILY libgcrypt every feature"), no kernel's
if [ "$mode" = mpi-planted ]; then
  exec python3 "$top/verify/expect_records.py" verdict=findings \
    "row:'mpi libgcrypt every feature' result=FINDING finding.kind=MISMATCH finding.implementation~^libgcrypt" \
    -- "${cmd[@]}"
fi
if [ "$mode" = gcm-planted ]; then
  # every level: x86's libgcrypt has no bulk GCM function, every payload goes through
  # gcm_ctr_encrypt (its AES-NI/VAES CTR under it)
  exec python3 "$top/verify/expect_records.py" verdict=findings \
    "row:'gcm libgcrypt every feature' result=FINDING finding.kind=MISMATCH finding.implementation~^libgcrypt-full" \
    "row:'gcm libgcrypt without any' result=FINDING finding.kind=MISMATCH" \
    -- "${cmd[@]}"
fi
if [ "$mode" = planted ]; then
  exec python3 "$top/verify/expect_records.py" verdict=findings \
    "row:'$family libgcrypt every feature' result=FINDING finding.kind=MISMATCH finding.implementation~^libgcrypt-full" \
    -- "${cmd[@]}"
fi
exec python3 "$top/verify/expect_records.py" verdict=clean \
  "row:'$family libgcrypt every feature' result=pass 'detail~libgcrypt 1\.12'" \
  "row:'$family libgcrypt without any' result=pass" -- "${cmd[@]}"
