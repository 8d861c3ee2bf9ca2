"""bench_table.py — the check's bench (--bench, and --baseline's): the outside kernels (new and
old) in one process of the check build beside ours and the libraries, old/new per operation
and size."""

from .. import bench, results, stage


def bench_records(cmd, env, kinds=None, mhz=None):
    """The bench records of one bench run; with kinds, only those of implementations of these
    kinds (their impl records); with mhz, every row's cycles/byte at that clock."""
    st = stage.run(cmd + ["bench"] + (["--cpu-mhz", mhz] if mhz else []), env)
    if kinds is None:
        return list(results.of_type(st.recs, "bench"))
    with_kind = {n: r.get("kind") for n, r in results.impls(st.recs).items()}
    if not with_kind:  # a bench run without impl records: the kinds from its list
        lst = stage.run(cmd + ["list"], env)
        with_kind = {n: r.get("kind") for n, r in results.impls(lst.recs).items()}
    return [r for r in results.of_type(st.recs, "bench") if with_kind.get(r.get("impl")) in kinds]


def bench_table(family, slots, tool, env):
    """libgcrypt's bench-slope layout, every row from one process of the check build (its bench
    runs our kernels beside the outside ones, driver.h: drv_benching): our kernels, the
    libraries and the reference, then each outside kernel, with --baseline its old one and
    old/new per operation and size (one process: a ratio is not two runs' noise)."""
    print("-- bench: ours, the libraries and the outside kernels, one process", flush=True)
    mhz = bench.estimate_mhz([tool], env)
    recs = [r for r in bench_records([tool], env, mhz=mhz) if r.get("ns_per_byte") is not None]
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
            ratio = f"{o['ns_per_byte'] / r['ns_per_byte']:.2f}x" \
                if o and o["ns_per_byte"] and r["ns_per_byte"] else ""
            rows.append((f"{'new' if old else 'outside'}: {sl['name'] or sl['symbol']} {op}", r,
                         ratio))
            if o:
                rows.append((f"{old['name']} {op}", o, ""))
    if not rows:
        print("bench: no bench records from the check build")
        return
    w = max([len(n) for n, _, _ in rows] + [20]) + 2
    print(f"\n {family:<{w}}|  nanosecs/byte   mebibytes/sec   cycles/byte  "
          f"{'     Mhz' if mhz else 'auto Mhz'}  old/new (ns/B)")
    for name, r, ratio in rows:
        print(f" {name:<{w}}|  {r['ns_per_byte']:10.4g} ns/B  {r['mib_per_s']:9.0f} MiB/s  "
              f"{r['cycles_per_byte']:8.3g} c/B  {r.get('mhz', 0):8.0f}  {ratio}")
    print("(old/new above 1: the new file is faster; every row from one process of the check "
          "build, " + (f"at one clock, {mhz} MHz, estimated once)" if mhz
                       else "at the clock it estimated)"))
