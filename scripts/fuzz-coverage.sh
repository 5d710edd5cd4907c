#!/usr/bin/env bash
# Line coverage of the library by the saved corpora of every fuzz target.
#
#   scripts/fuzz-coverage.sh            build (SANITIZER=coverage), replay, print the table
#   scripts/fuzz-coverage.sh --report   print the table from the last replay's profiles
#
# Builds the targets as OSS-Fuzz's coverage build does (scripts/oss-fuzz-local.sh
# with SANITIZER=coverage: libFuzzer without sanitizers, Swift with
# -profile-generate -profile-coverage-mapping, C with -fprofile-instr-generate
# -fcoverage-mapping) into .build-fuzz-coverage, runs each target once over
# every input of its seed corpus ($OUT/TARGET_seed_corpus.zip: the golden
# vectors by scripts/make_fuzz_corpus.py and FuzzTesting/FailCases/TARGET)
# with libFuzzer's -runs=0, merges the raw profiles with llvm-profdata and
# reads them with llvm-cov (both from the Swift toolchain, beside `swift`:
# an older LLVM's tools elsewhere on PATH cannot read its profiles).
#
# The table counts lines of Sources/IMCodec (Swift) and
# Sources/IMCodecReference (C, the protobuf-c reference) that the binaries
# contain: per target, then all targets together, then all targets by
# folder. Lines are llvm-cov's executable lines. Generated code
# (Sources/IMCodec/Generated, Sources/IMCodec/Frame/Generated,
# Sources/IMCodecReference/Generated) is counted in "all" and shown on its
# own in the by-folder table; the "hand-written" columns leave it out. The
# lines themselves, covered or not, are in
# .build-fuzz-coverage/profiles/html/index.html.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd -P)

export SANITIZER=coverage
scratch=$(scripts/fuzz-build.sh --scratch-path)
out=$scratch/oss-fuzz/out
profiles=$scratch/profiles
toolchain=$(dirname "$(readlink -f "$(command -v swift)")")

if [ "${1:-}" != --report ]; then
    start=$SECONDS
    scripts/oss-fuzz-local.sh --build
    built=$SECONDS
    rm -rf "$profiles"
    mapfile -t targets < <(scripts/fuzz-build.sh --list)
    for target in "${targets[@]}"; do
        corpus=$profiles/$target/corpus
        mkdir -p "$corpus"
        python3 -m zipfile -e "$out/${target}_seed_corpus.zip" "$corpus"
        echo "== $target: $(find "$corpus" -type f | wc -l) inputs" >&2
        LLVM_PROFILE_FILE="$repo/$profiles/$target/%p-%m.profraw" SWIFT_BACKTRACE=enable=no \
            "$out/$target" -runs=0 -max_len=1048576 -rss_limit_mb=2560 "$corpus" \
            >"$profiles/$target/replay.log" 2>&1 ||
            { tail -20 "$profiles/$target/replay.log" >&2; echo "fuzz-coverage: $target's replay failed" >&2; exit 1; }
        "$toolchain/llvm-profdata" merge -sparse "$profiles/$target"/*.profraw -o "$profiles/$target.profdata"
    done
    echo "fuzz-coverage: built in $((built - start)) s, replayed and merged in $((SECONDS - built)) s" >&2
fi

mapfile -t targets < <(scripts/fuzz-build.sh --list)
objects=()
merged=()
for target in "${targets[@]}"; do
    [ -f "$profiles/$target.profdata" ] || { echo "fuzz-coverage: no profile of $target; run without --report" >&2; exit 1; }
    "$toolchain/llvm-cov" export -summary-only -instr-profile="$profiles/$target.profdata" "$out/$target" >"$profiles/$target.json"
    objects+=(-object "$out/$target")
    merged+=("$profiles/$target.profdata")
done
"$toolchain/llvm-profdata" merge -sparse "${merged[@]}" -o "$profiles/all.profdata"
"$toolchain/llvm-cov" export -summary-only -instr-profile="$profiles/all.profdata" "${objects[@]}" >"$profiles/all.json"
# Line by line, for reading: all targets together, the library's files only.
rm -rf "$profiles/html"
# (llvm-cov takes its first binary without -object, then the source paths.)
"$toolchain/llvm-cov" show -format=html -output-dir="$profiles/html" -instr-profile="$profiles/all.profdata" \
    "${objects[@]:1}" "$repo/Sources/IMCodec" "$repo/Sources/IMCodecReference"
echo "fuzz-coverage: line by line in $profiles/html/index.html" >&2

python3 - "$repo" "$profiles" "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources FuzzTesting || echo +)" \
    "${targets[@]}" <<'PY'
import datetime, json, os, sys

repo, profiles, commit, targets = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
LIBRARIES = ("Sources/IMCodec/", "Sources/IMCodecReference/")
GENERATED = ("Sources/IMCodec/Generated/", "Sources/IMCodec/Frame/Generated/", "Sources/IMCodecReference/Generated/")


def files(name):
    """(path in the repository, lines, covered) of the library's files in an export."""
    with open(os.path.join(profiles, name + ".json")) as f:
        data = json.load(f)["data"][0]["files"]
    for entry in data:
        path = os.path.relpath(entry["filename"], repo)
        if path.startswith(LIBRARIES):
            lines = entry["summary"]["lines"]
            yield path, lines["count"], lines["covered"]


def share(rows):
    lines = sum(r[1] for r in rows)
    covered = sum(r[2] for r in rows)
    if lines == 0:
        return "—"
    return "%.1f%% (%s / %s)" % (100.0 * covered / lines, format(covered, ","), format(lines, ","))


def columns(rows):
    swift = [r for r in rows if r[0].startswith(LIBRARIES[0])]
    c = [r for r in rows if r[0].startswith(LIBRARIES[1])]
    hand = lambda part: [r for r in part if not r[0].startswith(GENERATED)]
    return [share(swift), share(hand(swift)), share(c), share(hand(c))]


def inputs(target):
    folder = os.path.join(profiles, target, "corpus")
    return format(len(os.listdir(folder)), ",") if os.path.isdir(folder) else "?"


print("Line coverage of Sources/IMCodec and Sources/IMCodecReference by the seed corpora")
print("(%s UTC, commit %s)" % (datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"), commit))
print()
print("| target | inputs | IMCodec, all | IMCodec, hand-written | IMCodecReference, all | IMCodecReference, hand-written |")
print("|---|---|---|---|---|---|")
for target in targets:
    print("| %s | %s | %s |" % (target, inputs(target), " | ".join(columns(list(files(target))))))
union = list(files("all"))
print("| all targets | | %s |" % " | ".join(columns(union)))
print()
print("All targets together, by folder:")
print()
print("| folder | lines | covered | line coverage |")
print("|---|---|---|---|")
folders = {}
for row in union:
    folders.setdefault(os.path.dirname(row[0]) + "/", []).append(row)
for folder in sorted(folders):
    rows = folders[folder]
    lines, covered = sum(r[1] for r in rows), sum(r[2] for r in rows)
    if lines:
        print("| %s%s | %s | %s | %.1f%% |" % (folder, " (generated)" if folder.startswith(GENERATED) else "",
                                              format(lines, ","), format(covered, ","), 100.0 * covered / lines))
print()
print("Hand-written files with the most lines not covered (all targets together):")
print()
print("| file | lines | not covered | line coverage |")
print("|---|---|---|---|")
hand = sorted((r for r in union if r[1] and not r[0].startswith(GENERATED)), key=lambda r: r[2] - r[1])
for path, lines, covered in hand[:15]:
    print("| %s | %s | %s | %.1f%% |" % (path, format(lines, ","), format(lines - covered, ","), 100.0 * covered / lines))
PY
