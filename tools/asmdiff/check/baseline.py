"""baseline.py — --baseline OLD.S: the file before the patch, one more oracle; the "new vs old"
rows."""
from .. import stage


def mismatches(fs):
    return [f for f in fs if f.get("check") == "mismatch"]


def compare_with_old(judge):
    """The old file ran beside the new one in every stage, on the same cases, each judged by
    the C reference: a difference between new and old is named with the side the reference
    says is wrong."""
    v = judge.v
    several = len(judge.new_slots()) > 1
    for name, old, calls, old_fs in judge.compared:
        new_fs = judge.by_stage.get((name, old["pair"]), [])
        row = f"new vs old {name}" + (f": {old['pair']}" if several else "")
        new_bad, old_bad = mismatches(new_fs), mismatches(old_fs)
        same = f"the same cases: {calls} calls of {old['name']}"
        k = dict(kernel=old["pair"], calls=calls)
        other = [f for f in old_fs if f.get("check") != "mismatch"]
        also = (f"; the old file also has: {stage.heading(other[0])}" if other else "")
        if new_bad and not old_bad:
            v.add(row, "FINDING", f"new and old differ; the C reference says the new file is "
                  f"wrong ({stage.heading(new_bad[0])}), the old one agrees with it ({same})"
                  + also, finding=new_bad[0], **k)
        elif old_bad and not new_bad:
            v.add(row, "info", f"new and old differ; the C reference says the old file was "
                  f"wrong ({stage.heading(old_bad[0])}): the patch fixes it ({same})" + also, **k)
        elif old_bad:
            v.add(row, "info", f"both differ from the C reference ({same})" + also, **k)
        elif not calls and other:
            # the old file's own finding ended the stage before a call of it was counted (a
            # fuzzer stops at its first): the new file ran again on its own (its row above)
            v.add(row, "info", f"no comparison here: the old file's own finding stopped the "
                  f"stage first ({stage.heading(other[0])}); the new file ran on its own", **k)
        elif not calls:
            why = ("the stage stopped at the new file's finding first" if new_fs else
                   "no case of this stage reached it")
            # the old file was not run here: the comparison this row promises is not made
            v.not_established(row, f"0 calls of {old['name']} here ({why})", **k)
        elif other:
            v.add(row, "info", f"the outputs of both equal the C reference's on {same}" + also,
                  **k)
        else:
            v.add(row, "pass", f"the outputs of both equal the C reference's on {same}", **k)
