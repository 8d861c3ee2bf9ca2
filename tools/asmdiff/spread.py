"""spread.py — a ratio with its spread: the median of per-pair ratios and a distribution-free
confidence interval for it (docs/speed.md, "A ratio and its spread").

The pairs come from `asmdiff-F bench --pair NEW OLD` (fuzz/harness/bench.c: bench_pairs): each
pair is one bench-slope fit of each implementation, timed in alternation in one process, and
its ratio is old ns/byte over new ns/byte (above 1: the new one is faster).

The interval is the sign test's for the median: with the n ratios sorted, [r(k), r(n+1-k)]
holds the true median with probability 1 - 2 P(Binomial(n, 1/2) < k), whatever the ratios'
distribution, as long as the pairs are independent draws of one distribution.  k is the
largest whose coverage is at least CONFIDENCE; the coverage it reaches is reported.  No
resampling, so the same ratios always give the same interval."""
from math import comb

CONFIDENCE = 0.95
NO_DIFFERENCE = "no measurable difference"
WITHIN_NOISE = "no difference beyond the noise"
# The bench's noise floor: an interval that excludes 1 but reaches within NOISE of it is not
# called a difference (criterion.rs's noise threshold, 1% there).  Two copies of one file, each
# on a 4 KiB boundary, alternated in one process of a loaded 2-core machine, have given
# intervals such as [0.939, 0.999] and [0.9865, 0.9997] in some processes: an interval of one
# process under-covers by that much (docs/speed.md).
NOISE = 0.02


def median(xs):
    s = sorted(xs)
    n = len(s)
    if not n:
        return None
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def order_interval(n, confidence=CONFIDENCE):
    """(k, coverage): the 1-based rank k of the lower bound (the upper one is n+1-k) of the
    sign test's interval for the median of n draws, and the probability it covers the median;
    None when n draws are too few for that confidence (n < 6 at 95%)."""
    best = None
    for k in range(1, n // 2 + 1):
        tail = sum(comb(n, i) for i in range(k)) / 2 ** n  # P(Binomial(n, 1/2) <= k-1)
        coverage = 1 - 2 * tail
        if coverage < confidence:
            break
        best = (k, coverage)
    return best


def ratio_interval(ratios, confidence=CONFIDENCE):
    """The median of the per-pair ratios and its interval: a dict with median, low, high,
    pairs, confidence (the coverage reached, at least the one asked for) and verdict:
    NO_DIFFERENCE when the interval holds 1, WITHIN_NOISE when it excludes 1 but comes within
    NOISE of it, else "new faster" or "new slower" (the whole interval beyond the noise).  low and high
    are None (and the verdict says so) when the pairs are too few for the confidence."""
    rs = sorted(r for r in ratios if r is not None and r > 0)
    out = {"median": median(rs), "low": None, "high": None, "pairs": len(rs),
           "confidence": None}
    ki = order_interval(len(rs), confidence)
    if ki is None:
        out["verdict"] = f"too few pairs ({len(rs)}) for an interval"
        return out
    k, coverage = ki
    out.update(low=rs[k - 1], high=rs[len(rs) - k], confidence=round(coverage, 4))
    out["verdict"] = verdict(out["low"], out["high"])
    return out


def verdict(low, high, noise=NOISE):
    """NO_DIFFERENCE when [low, high] holds 1; WITHIN_NOISE when it excludes 1 but reaches
    within noise of it; else the side the whole interval is on, beyond the noise."""
    if low <= 1 <= high:
        return NO_DIFFERENCE
    if low > 1:
        return "new faster" if low > 1 + noise else WITHIN_NOISE
    return "new slower" if high < 1 - noise else WITHIN_NOISE


def show(iv):
    """The table's text: `1.01x [0.99, 1.03] no measurable difference`."""
    if iv["median"] is None:
        return "no pairs"
    if iv["low"] is None:
        return f"{iv['median']:.2f}x ({iv['verdict']})"
    d = 2  # more digits where two would show a difference's interval as touching 1.00
    while d < 4 and iv["verdict"] not in (NO_DIFFERENCE, WITHIN_NOISE) and \
            round(iv["low"], d) <= 1 <= round(iv["high"], d):
        d += 1
    if iv["verdict"] == WITHIN_NOISE:  # the interval shown must not look like a difference
        d = 3
        return (f"{iv['median']:.{d}f}x [{iv['low']:.{d}f}, {iv['high']:.{d}f}] "
                f"{WITHIN_NOISE} ({round(NOISE * 100)}%)")
    return f"{iv['median']:.{d}f}x [{iv['low']:.{d}f}, {iv['high']:.{d}f}] {iv['verdict']}"
