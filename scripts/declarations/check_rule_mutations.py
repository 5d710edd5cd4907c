#!/usr/bin/env python3
"""Shows that validation is executed from the declarations of Schemas/, not restated beside them.

Each mutation below changes one declaration in a copy of Schemas/ (a limit's
value, a condition, where a finding is reported, what is counted, a check's
form or field) and runs every validator that executes the declarations over
every validate vector, each with what it reads made from the copy: the Python
testee's (testees/python/imcodec_validate.py, which reads the descriptors
protoc makes), the JavaScript one (js/src/validate.js, which reads
js/generated/rules.js, made by scripts/codegen/generate_constraints.py) and the
C reference's (Sources/IMCodecReference/validate.c, which reads the tables
scripts/codegen/generate_constraints.py and generate_c_rules.py make; the C
testee is built against them with the Makefile's TABLES, in a build folder of
its own where only the objects that read the tables are rebuilt, and the
conformance runner runs the validate cases through it) and the Java testee's
(testees/java/src/imcodec/javatestee/Validator.java, which reads the
descriptors of the classes compiled from the schema, or, with the environment
variable IMCODEC_JAVA_DECLARATIONS, those of a descriptor set: it is given the
set protoc makes from the copy, so the classes are not compiled again, and the
conformance runner runs the validate cases through it) and the Swift
library's (Sources/IMCodecValidation, run by `imcodec-devtools
check-rule-table` with the table scripts/codegen/generate_swift_rules.py --json
writes from the copy, which the library's engine compiles at run time, so one
build serves every mutation). The check fails unless
the unchanged schema passes every case in each and each mutation makes at
least one case fail in each: a declaration an engine did not execute would
change nothing.

    python3 scripts/declarations/check_rule_mutations.py           # every mutation
    python3 scripts/declarations/check_rule_mutations.py --list    # the mutations
    python3 scripts/declarations/check_rule_mutations.py --imcodec PATH   # the runner to use

Needs protoc, Node, the C reference's build dependencies (Sources/IMCodecReference/README.md),
the Java testee's (testees/java/README.md; it is built first with `testees/java/testee --build`),
the imcodec CLI and imcodec-devtools of a Swift build (default: those of
`swift build --show-bin-path`; the check does not build them) and the Python
testee's environment (.build/python-testee, made by `testees/python/testee --build`),
whose protobuf runtime it runs the Python engine in.
"""

import argparse
import concurrent.futures
import contextlib
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))

import generated  # noqa: E402

PYTHON = os.path.join(ROOT, ".build", "python-testee", "bin", "python")
JAVA_TESTEE = os.path.join(ROOT, "testees", "java", "testee")

# (name, schema file under Schemas/, text, replacement): each text occurs exactly once in its file.
MUTATIONS = [
    ("a limit's value", "imcodec/v1/model.proto",
     'name: "maxGroupNameBytes"\n      row: "G3"\n      code: "limit.group.name-bytes"\n'
     '      measure: MEASURE_UTF8_BYTES\n      sdk_guide: {number: 30}',
     'name: "maxGroupNameBytes"\n      row: "G3"\n      code: "limit.group.name-bytes"\n'
     '      measure: MEASURE_UTF8_BYTES\n      sdk_guide: {number: 31}'),
    ("a limit's condition", "imcodec/v1/model.proto",
     'when: {field: "type" strings: "GROUP_INFO_CHANGE_TYPE_INTRODUCTION"}',
     'when: {field: "type" strings: "GROUP_INFO_CHANGE_TYPE_NOTIFICATION"}'),
    ("a use's condition", "imcodec/v1/model.proto",
     'use: {limit: "maxUserIDBytes" when: {field: "type" strings: "GROUP_INFO_CHANGE_TYPE_OWNER"}}',
     'use: {limit: "maxUserIDBytes" when: {field: "type" strings: "GROUP_INFO_CHANGE_TYPE_NAME"}}'),
    ("where a limit reports", "imcodec/v1/model.proto",
     '      sum_with: "ext"\n      report: REPORT_HOLDER',
     '      sum_with: "ext"\n      report: REPORT_FIELD'),
    ("what a count counts", "imcodec/v1/model.proto",
     'count_when: {field: "type" strings: "GROUP_INFO_CHANGE_TYPE_CUSTOM"}',
     'count_when: {field: "type" strings: "GROUP_INFO_CHANGE_TYPE_NAME"}'),
    ("the first entry past a limit", "imcodec/v1/model.proto",
     'count_when: {field: "custom" present: true}\n      report: REPORT_FIRST_EXCESS',
     'count_when: {field: "custom" present: true}\n      report: REPORT_FIELD'),
    ("an entry's measured field", "imcodec/v1/model.proto",
     'use: {limit: "maxProfileStringBytes" entry_field: "data" report: REPORT_ENTRY}',
     'use: {limit: "maxProfileStringBytes" entry_field: "key" report: REPORT_ENTRY}'),
    ("a per-key limit's key", "imcodec/v1/model.proto",
     'key: "^Message.group_type"', 'key: "^Message.msg_id"'),
    ("a check's form", "imcodec/v1/model.proto",
     'check: {code: "rule.message.target-ambiguous" form: FORM_AT_MOST_ONE',
     'check: {code: "rule.message.target-ambiguous" form: FORM_AT_LEAST_ONE'),
    ("a check's condition", "imcodec/v1/model.proto",
     'strings: "SNS_SYSTEM_TYPE_ADD_FRIEND_REQ" negate: true}}\n      check: {code: "rule.sns.source-type"',
     'strings: "SNS_SYSTEM_TYPE_DEL_FRIEND_REQ" negate: true}}\n      check: {code: "rule.sns.source-type"'),
    ("a check's field", "imcodec/v1/model.proto",
     'check: {code: "rule.merger.key-with-messages" form: FORM_ABSENT fields: "json_msg_key"',
     'check: {code: "rule.merger.key-with-messages" form: FORM_ABSENT fields: "title"'),
    ("a check's place", "imcodec/v1/model.proto",
     'when: {field: "^MergerElem" present: true} at: "."}',
     'when: {field: "^MergerElem" present: true}}'),
    ("what a finding carries", "imcodec/v1/group.proto",
     'fields: "members_info" actual: ACTUAL_COUNT', 'fields: "members_info" actual: ACTUAL_NONE'),
    ("a discriminator's condition", "imcodec/v1/model.proto",
     'discriminator_when: {field: "rong_cloud_status" present: false}',
     'discriminator_when: {field: "rong_cloud_status" present: true}'),
    ("a forbidden prefix", "imcodec/v1/group.proto",
     'measure: MEASURE_FORBIDDEN_PREFIX', 'measure: MEASURE_PREFIX'),
]


@contextlib.contextmanager
def mutated(schemas, index, problems):
    """Applies mutation `index` to the copy of Schemas/ at `schemas` for the `with` block, and restores it after;
    yields False (and adds a problem) when the text to change is not in its file exactly once."""
    name, path, text, replacement = MUTATIONS[index]
    file = os.path.join(schemas, path)
    with open(file, encoding="utf-8") as f:
        original = f.read()
    if original.count(text) != 1:
        problems.append(f"{name}: the text to change occurs {original.count(text)} times in {path}")
        yield False
        return
    with open(file, "w", encoding="utf-8") as f:
        f.write(original.replace(text, replacement))
    try:
        yield True
    finally:
        with open(file, "w", encoding="utf-8") as f:
            f.write(original)


def vectors():
    cases = []
    for path in sorted(glob.glob(os.path.join(ROOT, "Vectors", "limits", "validation-*.json"))):
        with open(path, encoding="utf-8") as f:
            cases += [c for c in json.load(f)["cases"] if c["operation"] == "validate"]
    return cases


def run_cases(generated_dir):
    """Runs the engine with the descriptors of `generated_dir` over every validate vector, in a fresh interpreter;
    returns the ids of the cases whose findings differ."""
    program = r'''
import json, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
sys.setrecursionlimit(20000)
from google.protobuf.internal import api_implementation
if api_implementation.Type() == "upb":  # merger chains nest past upb's default 100 levels, as in the testee
    from google._upb import _message
    _message.SetAllowOversizeProtos(True)
from imcodec.v1 import model_pb2, event_pb2
import imcodec_validate
kinds = {"message": model_pb2.Message, "batch": model_pb2.MessageBatch, "event": event_pb2.Event}
failed = []
for case in json.load(sys.stdin):
    message = kinds[case["kind"]]()
    message.ParseFromString(bytes.fromhex(case["input"]["payloadHex"]))
    try:
        got = [list(f) for f in imcodec_validate.validate(message, case["input"]["profile"])]
    except Exception:
        failed.append(case["id"])
        continue
    ok = True
    for want in case["expected"].get("findings", []):
        for i, f in enumerate(got):
            if (f[0], f[1], f[2]) == (want["code"], want.get("path", ""), want["severity"]) and \
                    all(k not in want or want[k] == (f[j] or 0) for k, j in (("limit", 3), ("actual", 4))):
                del got[i]
                break
        else:
            ok = False
    if not ok or got:
        failed.append(case["id"])
json.dump(failed, sys.stdout)
'''
    result = subprocess.run([PYTHON, "-c", program, generated_dir, os.path.join(ROOT, "testees", "python")],
                            input=json.dumps(vectors()), capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit("check_rule_mutations.py: the engine's run failed:\n" + result.stderr[-2000:])
    return json.loads(result.stdout)


def run_js_cases(schemas, out):
    """Runs the JavaScript validator with the rule table made from `schemas` over every validate vector; returns
    the ids of the cases whose findings differ."""
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "codegen", "generate_constraints.py"),
                    os.path.join(out, "generated-root")], env={**os.environ, "IMCODEC_SCHEMAS": schemas}, check=True,
                   stdout=subprocess.DEVNULL)
    js = os.path.join(out, "js")
    shutil.copytree(os.path.join(ROOT, "js", "src"), os.path.join(js, "src"))
    shutil.copytree(os.path.join(ROOT, "js", "generated"), os.path.join(js, "generated"))
    shutil.copy(os.path.join(out, "generated-root", "js", "generated", "rules.js"),
                os.path.join(js, "generated", "rules.js"))
    program = r'''
import { readFileSync } from "node:fs";
const root = process.argv[1];
const model = await import(root + "/generated/model.js");
const { validate } = await import(root + "/src/validate.js");
const kinds = { message: "Message", batch: "MessageBatch", event: "Event" };
const failed = [];
for (const c of JSON.parse(readFileSync(0, "utf8"))) {
    const type = model[kinds[c.kind]];
    let left;
    try {
        left = validate(type.decode(Buffer.from(c.input.payloadHex, "hex"), c.limits ?? {}), type, c.input.profile);
    } catch (error) {
        failed.push(c.id);
        continue;
    }
    let ok = true;
    for (const want of c.expected.findings ?? []) {
        const i = left.findIndex((f) => f.code === want.code && f.path === (want.path ?? "") &&
            f.severity === want.severity && (want.limit === undefined || want.limit === (f.limit ?? 0)) &&
            (want.actual === undefined || want.actual === (f.actual ?? 0)));
        if (i < 0) ok = false; else left.splice(i, 1);
    }
    if (!ok || left.length) failed.push(c.id);
}
process.stdout.write(JSON.stringify(failed));
'''
    result = subprocess.run(["node", "--input-type=module", "-e", program, js], input=json.dumps(vectors()),
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit("check_rule_mutations.py: the JavaScript engine's run failed:\n" + result.stderr[-2000:])
    return json.loads(result.stdout)


def run_c_cases(schemas, out, build, imcodec):
    """Builds the C testee with the tables made from `schemas` (in `out`, as run_js_cases left it) into `build` and
    runs every validate vector through it; returns the ids of the cases that do not pass."""
    root = os.path.join(out, "generated-root")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "codegen", "generate_c_rules.py"), root],
                   env={**os.environ, "IMCODEC_SCHEMAS": schemas}, check=True, stdout=subprocess.DEVNULL)
    tables = os.path.join(root, "Sources", "IMCodecReference", "Generated")
    subprocess.run(["make", "-s", "-C", os.path.join(ROOT, "Sources", "IMCodecReference"), "BUILD=" + build,
                    "TABLES=" + tables, "testee"], check=True, stdout=subprocess.DEVNULL)
    return run_testee_cases("C", os.path.join(build, "imcodec-c-testee"), os.path.join(out, "c-report.json"),
                            imcodec)


def run_testee_cases(engine, testee, report, imcodec, env=None):
    """Runs every validate vector through a testee with the conformance runner, its JSON report written to
    `report`; returns the ids of the cases that do not pass."""
    subprocess.run([imcodec, "conformance", "--vectors", os.path.join(ROOT, "Vectors"), "--testee", testee,
                    "--filter", "validate.", "--json", report],
                   env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not os.path.exists(report):
        raise SystemExit(f"check_rule_mutations.py: the conformance run of the {engine} testee wrote no report")
    with open(report, encoding="utf-8") as f:
        status = {c["id"]: c["status"] for c in json.load(f)["cases"]}
    return [c["id"] for c in vectors() if status.get(c["id"]) != "passed"]


def run_java_cases(schemas, out, imcodec):
    """Runs every validate vector through the Java testee with the declarations of the descriptor set protoc makes
    from `schemas` (IMCODEC_JAVA_DECLARATIONS); returns the ids of the cases that do not pass."""
    os.makedirs(out, exist_ok=True)
    descriptor_set = os.path.join(out, "declarations.pb")
    paths = [os.path.join(schemas, p) for p in (*generated.SCHEMAS, generated.OPTIONS_SCHEMA)]
    subprocess.run(["protoc", "-I" + schemas, "--include_imports", "--descriptor_set_out=" + descriptor_set, *paths],
                   check=True)
    return run_testee_cases("Java", JAVA_TESTEE, os.path.join(out, "java-report.json"), imcodec,
                            env={"IMCODEC_JAVA_DECLARATIONS": descriptor_set})


def built(product):
    """A product of the Swift build (`swift build --show-bin-path`), which this check does not build."""
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True,
                              text=True).stdout.strip()
    return os.path.join(bin_path, product)


def run_swift_cases(schemas, out, devtools):
    """Runs the Swift library's rule engine with the table made from `schemas` over every validate vector: the
    engine compiles the JSON of scripts/codegen/generate_swift_rules.py --json at run time (`imcodec-devtools
    check-rule-table`), so one build serves every mutation. Returns the ids of the cases whose findings differ."""
    table = out + "-swift.json"
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "codegen", "generate_swift_rules.py"), "--json",
                    table], env={**os.environ, "IMCODEC_SCHEMAS": schemas}, check=True, stdout=subprocess.DEVNULL)
    files = sorted(glob.glob(os.path.join(ROOT, "Vectors", "limits", "validation-*.json")))
    result = subprocess.run([devtools, "check-rule-table", "--table", table, *files], capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit("check_rule_mutations.py: the Swift engine's run failed:\n" + result.stderr[-2000:])
    return json.loads(result.stdout)


def generate(schemas, out):
    os.makedirs(out)
    paths = [os.path.join(schemas, p) for p in (*generated.SCHEMAS, generated.OPTIONS_SCHEMA)]
    subprocess.run(["protoc", "-I" + schemas, "--python_out=" + out, *paths], check=True)


def check_mutations(indices, tmp, worker, imcodec, devtools):
    """Runs the mutations numbered `indices` in a copy of Schemas/ and a C build of the worker's own; returns the
    line printed for each mutation and the problems."""
    schemas = os.path.join(tmp, f"Schemas-{worker}")
    build = os.path.join(tmp, f"c-build-{worker}")
    shutil.copytree(os.path.join(ROOT, "Schemas"), schemas)
    lines, problems = {}, []
    for index in indices:
        name = MUTATIONS[index][0]
        with mutated(schemas, index, problems) as applied:
            if not applied:
                continue
            out = os.path.join(tmp, f"mutation-{index}")
            generate(schemas, out)
            results = (("Python", run_cases(out)), ("JavaScript", run_js_cases(schemas, out + "-js")),
                       ("C", run_c_cases(schemas, out + "-js", build, imcodec)),
                       ("Java", run_java_cases(schemas, out + "-java", imcodec)),
                       ("Swift", run_swift_cases(schemas, out, devtools)))
        lines[index] = (f"{name}: " + "; ".join(f"{engine} {len(failed)} cases fail" for engine, failed in results)
                        + f" ({', '.join(results[0][1][:2])}, ...)")
        problems += [f"{name}: no case fails in {engine}, so its engine does not execute this declaration"
                     for engine, failed in results if not failed]
    return lines, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="print the mutations and exit")
    parser.add_argument("--imcodec",
                        help="the imcodec CLI that runs the C and Java testees (default: the Swift build's)")
    parser.add_argument("--devtools",
                        help="the imcodec-devtools that runs the Swift engine (default: the Swift build's)")
    arguments = parser.parse_args()
    if arguments.list:
        for name, path, _, _ in MUTATIONS:
            print(f"{name} ({path})")
        return 0
    imcodec = arguments.imcodec or built("imcodec")
    devtools = arguments.devtools or built("imcodec-devtools")
    # Built once here: the conformance runner gives a case 10 seconds, the first request (and a build) included.
    subprocess.run([JAVA_TESTEE, "--build"], check=True)
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        schemas = os.path.join(tmp, "Schemas")
        shutil.copytree(os.path.join(ROOT, "Schemas"), schemas)
        generate(schemas, os.path.join(tmp, "unchanged"))
        for engine, failed in (("Python", run_cases(os.path.join(tmp, "unchanged"))),
                               ("JavaScript", run_js_cases(schemas, os.path.join(tmp, "unchanged-js"))),
                               ("C", run_c_cases(schemas, os.path.join(tmp, "unchanged-js"),
                                                 os.path.join(tmp, "c-build"), imcodec)),
                               ("Java", run_java_cases(schemas, os.path.join(tmp, "unchanged-java"), imcodec)),
                               ("Swift", run_swift_cases(schemas, os.path.join(tmp, "unchanged"), devtools))):
            if failed:
                problems.append(f"the unchanged declarations fail {len(failed)} cases in {engine}: "
                                + ", ".join(failed[:5]))
        # The engines of one mutation run one after the other, mostly on one core; two mutations at a time.
        workers = 2
        lines = {}
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            futures = [pool.submit(check_mutations, range(worker, len(MUTATIONS), workers), tmp, worker, imcodec,
                                   devtools) for worker in range(workers)]
            for future in futures:
                worker_lines, worker_problems = future.result()
                lines.update(worker_lines)
                problems += worker_problems
        for index in sorted(lines):
            print(lines[index])
    for problem in problems:
        print("check_rule_mutations.py: " + problem, file=sys.stderr)
    if problems:
        return 1
    print(f"{len(MUTATIONS)} mutations of the declarations, each one failing validate vectors in the Python, "
          "JavaScript, C and Java validators and in the Swift library's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
