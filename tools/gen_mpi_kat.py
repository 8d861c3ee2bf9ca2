#!/usr/bin/env python3
"""gen_mpi_kat.py — writes corpus/mpi/kat.txt, the known-answer vectors for n-limb add/sub and
for Montgomery multiplication (Op = mont: A * B * 2^(-64N) mod M).

Operands are published constants (named per vector) and edge identities; the results are
computed here with Python's arbitrary-precision integers, an implementation independent of
every C and assembly routine under test.  Regenerate: python3 tools/gen_mpi_kat.py > corpus/mpi/kat.txt
"""
import hashlib

PRIMES = [
    # (source, value)
    ("Curve25519 field prime 2^255-19 (RFC 7748, section 4.1)", 2**255 - 19),
    ("NIST P-256 field prime (FIPS 186-4, D.1.2.3)", 2**256 - 2**224 + 2**192 + 2**96 - 1),
    ("secp256k1 field prime (SEC 2 v2, 2.4.1)", 2**256 - 2**32 - 977),
    ("NIST P-384 field prime (FIPS 186-4, D.1.2.4)", 2**384 - 2**128 - 2**96 + 2**32 - 1),
    ("NIST P-521 field prime 2^521-1 (FIPS 186-4, D.1.2.5)", 2**521 - 1),
    ("Curve448 field prime 2^448-2^224-1 (RFC 7748, section 4.2)", 2**448 - 2**224 - 1),
]


def limbs_for(v):
    return max(1, (v.bit_length() + 63) // 64)


def block(op, n, a, b, comment):
    mod = 1 << (64 * n)
    if op == "add":
        r = a + b
        carry, r = r >> (64 * n), r % mod
    else:
        r = a - b
        carry, r = (1 if r < 0 else 0), r % mod
    hx = lambda v: format(v, "0%dx" % (16 * n))
    return (f"# {comment}\nOp = {op}\nN = {n}\nS1 = {hx(a)}\nS2 = {hx(b)}\n"
            f"R = {hx(r)}\nCarry = {carry}\n")


def mont_block(n, a, b, m, comment):
    assert m % 2 == 1 and m >> (64 * (n - 1)) and a < m and b < m
    r = a * b * pow(1 << (64 * n), -1, m) % m
    hx = lambda v: format(v, "0%dx" % (16 * n))
    return (f"# {comment}\nOp = mont\nN = {n}\nA = {hx(a)}\nB = {hx(b)}\nM = {hx(m)}\n"
            f"R = {hx(r)}\n")


def stream(seed, nbytes):
    """Deterministic operand bytes: SHA-256 in counter mode over the seed string."""
    out, ctr = b"", 0
    while len(out) < nbytes:
        out += hashlib.sha256(f"{seed}:{ctr}".encode()).digest()
        ctr += 1
    return int.from_bytes(out[:nbytes], "big")


def main():
    print("# Known-answer vectors for mpi add_n / sub_n.  Numbers are big-endian hex of exactly")
    print("# 64*N bits; R and Carry are S1+S2 (Op = add) or S1-S2 mod 2^(64N) with the borrow")
    print("# (Op = sub).  Operands: the published constants named per vector, and edge")
    print("# identities; results computed with Python integers by tools/gen_mpi_kat.py.")
    print("# Op = mont: R = A * B * 2^(-64N) mod M (Montgomery multiplication), A, B < M, M odd;")
    print("# the moduli are the published primes named, and odd full-length moduli from SHA-256.")
    print()
    for src, p in PRIMES:
        n = limbs_for(p)
        print(block("add", n, p, p, f"p + p, p = {src}"))
        print(block("sub", n, p, p - 1, f"p - (p-1), p = {src}"))
        print(block("sub", n, p - 1, p, f"(p-1) - p wraps, p = {src}"))
        print(block("add", n, p, (1 << (64 * n)) - p, f"p + (2^(64N) - p) carries out, p = {src}"))
    for n in list(range(1, 18)) + [31, 32, 33, 63, 64, 65]:
        ones = (1 << (64 * n)) - 1
        print(block("add", n, ones, 1, f"all ones + 1: the carry ripples through {n} limbs"))
        print(block("sub", n, 0, 1, f"0 - 1: the borrow ripples through {n} limbs"))
        a, b = stream(f"a{n}", 8 * n), stream(f"b{n}", 8 * n)
        print(block("add", n, a, b, f"SHA-256 counter-mode operands, seeds 'a{n}', 'b{n}'"))
        print(block("sub", n, a, b, f"SHA-256 counter-mode operands, seeds 'a{n}', 'b{n}'"))
    # Montgomery multiplication: the published primes as moduli, and odd moduli of RSA sizes
    # (top bit set: full length), with the operands that reach the final subtraction's edges
    for src, p in PRIMES:
        n = limbs_for(p)
        r = 1 << (64 * n)
        print(mont_block(n, p - 1, p - 1, p, f"(p-1)^2 / R mod p, p = {src}"))
        print(mont_block(n, 1, r * r % p, p, f"1 * (R^2 mod p) / R = R mod p, p = {src}"))
        print(mont_block(n, 0, p - 1, p, f"0 * (p-1), p = {src}"))
        a, b = stream(f"ma{n}", 8 * n) % p, stream(f"mb{n}", 8 * n) % p
        print(mont_block(n, a, b, p, f"SHA-256 counter-mode operands mod p, seeds 'ma{n}', "
                                     f"'mb{n}', p = {src}"))
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 24, 32, 48, 64]:
        m = stream(f"m{n}", 8 * n) | 1 | 1 << (64 * n - 1)
        a, b = stream(f"ma{n}", 8 * n) % m, stream(f"mb{n}", 8 * n) % m
        src = f"SHA-256 counter-mode modulus, seed 'm{n}', odd and of full {64 * n} bits"
        print(mont_block(n, a, b, m, f"operands seeds 'ma{n}', 'mb{n}', mod m; m: {src}"))
        print(mont_block(n, a, a, m, f"a squared (OpenSSL's sqr8x path where n % 8 == 0); m: {src}"))
        print(mont_block(n, m - 1, m - 2, m, f"(m-1)(m-2) / R; m: {src}"))


if __name__ == "__main__":
    main()
