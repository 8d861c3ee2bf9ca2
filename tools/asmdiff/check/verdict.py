"""verdict.py — the verdict table of a check: its rows, the exit status from them."""


class Verdict:
    """The verdict table: rows of (check, result, detail); the exit status from them."""

    def __init__(self):
        self.rows, self.bad, self.ran = [], False, False
        self.unestablished = []  # rows that made no call of the outside kernel

    def add(self, check, result, detail):
        self.rows.append((check, result, detail))
        self.bad |= result in ("FINDING", "FAIL")
        # building and naming what is covered is not testing it
        self.ran |= result in ("pass", "FINDING") and check not in ("build", "operations")

    def not_established(self, check, why):
        """A row that made no call of the outside kernel: nothing is known of it."""
        self.rows.append((check, "-", f"not established: {why}"))
        self.unestablished.append(check)

    def print(self, title):
        print(f"\n== {title}")
        w = max(len(r[0]) for r in self.rows) + 2
        print(f"{'check':<{w}} {'result':<8} detail")
        for c, r, d in self.rows:
            print(f"{c:<{w}} {r:<8} {d}")
        if self.bad:
            print("check: FINDINGS or failures (each finding reproduces with the command in its "
                  "row)")
            return 1
        if not self.ran:
            # nothing of the kernel ran: no verdict on it is possible, which is not a pass and
            # not a skip (docs/check-your-patch.md: NOT CLEAN, exit 1)
            print("check: NOT CLEAN: no stage could call the kernel here (see the rows)")
            return 1
        if self.unestablished:
            print(f"check: NOT CLEAN: {len(self.unestablished)} rows not established (no call "
                  f"of the kernel: {', '.join(self.unestablished)}); see their rows")
            return 1
        print("check: clean")
        return 0
