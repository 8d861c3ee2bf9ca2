"""bench_table.py — the check's bench (--bench, and --baseline's): the outside kernels (new and
old) in one process of the check build beside ours and the libraries, old/new per operation
and size."""

from .. import bench, results, spread, stage


def bench_records(cmd, env, kinds=None, mhz=None, pairs=(), rtype="bench"):
    """The bench records of one bench run; with kinds, only those of implementations of these
    kinds (their impl records); with mhz, every row's cycles/byte at that clock; with pairs
    ((new, old) names), those timed in alternation too, and rtype "bench-pairs" gives their
    records instead."""
    st = stage.run(cmd + ["bench"] + (["--cpu-mhz", mhz] if mhz else []) +
                   [a for p in pairs for a in ("--pair",) + tuple(p)], env)
    if rtype == "bench-pairs":
        return [r for r in st.recs if r.get("type") in ("bench", "bench-pairs")]
    if kinds is None:
        return list(results.of_type(st.recs, "bench"))
    with_kind = {n: r.get("kind") for n, r in results.impls(st.recs).items()}
    if not with_kind:  # a bench run without impl records: the kinds from its list
        lst = stage.run(cmd + ["list"], env)
        with_kind = {n: r.get("kind") for n, r in results.impls(lst.recs).items()}
    return [r for r in results.of_type(st.recs, "bench") if with_kind.get(r.get("impl")) in kinds]


def ratio_record(pr):
    """The check's bench-ratio record (docs/results.md) from a bench-pairs record."""
    iv = spread.ratio_interval(pr.get("ratios") or [])
    return {"type": "bench-ratio", "kernel": pr["impl"], "old": pr["old"], "op": pr["op"],
            "median": iv["median"], "low": iv["low"], "high": iv["high"], "pairs": iv["pairs"],
            "confidence": iv["confidence"], "verdict": iv["verdict"],
            "reason": pr.get("reason"), "text": spread.show(iv) if pr.get("ratios") is not None
            else f"n/a: {pr.get('reason')}"}


def bench_table(family, slots, tool, env):
    """libgcrypt's bench-slope layout, every row from one process of the check build (its bench
    runs our kernels beside the outside ones, driver.h: drv_benching): our kernels, the
    libraries and the reference, then each outside kernel, with --baseline its old one and
    old/new per operation and size, the median of pairs timed in alternation with its interval
    (spread.py).  Returns the bench-ratio records (one per new kernel and operation)."""
    print("-- bench: ours, the libraries and the outside kernels, one process", flush=True)
    mhz = bench.estimate_mhz([tool], env)
    pairs = []
    for sl in slots:
        old = next((o for o in slots if o["role"] == "old" and o["pair"] == sl["name"]), None)
        if sl["role"] == "new" and old:
            pairs.append((sl["name"] or sl["symbol"], old["name"]))
    got = bench_records([tool], env, mhz=mhz, pairs=pairs, rtype="bench-pairs")
    ratios = {(r["impl"], r["op"]): ratio_record(r) for r in got
              if r.get("type") == "bench-pairs"}
    recs = [r for r in got if r.get("type") == "bench" and r.get("ns_per_byte") is not None]
    kind = {n: r.get("kind") for n, r in results.impls(stage.run([tool, "list"], env).recs)
            .items()}
    by = {(r["impl"], r["op"]): r for r in recs}
    names = {sl["name"] or sl["symbol"] for sl in slots}
    rows = []
    for op in dict.fromkeys(r["op"] for r in recs):
        for r in recs:
            if r["op"] == op and r["impl"] not in names and kind.get(r["impl"]) == "kernel":
                rows.append((f"ours: {r['impl']} {op}", r, ""))
        for r in recs:
            if r["op"] == op and r["impl"] not in names and kind.get(r["impl"]) != "kernel":
                rows.append((f"{r['impl']} {op}", r, ""))
        for sl in slots:
            if sl["role"] != "new" or (sl["name"] or sl["symbol"], op) not in by:
                continue
            r = by[(sl["name"] or sl["symbol"], op)]
            old = next((o for o in slots if o["role"] == "old" and o["pair"] == sl["name"]),
                       None)
            o = by.get((old["name"], op)) if old else None
            rr = ratios.get((sl["name"] or sl["symbol"], op))
            ratio = rr["text"] if rr else ""
            rows.append((f"{'new' if old else 'outside'}: {sl['name'] or sl['symbol']} {op}", r,
                         ratio))
            if o:
                rows.append((f"{old['name']} {op}", o, ""))
    if not rows:
        print("bench: no bench records from the check build")
        return list(ratios.values())
    w = max([len(n) for n, _, _ in rows] + [20]) + 2
    print(f"\n {family:<{w}}|  nanosecs/byte   mebibytes/sec   cycles/byte  "
          f"{'     Mhz' if mhz else 'auto Mhz'}  old/new (ns/B) [interval]")
    for name, r, ratio in rows:
        print(f" {name:<{w}}|  {r['ns_per_byte']:10.4g} ns/B  {r['mib_per_s']:9.0f} MiB/s  "
              f"{r['cycles_per_byte']:8.3g} c/B  {r.get('mhz', 0):8.0f}  {ratio}")
    print("(old/new above 1: the new file is faster; every row from one process of the check "
          "build, " + (f"at one clock, {mhz} MHz, estimated once)" if mhz
                       else "at the clock it estimated)"))
    if ratios:
        some = next(iter(ratios.values()))
        print(f"(old/new: the median of {some['pairs'] or 'the'} pairs timed in alternation in "
              f"that process, each a slope fit of both; [interval]: "
              f"{round(100 * (some['confidence'] or spread.CONFIDENCE))}% for the median, "
              "distribution-free (docs/speed.md); the rows' own ns/B are their one bench-slope "
              "measurement)")
    return list(ratios.values())
