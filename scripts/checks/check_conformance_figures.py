#!/usr/bin/env python3
"""Fails unless the conformance figures README.md and js/README.md state equal the runs' JSON reports.

The README gives, for each testee, how many cases pass, are skipped and are
listed known failures against the bundled vectors; js/README.md gives the
JavaScript testee's. This check reads each sentence that states them and
compares every number with the report `imcodec conformance --json` wrote for
that testee (.ci/run writes them to .build/reports, named by --name).

    python3 scripts/checks/check_conformance_figures.py REPORTS-DIR
    python3 scripts/checks/check_conformance_figures.py --self-test REPORTS-DIR

--self-test changes one figure of each sentence in a copy of the text and
fails unless the check then reports every one.
"""

import json
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# (file, report name, the sentence with one group per figure, the figures).
NUMBER = r"([\d,]+)"
SENTENCES = [
    ("README.md", "c",
     r"Against the NUMBER vectors it passes NUMBER cases outright \(every frame and\s+stream case among them\), "
     r"NUMBER are skipped in part or in whole\s+by its declared operations, and NUMBER are listed protobuf-c limits",
     ("cases", "passed", "skipped", "knownFailures")),
    ("README.md", "python",
     r"\):\s+NUMBER cases pass, NUMBER fail and NUMBER are skipped: every case, the REST import,",
     ("passed", "failed", "skipped")),
    ("README.md", "js",
     r"\(`testees/js`\) NUMBER cases pass, NUMBER fail, NUMBER are skipped\s+"
     r"and the NUMBER zstd cases",
     ("passed", "failed", "skipped", "knownFailures")),
    ("README.md", "java",
     r"but for NUMBER listed cases protobuf-java decides otherwise, and\s+so do the REST import, export and "
     r"validation cases \(NUMBER cases pass,\s+NUMBER fail, NUMBER are skipped\)",
     ("knownFailures", "passed", "failed", "skipped")),
    ("js/README.md", "js",
     r"through the testee: NUMBER cases pass, NUMBER fail, NUMBER are skipped,\s+"
     r"and the NUMBER zstd cases",
     ("passed", "failed", "skipped", "knownFailures")),
]
WORDS = {"three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}


def figure(text):
    return WORDS[text] if text in WORDS else int(text.replace(",", ""))


def problems(texts, reports):
    found = []
    for name, report, pattern, fields in SENTENCES:
        regex = re.compile(pattern.replace("NUMBER", r"([\d,]+|three|four|five|six|seven|eight|nine)"))
        match = regex.search(texts[name])
        if match is None:
            found.append(f"{name}: no sentence matching {pattern!r} for the {report} run")
            continue
        total = reports[report]["summary"]["total"]
        for field, text in zip(fields, match.groups()):
            if figure(text) != total[field]:
                found.append(f"{name}: the {report} run's {field} is {total[field]:,}, the text says {text}")
    return found


def main(arguments):
    self_test = arguments[:1] == ["--self-test"]
    if self_test:
        arguments = arguments[1:]
    if len(arguments) != 1:
        sys.exit(__doc__)
    reports = {}
    for name in {report for _, report, _, _ in SENTENCES}:
        with open(os.path.join(arguments[0], f"{name}.json")) as handle:
            reports[name] = json.load(handle)
    texts = {}
    for name in {file for file, _, _, _ in SENTENCES}:
        with open(os.path.join(ROOT, name)) as handle:
            texts[name] = handle.read()
    found = problems(texts, reports)
    if not self_test:
        for problem in found:
            print(problem, file=sys.stderr)
        if found:
            sys.exit("the conformance figures of the READMEs are not the reports'")
        print(f"conformance figures: {len(SENTENCES)} sentences of README.md and js/README.md equal the reports of "
              f"{', '.join(sorted(reports))}")
        return
    if found:
        sys.exit("self-test: the texts must pass before figures are planted: " + "; ".join(found))
    missed = []
    for index, (name, report, pattern, _) in enumerate(SENTENCES):
        regex = re.compile(pattern.replace("NUMBER", r"([\d,]+|three|four|five|six|seven|eight|nine)"))
        match = regex.search(texts[name])
        for group in range(1, len(match.groups()) + 1):
            planted = dict(texts)
            start, end = match.span(group)
            wrong = str(figure(match.group(group)) + 1)
            planted[name] = texts[name][:start] + wrong + texts[name][end:]
            if not problems(planted, reports):
                missed.append(f"{name}: figure {group} of the {report} sentence")
    if missed:
        sys.exit("self-test: a planted figure went unreported: " + "; ".join(missed))
    print(f"self-test: every figure of the {len(SENTENCES)} sentences, planted one higher, is reported")


if __name__ == "__main__":
    main(sys.argv[1:])
