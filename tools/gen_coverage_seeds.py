#!/usr/bin/env python3
"""gen_coverage_seeds.py — seeds that reach the kernel paths the fuzzer's corpus did not, written
through the families' input format (fuzz/harness/input.c, the block ciphers' bc_decode in
fuzz/harness/blockcipher.c), each named by its SHA-1 like every seed.

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
