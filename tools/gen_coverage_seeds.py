#!/usr/bin/env python3
"""gen_coverage_seeds.py — seeds that reach the kernel paths the fuzzer's corpus did not, written
through the families' input format (fuzz/harness/input.c, the block ciphers' bc_decode in
fuzz/harness/blockcipher.c, the gcm family's decode in fuzz/gcm.c: its seeds, a few dozen, one
for each shape docs/gcm.md lists), each named by its SHA-1 like every seed.

    tools/gen_coverage_seeds.py [--check] CORPUS_ROOT      (corpus/, its FAMILY/seeds folders)

Which paths, and why the corpus missed them, is in docs/coverage.md; `./asmdiff coverage FAMILY`
shows them reached.  --check: exit 1 when a seed this generator makes is missing.

The encoding mirrors the decoder: control values (lengths, choices) are read from the input's
tail, one byte per 8 bits of their range, most significant byte first; payload from the head.
The placement the driver reads first (drv_one_input: side, then per buffer aligned or not)
comes before the family's own values."""
import hashlib
import os
import sys


class Encoder:
    """Builds an input the decoder reads back as the values given, in the decoder's order."""

    def __init__(self):
        self.tail, self.head = [], b""

    def range(self, lo, hi, value):
        assert lo <= value <= hi
        span, v, n = hi - lo, value - lo, 0
        while n < 8 and span >> (8 * n):
            n += 1
        self.tail += [(v >> (8 * (n - 1 - i))) & 0xff for i in range(n)]

    def pick(self, n, value):
        self.range(0, n - 1, value)

    def payload(self, data):
        self.head += bytes(data)

    def bytes(self):
        return self.head + bytes(reversed(self.tail))


def blockcipher_case(keylen, nblocks, counter_bias=0, below=0, ctr=bytes(16), in_place=False):
    """A block-cipher case (bc_decode): one call per operation (no splits), the key and
    input all zero but for the key's payload, the counter as given or biased to just below a
    wrap of its low 32 (bias 1), 64 (2) or all 128 bits (3)."""
    e = Encoder()
    e.pick(2, 0)                      # placement: flush after each buffer
    for _ in range(7):                # bc_bufs: 7 buffers, each aligned
        e.pick(2, 1)
    e.pick(3, (keylen - 16) // 8)     # key size
    e.pick(8, 7)                      # input_length: "anywhere"
    e.range(0, 300, nblocks)
    e.pick(2, int(in_place))
    e.pick(4, 0)                      # no splits: one call per operation
    e.pick(4, counter_bias)
    e.range(0, 2 * 64, below)
    e.payload(ctr)
    e.pick(8, 0)                      # key words: payload
    e.payload(bytes((i * 37 + 1) & 0xff for i in range(keylen)))
    e.pick(8, 3)                      # input words: all zero
    return e.bytes()


GCM_AAD_MAX, GCM_PT_MAX = 4096, 6144  # fuzz/gcm.c AAD_MAX, PT_MAX


def gcm_cuts(e, length, cuts):
    """input_splits (fuzz/harness/splits.h): the count by its shape, each cut 'anywhere'."""
    n = len(cuts)
    shape = 0 if n == 0 else 1 if n == 1 else 2 if n <= 4 else 3
    e.pick(4, shape)
    lo, hi = [(0, 0), (1, 1), (2, 4), (5, 15)][shape]
    e.range(lo, hi, n)
    for at in cuts:
        e.pick(4, 2)                  # anywhere
        e.range(0, length, at)


def gcm_case(keylen=16, ivlen=12, aadlen=0, ptlen=0, aad_cuts=(), pt_cuts=(), taglen=16,
             tamper=0, flip=0, below=None, j0_ones=False):
    """An AES-GCM case (fuzz/gcm.c decode): key, IV, AAD and plaintext from the payload
    (patterned, never all zero), the cuts given, a tamper (0 none, 1 tag, 2 ciphertext, 3 AAD)
    at bit flip; below: a counter-block case, J0's counter `below` blocks under its wrap (its
    upper 96 bits all ones with j0_ones, else payload), the IV the 16 bytes solved for it."""
    e = Encoder()
    e.pick(2, 0)                      # placement: flush after each buffer
    for _ in range(6):                # key, iv, aad, input, output, tag: each aligned
        e.pick(2, 1)
    e.pick(3, (keylen - 16) // 8)
    e.pick(8, 0 if below is not None else 1)
    if below is None:
        if ivlen == 12:
            e.pick(4, 1)
        else:
            e.pick(4, 0)
            e.range(1, 64, ivlen)
    e.range(0, 1, 1 if taglen == 16 else 0)
    if taglen != 16:
        e.range(4, 16, taglen)
    for length, top in ((aadlen, GCM_AAD_MAX), (ptlen, GCM_PT_MAX)):
        e.pick(8, 7)                  # tier: up to the maximum
        e.pick(8, 7)                  # input_length: anywhere
        e.range(0, top, length)
    gcm_cuts(e, aadlen, aad_cuts)
    gcm_cuts(e, ptlen, pt_cuts)
    e.pick(4, tamper)
    if tamper:
        span = {1: taglen, 2: ptlen, 3: aadlen}[tamper]
        e.range(0, 8 * span - 1, flip)
    if below is not None:
        e.range(0, (ptlen + 15) // 16, below)
    e.pick(8, 0)                      # key words: payload
    e.payload(bytes((i * 37 + 1) & 0xff for i in range(keylen)))
    if below is None:
        e.payload(bytes((0xca + 11 * i) & 0xff for i in range(ivlen)))
    else:
        e.pick(8, 4 if j0_ones else 0)  # J0's upper 96 bits: all ones, or payload
        if not j0_ones:
            e.payload(bytes((0x5a + 3 * i) & 0xff for i in range(12)))
    e.pick(8, 0)                      # AAD bytes: payload
    e.payload(bytes((i * 7 + 3) & 0xff for i in range(aadlen)))
    e.pick(8, 0)                      # plaintext bytes: payload
    e.payload(bytes((i * 13 + 5) & 0xff for i in range(ptlen)))
    return e.bytes()


def gcm_seeds():
    """The gcm family's seeds (corpus/gcm/seeds): each shape of docs/gcm.md at least once."""
    s = []
    for n in (0, 1, 15, 16, 17, 31, 64, 95, 96, 97, 287, 288, 289, 511, 513, 1536, 4095, 6144):
        s.append((f"payload of {n} bytes in one call, no AAD", gcm_case(ptlen=n)))
    for n in (1, 15, 17, 20, 256, 4096):
        s.append((f"AAD of {n} bytes in one call, a 60-byte payload", gcm_case(aadlen=n, ptlen=60)))
    s += [
        ("payload of 300 bytes, 15 cuts at bytes 1..15: one-byte pieces, then the rest",
         gcm_case(ptlen=300, pt_cuts=range(1, 16))),
        ("payload of 100 bytes, empty pieces first, twice in the middle and last",
         gcm_case(ptlen=100, pt_cuts=(0, 40, 40, 100))),
        ("payload of 800 bytes cut at 16-byte multiples (nettle keeps every cut)",
         gcm_case(keylen=32, ptlen=800, pt_cuts=(16, 288, 512))),
        ("payload of 1000 bytes cut one byte past block edges (libgcrypt's cached block, "
         "OpenSSL's partial block before its stitched path)",
         gcm_case(keylen=24, aadlen=33, ptlen=1000, pt_cuts=(1, 17, 305, 700))),
        ("AAD of 200 bytes in 8 pieces, 3 of them empty, payload of 50 in 3",
         gcm_case(aadlen=200, ptlen=50, aad_cuts=(0, 0, 5, 16, 16, 99, 200), pt_cuts=(7, 49))),
        ("both streams at their maximum, 15 cuts each",
         gcm_case(aadlen=GCM_AAD_MAX, ptlen=GCM_PT_MAX, aad_cuts=range(1, 4000, 270),
                  pt_cuts=range(7, 6000, 411))),
    ]
    for ivlen in (1, 8, 16, 60, 64):
        s.append((f"IV of {ivlen} bytes: J0 a GHASH of it", gcm_case(ivlen=ivlen, aadlen=20, ptlen=60)))
    for t in (4, 5, 8, 12, 13, 15):
        s.append((f"tag of {t} bytes (libgcrypt takes 4, 8, 12..16 only)",
                  gcm_case(taglen=t, aadlen=16, ptlen=48, tamper=1, flip=8 * t - 1)))
    s += [
        ("tampered ciphertext, last bit, payload cut", gcm_case(ptlen=77, pt_cuts=(33,), tamper=2, flip=615)),
        ("tampered AAD, first bit, AAD cut", gcm_case(aadlen=40, ptlen=16, aad_cuts=(3, 20), tamper=3, flip=0)),
        ("counter block: J0's counter at ff..ff, 10 blocks: the wrap on the payload's first block",
         gcm_case(ptlen=160, below=0)),
        ("counter block: the wrap at the 5th of 20 blocks, upper 96 bits all ones, cut mid-block "
         "at the wrap", gcm_case(keylen=32, aadlen=13, ptlen=320, pt_cuts=(64, 70, 71), below=4,
                                 j0_ones=True)),
        ("counter block: the wrap inside OpenSSL's and libgcrypt's bulk paths (1536 bytes, wrap "
         "at block 50)", gcm_case(keylen=24, ptlen=1536, below=50, j0_ones=True)),
        ("counter block: 300 bytes of 19 blocks, the wrap just after the last (none inside)",
         gcm_case(ptlen=300, below=19)),
    ]
    return s


# (family, why the seed is there, the input)
SEEDS = [
    ("camellia", "CTR, exactly 64 blocks: the 64-block loop ends with no tail",
     blockcipher_case(16, 64)),
    ("camellia", "CTR, 130 blocks, 16-byte key, counter's low byte 0xf0 and no 64-bit wrap "
     "near: the first batch's counter blocks made one by one without a carry (18 rounds)",
     blockcipher_case(16, 130, ctr=bytes(15) + b"\xf0")),
    ("camellia", "CTR, 200 blocks, 32-byte key, the same counter (24 rounds)",
     blockcipher_case(32, 200, ctr=bytes(15) + b"\xf0")),
    ("camellia", "CTR, 100 blocks, low 64 counter bits 10 below their wrap: the 64-block "
     "loop's carry path", blockcipher_case(24, 100, counter_bias=2, below=10)),
]


SEEDS += [("gcm", why, data) for why, data in gcm_seeds()]


def main(argv):
    check = argv[:1] == ["--check"]
    args = argv[1:] if check else argv
    if len(args) != 1:
        print("usage: gen_coverage_seeds.py [--check] CORPUS_ROOT", file=sys.stderr)
        return 2
    missing = 0
    for family, why, data in SEEDS:
        folder = os.path.join(args[0], family, "seeds")
        path = os.path.join(folder, hashlib.sha1(data).hexdigest())
        if os.path.exists(path):
            continue
        if check:
            print(f"missing: {path} ({family}: {why})")
            missing += 1
            continue
        os.makedirs(folder, exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        print(f"{path}: {family}: {why}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
