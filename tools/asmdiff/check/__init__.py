"""check — `./asmdiff check FAMILY --kernel FILE.S --symbol NAME`: an outside kernel (a Linux
or libgcrypt patch) built as one more implementation of a family and put through every stage
our kernels get (kat, exhaustive, seeds, random, libFuzzer; the Unicorn bounds and ct-trace
modes; emu-diff; the whole set again emulated when it has AVX-512 or GFNI instructions;
Valgrind memcheck's constant time where the family registers it), then a verdict table: one
row per stage and one per property, every finding in its property's row with the command
that reproduces it.

The verdicts come from each stage's result stream (stage.py): findings from `finding`
records, the row of a check from checks.def's `row` column, counts from `summary` records,
what the kernel covers from its `impl` record, and how many calls of the outside kernel a
stage made from the `calls` of its impl records.  A row whose stage made no call of the
kernel establishes nothing ("not established"), and the verdict is then not clean.  The
reports are passed through as printed.

The package, by concern: verdict.py (the verdict table and its JSON records), judge.py (a
stage's records into rows; the property rows), kernel.py (every stage of a built kernel;
Valgrind's constant time), build.py (the outside kernels of a command; the check build),
x86.py (the x86-64 check), formats.py (the verdict records as JSON lines, JUnit, Markdown, SARIF), riscv.py (the riscv64 check), baseline.py (--baseline's "new vs
old" rows), bench_table.py (--baseline's bench; old/new's interval from ../spread.py)."""
from .baseline import compare_with_old, mismatches
from .bench_table import bench_records, bench_table
from .build import (OUTSIDE_MAX, check_arch, compile_check_build, compiler_errors, configure,
                    guess_convention, outside_slots, per_kernel, renamed_symbols, scan_needs)
from .judge import (FAIL_FAST_NOT_RUN, GUARD_PAGES, LEFTOVER_RULES, PROPERTIES, FailFast, Judge,
                    distinct, outside_counts, set_aside)
from .kernel import (EMULATED_FEATURES, MEMCHECK_ERROR, VALGRIND_CT_CASES, emulated_mask,
                     judge_kernel, valgrind_ct)
from .riscv import RISCV_NOT_RUN, RISCV_VLENS, check_riscv
from . import formats
from .verdict import Verdict, finding_record, json_path, output_paths
from .x86 import check_outside

__all__ = [
    "compare_with_old", "mismatches", "bench_records", "bench_table", "OUTSIDE_MAX", "check_arch",
    "compile_check_build", "compiler_errors", "configure", "guess_convention", "outside_slots",
    "per_kernel", "renamed_symbols", "scan_needs", "FAIL_FAST_NOT_RUN", "GUARD_PAGES",
    "LEFTOVER_RULES", "PROPERTIES", "FailFast", "Judge", "distinct", "outside_counts",
    "set_aside", "EMULATED_FEATURES", "MEMCHECK_ERROR", "VALGRIND_CT_CASES", "emulated_mask",
    "judge_kernel", "valgrind_ct", "RISCV_NOT_RUN", "RISCV_VLENS", "check_riscv", "Verdict",
    "finding_record", "json_path", "output_paths", "check_outside", "formats",
]
