"""fuzz_options.py — a family's libFuzzer options (corpus/F/fuzz_F.options) as flags.

The options file is OSS-Fuzz's contract: ClusterFuzz reads its [libfuzzer] section and passes
each `name = value` as `-name=value` to the family's fuzz target (a `dict` relative to the
file).  Every runner of ours passes the same flags (fuzzing.libfuzzer_cmd for ./asmdiff fuzz,
premerge, check, soak; verify/run_mutant.sh and the fuzz tests through this file's command
line), so a family fuzzes alike on a bot and here.

    python3 tools/asmdiff/fuzz_options.py CORPUS_ROOT FAMILY    one flag per line

No options file: no flags.  A malformed one (a line that is not `name = value` in [libfuzzer],
a dict that does not exist) is an error: exit 2 with the file and line, never a silent default.
Standalone (no package imports): shell scripts run it directly."""
import os
import sys


class OptionsError(Exception):
    pass


def path_of(root, family):
    return os.path.join(root, family, f"fuzz_{family}.options")


def flags(root, family):
    """The [libfuzzer] section of ROOT/FAMILY/fuzz_FAMILY.options as ['-name=value', ...], in
    the file's order; [] when the family has no options file."""
    path = path_of(root, family)
    if not os.path.isfile(path):
        return []
    out, section = [], None
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("[") and line.endswith("]"):
                section = line[1:-1].strip()
                continue
            if section != "libfuzzer":
                continue
            name, eq, value = line.partition("=")
            name, value = name.strip(), value.strip()
            if not eq or not name or not value or not name.replace("_", "").isalnum():
                raise OptionsError(f"{path}:{n}: not 'name = value': {line!r}")
            if name == "dict":
                value = os.path.join(os.path.dirname(path), value)
                if not os.path.isfile(value):
                    raise OptionsError(f"{path}:{n}: dict {value} does not exist")
            out.append(f"-{name}={value}")
    return out


def main(argv):
    if len(argv) != 3:
        print("usage: fuzz_options.py CORPUS_ROOT FAMILY", file=sys.stderr)
        return 2
    try:
        for flag in flags(argv[1], argv[2]):
            print(flag)
    except (OptionsError, OSError) as e:
        print(f"fuzz_options: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
