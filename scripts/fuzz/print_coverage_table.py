#!/usr/bin/env python3
"""Prints the line-coverage tables of scripts/fuzz/fuzz_coverage.sh from
llvm-cov's summary exports (PROFILES/TARGET.json and PROFILES/all.json):
per target, all targets together, by folder, the hand-written files with
the most lines not covered, and validation (Sources/IMCodecValidation and the
C validator) per target.

    print_coverage_table.py REPO PROFILES COMMIT TARGET...
"""
import datetime, json, os, sys

repo, profiles, commit, targets = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
LIBRARIES = ("Sources/IMCodec/", "Sources/IMCodecReference/")
GENERATED = ("Sources/IMCodec/Generated/", "Sources/IMCodecReference/Generated/",
             "Sources/IMCodecValidation/Generated/")
# The validator: the Swift module and the C reference's validate.c.
VALIDATION = ("Sources/IMCodecValidation/", "Sources/IMCodecReference/validate.c")
# The by-folder table also shows the layers above the core that the targets link.
FOLDERS = LIBRARIES + (VALIDATION[0], "Sources/IMCodecREST/")


def files(name):
    """(path in the repository, lines, covered) of the library's files in an export."""
    with open(os.path.join(profiles, name + ".json")) as f:
        data = json.load(f)["data"][0]["files"]
    for entry in data:
        path = os.path.relpath(entry["filename"], repo)
        if path.startswith(FOLDERS):
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
print()
print("Validation by the seed corpora (Sources/IMCodecValidation/, hand-written: without its Generated/ tables; "
      "the C validator, Sources/IMCodecReference/validate.c):")
print()
print("| target | IMCodecValidation, all | IMCodecValidation, hand-written | validate.c |")
print("|---|---|---|---|")
for target in targets + ["all"]:
    rows = list(files(target))
    swift = [r for r in rows if r[0].startswith(VALIDATION[0])]
    hand_swift = [r for r in swift if not r[0].startswith(GENERATED)]
    c = [r for r in rows if r[0] == VALIDATION[1]]
    print("| %s | %s | %s | %s |" % ("all targets" if target == "all" else target, share(swift), share(hand_swift),
                                     share(c)))
