"""homes.py — the homes table: every upstream file asmdiff knows how to check, by its path in
its own tree (`./asmdiff check --changes`, docs/check-your-patch.md "Check every changed kernel
of a commit range").

A row says what `./asmdiff check` needs to be told about the file: its family, the convention
its entry points are written in (the family's `conventions` rows, fuzz/<family>.c and
fuzz/conventions/), the entry points (symbols) with the CPU features each needs (the upstream
glue's CPU guard, as the slow suites declare it; "" for none, or for the needs the convention
declares itself), the include folders (relative to the tree), our compatibility folders
(verify/outside/NAME: stand-ins for what the upstream build generates), the files it calls
into (`--with`) and the files it includes with quotes that the check copies beside it
(`--beside`: "ours:NAME/FILE" one of verify/outside's, "conv:NAME/FILE" a convention's own
stand-in under fuzz/conventions), and the architecture.

The rows are those the slow suites check (suites linux-6.12 and libgcrypt-1.12,
verify/outside/meson.build, linux_suite.sh, libgcrypt_suite.sh: Linux 6.12's x86 and RISC-V
files, libgcrypt 1.12.4's); tools/asmdiff/test_cli.py (HomesAgree) holds the table to the
suites' own definitions, symbol for symbol and need for need, so neither can change alone.
OpenSSL trees are recognised and have no rows yet.  Nor has a perlasm script (Linux's
poly1305-x86_64-cryptogams.pl): its kernel is what perl writes, and `--changes` does not run
perl yet, so such a file is a kernel source with no row (the suites generate it: perlasm.sh).

A file of a recognised tree that is not in the table is still told apart: a kernel source
(KERNEL_SOURCE's patterns: assembly, perlasm, intrinsics in C) with no row yet, or not a kernel
source at all."""
import re

# the tree kinds, each by the names its top folder holds at the commit checked
TREES = {
    "linux": ("Linux", ("Kbuild", "arch/")),
    "libgcrypt": ("libgcrypt", ("cipher/", "src/gcrypt.h.in")),
    "openssl": ("OpenSSL", ("crypto/", "Configure")),
}

# what a kernel source is, per tree: the files whose change can change what a kernel computes
# (a header they include is not one: the files that include it are, when they change)
KERNEL_SOURCE = {
    "linux": re.compile(r"^(arch/[^/]+/crypto|arch/[^/]+/lib/crypto|lib/crypto)/(.+/)?"
                        r"[^/]+\.(S|s|pl)$"),
    "libgcrypt": re.compile(r"^(cipher|mpi|random)/(.+/)?[^/]+\.(S|s)$|"
                            r"^cipher/[^/]*(riscv|intel|amd64|aarch64|armv8|arm|ppc|p10le|"
                            r"s390x|neon|avx|ssse3|sse|vaes|gfni|zv)[^/]*\.c$"),
    "openssl": re.compile(r"^(crypto|providers)/(.+/)?asm/[^/]+\.(pl|S|s)$|"
                          r"^crypto/(.+/)?[^/]+\.(S|s)$"),
}


def home(family, convention, kernels, include=(), ours=(), with_=(), beside=(), arch="x86_64"):
    """One row.  kernels: [(symbol, needs)]; include: the tree's folders; ours: folders under
    verify/outside; with_: tree files linked beside each entry point (--with); beside: files
    copied next to the kernel (riscv64's --beside), "ours:NAME/FILE" for one of ours."""
    return {"family": family, "convention": convention,
            "kernels": [(s, n) for s, n in kernels], "include": list(include),
            "ours": list(ours), "with": list(with_), "beside": list(beside), "arch": arch}


# Linux's glue guards (arch/x86/crypto/*_glue.c), as the linux-6.12 suite declares them
_A512 = "avx512f,avx512bw,avx512dq,avx512vl,gfni"
_V2 = "aesni,pclmul,avx2,vaes,vpclmulqdq"
_V512 = _V2 + ",avx512bw,avx512vl,bmi2"
# aes-gcm-aesni-x86_64.S's own statement of its needs (the glue's guard is AES-NI alone)
_GA = "aesni,pclmul,ssse3,sse4.1"
# libgcrypt's HWF_INTEL_AVX512 (src/hwf-x86.c), the features of it cpu.h names
_H512 = "avx512f,avx512bw,avx512dq,avx512vl,avx512vbmi,avx512bitalg"


def _linux(family, kernels, **kw):
    return home(family, "linux", kernels, ours=["linux-compat"], **kw)


def _gcrypt(family, kernels, folder="cipher", **kw):
    return home(family, "libgcrypt", kernels, include=[folder], ours=["libgcrypt-amd64"], **kw)


_XA = "arch/x86/crypto/"
_RA = "arch/riscv/crypto/"
HOMES = {
    "linux": {
        _XA + "aria-aesni-avx-asm_64.S": _linux("aria", [
            ("aria_aesni_avx_encrypt_16way", "avx,aesni"),
            ("aria_aesni_avx_decrypt_16way", "avx,aesni"),
            ("aria_aesni_avx_ctr_crypt_16way", "avx,aesni")]),
        _XA + "aria-aesni-avx2-asm_64.S": _linux("aria", [
            ("aria_aesni_avx2_encrypt_32way", "avx2,aesni"),
            ("aria_aesni_avx2_decrypt_32way", "avx2,aesni"),
            ("aria_aesni_avx2_ctr_crypt_32way", "avx2,aesni"),
            ("aria_aesni_avx2_gfni_encrypt_32way", "avx2,gfni"),
            ("aria_aesni_avx2_gfni_ctr_crypt_32way", "avx2,gfni")]),
        _XA + "aria-gfni-avx512-asm_64.S": _linux("aria", [
            ("aria_gfni_avx512_encrypt_64way", _A512),
            ("aria_gfni_avx512_decrypt_64way", _A512),
            ("aria_gfni_avx512_ctr_crypt_64way", _A512)]),
        _XA + "camellia-aesni-avx-asm_64.S": _linux("camellia", [
            ("camellia_ecb_enc_16way", "avx,aesni"), ("camellia_ecb_dec_16way", "avx,aesni")]),
        _XA + "camellia-aesni-avx2-asm_64.S": _linux("camellia", [
            ("camellia_ecb_enc_32way", "avx2,aesni"), ("camellia_ecb_dec_32way", "avx2,aesni")]),
        _XA + "nh-sse2-x86_64.S": _linux("nh", [("nh_sse2", "sse2")]),
        _XA + "nh-avx2-x86_64.S": _linux("nh", [("nh_avx2", "avx2")]),
        _XA + "aes-xts-avx-x86_64.S": _linux("aes", [
            ("aes_xts_encrypt_iv", "avx,aesni"),
            ("aes_xts_encrypt_aesni_avx", "avx,aesni"),
            ("aes_xts_decrypt_aesni_avx", "avx,aesni"),
            ("aes_xts_encrypt_vaes_avx2", _V2), ("aes_xts_decrypt_vaes_avx2", _V2),
            ("aes_xts_encrypt_vaes_avx10_256", _V512), ("aes_xts_decrypt_vaes_avx10_256", _V512),
            ("aes_xts_encrypt_vaes_avx10_512", _V512), ("aes_xts_decrypt_vaes_avx10_512", _V512)]),
        _XA + "aes_ctrby8_avx-x86_64.S": _linux("aes", [
            ("aes_ctr_enc_128_avx_by8", "avx,aesni"), ("aes_ctr_enc_192_avx_by8", "avx,aesni"),
            ("aes_ctr_enc_256_avx_by8", "avx,aesni")]),
        _XA + "aesni-intel_asm.S": _linux("aes", [
            ("aesni_ecb_enc", "aesni"), ("aesni_ecb_dec", "aesni"), ("aesni_cbc_dec", "aesni"),
            # its counter's byte swap is pshufb (SSSE3): every AES-NI CPU has it
            ("aesni_ctr_enc", "aesni,ssse3")]),
        # the convention declares pclmul,avx (fuzz/conventions/linux_polyval.c)
        _XA + "polyval-clmulni_asm.S": _linux("polyval", [
            ("clmul_polyval_update", ""), ("clmul_polyval_mul", "")]),
        # the convention declares pclmul,ssse3 (fuzz/conventions/linux_ghash.c: the glue checks
        # PCLMULQDQ alone, the byte reversal is pshufb); clmul_ghash_update's default row keeps
        # the prototype's unsigned int srclen, which the file reads from all of rdx: a finding
        _XA + "ghash-clmulni-intel_asm.S": _linux("ghash", [
            ("clmul_ghash_update", ""), ("clmul_ghash_mul", "")]),
        _RA + "ghash-riscv64-zvkg.S": _linux("ghash", [
            ("ghash_zvkg", "")], arch="riscv64"),
        # the gcm family's linux convention (fuzz/conventions/linux_gcm.c): each level's
        # enc_update names its row, the file's other entry points are taken by name; the AVX10
        # widths held to the glue's guard, the AES-NI ones to what the file says it needs
        # (the glue checks AES-NI alone, and AVX for aesni_avx)
        _XA + "aes-gcm-avx10-x86_64.S": _linux("gcm", [
            ("aes_gcm_enc_update_vaes_avx10_512", _V512),
            ("aes_gcm_enc_update_vaes_avx10_256", _V512)]),
        _XA + "aes-gcm-aesni-x86_64.S": _linux("gcm", [
            ("aes_gcm_enc_update_aesni", _GA), ("aes_gcm_enc_update_aesni_avx", "aesni,pclmul,avx")]),
        # each held to its glue's check (AVX-512VL and AVX512BW): fuzz/conventions/linux_chacha.c
        _XA + "chacha-avx512vl-x86_64.S": _linux("chacha", [
            ("chacha_2block_xor_avx512vl", "avx512f,avx512vl,avx512bw"),
            ("chacha_4block_xor_avx512vl", "avx512f,avx512vl,avx512bw"),
            ("chacha_8block_xor_avx512vl", "avx512f,avx512vl,avx512bw")]),
        _XA + "chacha-avx2-x86_64.S": _linux("chacha", [
            ("chacha_2block_xor_avx2", "avx,avx2"), ("chacha_4block_xor_avx2", "avx,avx2"),
            ("chacha_8block_xor_avx2", "avx,avx2")]),
        _XA + "chacha-ssse3-x86_64.S": _linux("chacha", [
            ("chacha_block_xor_ssse3", "ssse3"), ("chacha_4block_xor_ssse3", "ssse3"),
            ("hchacha_block_ssse3", "ssse3")]),
        # the convention declares v,zvkb (fuzz/conventions/linux_chacha.c's riscv64 rows)
        _RA + "chacha-riscv64-zvkb.S": _linux("chacha", [("chacha20_zvkb", "")], arch="riscv64"),
        _RA + "aes-riscv64-zvkned.S": _linux("aes", [
            ("aes_ecb_encrypt_zvkned", "v,zvkned"), ("aes_ecb_decrypt_zvkned", "v,zvkned"),
            ("aes_cbc_decrypt_zvkned", "v,zvkned")],
            beside=[_RA + "aes-macros.S"], arch="riscv64"),
        _RA + "aes-riscv64-zvkned-zvkb.S": _linux("aes", [
            ("aes_ctr32_crypt_zvkned_zvkb", "v,zvkned,zvkb")],
            beside=[_RA + "aes-macros.S"], arch="riscv64"),
        _RA + "aes-riscv64-zvkned-zvbb-zvkg.S": _linux("aes", [
            ("aes_xts_encrypt_zvkned_zvbb_zvkg", "v,zvkned,zvbb,zvkg"),
            ("aes_xts_decrypt_zvkned_zvbb_zvkg", "v,zvkned,zvbb,zvkg")],
            beside=[_RA + "aes-macros.S"], arch="riscv64"),
    },
    "libgcrypt": {
        "cipher/aria-gfni-avx512-amd64.S": _gcrypt("aria", [
            ("_gcry_aria_gfni_avx512_ecb_crypt_blk64", _H512 + ",gfni"),
            ("_gcry_aria_gfni_avx512_ctr_crypt_blk64", _H512 + ",gfni")]),
        "cipher/camellia-gfni-avx512-amd64.S": _gcrypt("camellia", [
            ("_gcry_camellia_gfni_avx512_enc_blk64", _H512 + ",gfni"),
            ("_gcry_camellia_gfni_avx512_dec_blk64", _H512 + ",gfni"),
            ("_gcry_camellia_gfni_avx512_ctr_enc", _H512 + ",gfni")]),
        "cipher/camellia-gfni-avx2-amd64.S": _gcrypt("camellia", [
            ("_gcry_camellia_gfni_avx2_enc_blk1_32", "avx2,gfni"),
            ("_gcry_camellia_gfni_avx2_dec_blk1_32", "avx2,gfni"),
            ("_gcry_camellia_gfni_avx2_ctr_enc", "avx2,gfni")]),
        # HWF_INTEL_VAES_VPCLMUL with AES-NI and AVX2; the XTS code's xmm vpclmulqdq is PCLMULQDQ
        "cipher/rijndael-vaes-avx2-amd64.S": _gcrypt("aes", [
            ("_gcry_vaes_avx2_ecb_crypt_amd64", _V2), ("_gcry_vaes_avx2_cbc_dec_amd64", _V2),
            ("_gcry_vaes_avx2_ctr_enc_amd64", _V2), ("_gcry_vaes_avx2_xts_crypt_amd64", _V2)]),
        # its tails jump into the AVX2 file's functions
        "cipher/rijndael-vaes-avx512-amd64.S": _gcrypt("aes", [
            (f"_gcry_vaes_avx512_{op}_amd64", f"aesni,pclmul,{_H512},vaes,vpclmulqdq")
            for op in ("ecb_crypt", "cbc_dec", "ctr_enc", "xts_crypt")],
            with_=["cipher/rijndael-vaes-avx2-amd64.S"]),
        # ChaCha20 (fuzz/conventions/libgcrypt_chacha.c) on HWF_INTEL_SSSE3 / AVX2 / AVX512
        "cipher/chacha20-amd64-ssse3.S": _gcrypt("chacha", [
            ("_gcry_chacha20_amd64_ssse3_blocks4", "ssse3"),
            ("_gcry_chacha20_amd64_ssse3_blocks1", "ssse3")]),
        "cipher/chacha20-amd64-avx2.S": _gcrypt("chacha", [
            ("_gcry_chacha20_amd64_avx2_blocks8", "avx2")]),
        "cipher/chacha20-amd64-avx512.S": _gcrypt("chacha", [
            ("_gcry_chacha20_amd64_avx512_blocks", _H512)]),
        # Poly1305's IFMA file (fuzz/conventions/libgcrypt_poly1305.c) on HWF_INTEL_AVX512
        "cipher/poly1305-amd64-avx512.S": _gcrypt("poly1305", [
            ("_gcry_poly1305_amd64_avx512_blocks", _H512 + ",avx512ifma")]),
        "mpi/amd64/mpih-add1.S": _gcrypt("mpi", [("_gcry_mpih_add_n", "")], folder="mpi"),
        "mpi/amd64/mpih-sub1.S": _gcrypt("mpi", [("_gcry_mpih_sub_n", "")], folder="mpi"),
        # C with inline assembly, beside the convention's stand-ins for the headers it includes
        # with quotes: GCM-SIV's POLYVAL, the static _gcry_polyval_intel_pclmul its setup stores
        # (fuzz/conventions/libgcrypt_polyval.c; the pclmul row, the one its name gives).  A row
        # is one family: the file's GHASH (libgcrypt_ghash.c, the setup's three rows) has none
        "cipher/cipher-gcm-intel-pclmul.c": _gcrypt("polyval", [
            ("_gcry_polyval_intel_pclmul", "pclmul,ssse3")],
            beside=[f"conv:libgcrypt-amd64/{h}" for h in ("cipher-internal.h", "g10lib.h",
                                                          "cipher.h", "bufhelp.h")]),
        # RVV intrinsics in C: built beside our stand-ins for the headers it includes with quotes
        "cipher/cipher-gcm-riscv-zvkg.c": home(
            "polyval", "libgcrypt", [("_gcry_polyval_riscv_zvkg", "v,zvkg")],
            ours=["libgcrypt-riscv"], arch="riscv64",
            beside=["ours:libgcrypt-riscv/cipher-internal.h", "ours:libgcrypt-riscv/g10lib.h",
                    "cipher/simd-common-riscv.h"]),
    },
    "openssl": {},
}


def tree_kind(names):
    """The kind of tree whose top folder holds names (a set: files, and folders with a '/'; a
    nested path such as src/gcrypt.h.in counts when it is in the set), or None."""
    for kind, (_, marks) in TREES.items():
        if all(m in names for m in marks):
            return kind
    return None


def classify(kind, path):
    """(row or None, why not covered or None) of a path of a tree of this kind."""
    row = HOMES.get(kind, {}).get(path)
    if row:
        return row, None
    if KERNEL_SOURCE[kind].search(path):
        return None, (f"a kernel source with no convention row yet (the homes table, "
                      f"tools/asmdiff/check/homes.py, has {len(HOMES[kind])} {TREES[kind][0]} "
                      "files" + ("" if HOMES[kind] else ": none for this tree yet") + ")")
    return None, "not a kernel source"


def groups(row, per_check):
    """The row's entry points in checks of at most per_check kernels (changes.py's PER_CHECK,
    halved with --baseline: each new one has its old twin)."""
    ks = row["kernels"]
    return [ks[i:i + per_check] for i in range(0, len(ks), per_check)]
