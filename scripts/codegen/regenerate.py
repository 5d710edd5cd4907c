#!/usr/bin/env python3
"""The one recipe for every generated file: regenerates them all from
Schemas/ (the .proto files and the preset dictionaries).

    python3 scripts/codegen/regenerate.py                  everything, into the repository
    python3 scripts/codegen/regenerate.py --skip-oracle    everything but the swift-protobuf oracle
    python3 scripts/codegen/regenerate.py --out DIR ...    into DIR instead of the repository

What is generated, from which schema files, and where it goes is written once,
in scripts/lib/generated.py; scripts/checks/check_generated.py runs this
recipe into a temporary folder and compares. In order:

1. protoc reads the schema files into a descriptor set;
2. scripts/codegen/generate_swift.py: the Swift model and codecs, the testee
   protocol's types, the test support's random values;
   scripts/codegen/generate_js.py: the JavaScript implementation's codec,
   testee protocol, limit defaults and dictionaries (js/generated);
3. scripts/codegen/generate_constraints.py: the limit tables (Swift, C) and
   docs/spec/limits.md, FindingCode's members and the finding-code table
   of docs/spec/error-and-finding-codes.md; scripts/codegen/generate_c_rules.py:
   the C reference's rule table; scripts/codegen/generate_swift_rules.py:
   the Swift validator's rule table; scripts/codegen/generate_swift_compiled.py:
   the Swift validator's visits compiled from that table; scripts/codegen/generate_rest.py:
   the REST form's Swift and JavaScript tables and the key tables of
   docs/spec/rest.md, from Schemas/imcodec/rest/v1/rest.json;
4. scripts/codegen/embed_dictionary_swift.py and embed_dictionary_c.py: the
   preset dictionaries in Swift and C;
5. protoc-c: the C reference's message code (without the include of the
   constraint options, which C never reads and whose header would need
   protobuf-c's descriptor.proto types, which libprotobuf-c-dev does not ship);
6. protoc --python_out and --java_out: the Python and Java testees' message
   code;
7. scripts/fuzz/make_fuzz_dicts.py: the libFuzzer dictionaries;
8. unless --skip-oracle, protoc-gen-swift: the swift-protobuf oracle, and its
   digests (scripts/codegen/oracle.sha256), which the check compares instead
   of rebuilding protoc-gen-swift.

Every folder output is emptied first, so a file nothing writes any more goes.
Needs protoc and protoc-c (Debian: protobuf-compiler, libprotobuf-dev,
protobuf-c-compiler) and python3. protoc-gen-swift is built from the
swift-protobuf dependency (a few minutes) into .build-plugin; set
PROTOC_GEN_SWIFT to use another.
"""

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
# scripts/lib: the scripts' shared modules.
sys.path.insert(0, os.path.join(HERE, os.pardir, "lib"))
import embed_dictionary_c  # noqa: E402
import embed_dictionary_swift  # noqa: E402
import generate_c_rules  # noqa: E402
import generate_constraints  # noqa: E402
import generate_js  # noqa: E402
import generate_rest  # noqa: E402
import generate_swift  # noqa: E402
import generate_swift_compiled  # noqa: E402
import generate_swift_rules  # noqa: E402
import generated  # noqa: E402
from schema import ROOT  # noqa: E402

ORACLE = next(o.path for o in generated.OUTPUTS if o.oracle and o.kind == "folder")
C_OUTPUT = "Sources/IMCodecReference/Generated"
PYTHON_OUTPUT = "testees/python/generated"
JAVA_OUTPUT = "testees/java/generated"
OPTIONS_INCLUDE = '#include "%s"\n' % generated.OPTIONS_SCHEMA.replace(".proto", ".pb-c.h")


def schema_paths():
    """The schema files protoc is given, as protoc wants them (below -ISchemas)."""
    return [os.path.join(ROOT, "Schemas", p) for p in generated.SCHEMAS]


def protoc(*arguments, program="protoc"):
    subprocess.run([program, "-I" + os.path.join(ROOT, "Schemas"), *arguments], check=True)


def oracle_inputs():
    """The files the oracle is generated from, relative to the repository."""
    return ["Schemas/" + p for p in (*generated.SCHEMAS, generated.OPTIONS_SCHEMA)]


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def manifest_lines(root):
    """`sha256sum` lines: the oracle's inputs (in the repository) and its files (under `root`)."""
    lines = ["%s  %s" % (sha256(os.path.join(ROOT, p)), p) for p in oracle_inputs()]
    for folder, _, files in sorted(os.walk(os.path.join(root, ORACLE))):
        for name in sorted(files):
            path = os.path.join(folder, name)
            lines.append("%s  %s" % (sha256(path), os.path.relpath(path, root)))
    return lines


def protoc_gen_swift():
    """The plugin: $PROTOC_GEN_SWIFT, or built from the swift-protobuf dependency."""
    plugin = os.environ.get("PROTOC_GEN_SWIFT")
    if plugin:
        return plugin
    subprocess.run(["swift", "build", "-c", "release", "--product", "protoc-gen-swift",
                    "--scratch-path", ".build-plugin"], cwd=ROOT, check=True, stdout=sys.stderr)
    return os.path.join(ROOT, ".build-plugin", "release", "protoc-gen-swift")


def regenerate(root, oracle):
    for output in generated.OUTPUTS:
        if output.kind == "folder" and (oracle or not output.oracle):
            shutil.rmtree(os.path.join(root, output.path), ignore_errors=True)
            os.makedirs(os.path.join(root, output.path))

    with tempfile.TemporaryDirectory() as tmp:
        descriptors = os.path.join(tmp, "descriptors")
        protoc("--include_source_info", "--descriptor_set_out=" + descriptors, *schema_paths())
        generate_swift.write(descriptors, root)
        generate_js.write(descriptors, root)
    generate_constraints.write_all(root)
    generate_c_rules.write_all(root)
    generate_swift_rules.write_all(root)
    generate_swift_compiled.write_all(root)
    generate_rest.write_all(root)
    embed_dictionary_swift.main(root)
    embed_dictionary_c.main(root)

    protoc("--c_out=" + os.path.join(root, C_OUTPUT), *schema_paths(), program="protoc-c")
    for folder, _, files in os.walk(os.path.join(root, C_OUTPUT)):
        for name in files:
            if name.endswith(".pb-c.h"):
                path = os.path.join(folder, name)
                with open(path) as f:
                    text = f.read()
                with open(path, "w") as f:
                    f.write(text.replace(OPTIONS_INCLUDE, ""))

    protoc("--python_out=" + os.path.join(root, PYTHON_OUTPUT), *schema_paths(),
           os.path.join(ROOT, "Schemas", generated.OPTIONS_SCHEMA))
    # The Java testee reads its default limits from the constraint options too.
    protoc("--java_out=" + os.path.join(root, JAVA_OUTPUT), *schema_paths(),
           os.path.join(ROOT, "Schemas", generated.OPTIONS_SCHEMA))
    subprocess.run([sys.executable, os.path.join(HERE, os.pardir, "fuzz", "make_fuzz_dicts.py"), root], check=True)

    if oracle:
        protoc("--plugin=protoc-gen-swift=" + protoc_gen_swift(), "--swift_opt=Visibility=Public",
               "--swift_opt=FileNaming=PathToUnderscores", "--swift_out=" + os.path.join(root, ORACLE),
               *schema_paths())
        manifest = os.path.join(root, generated.ORACLE_MANIFEST)
        os.makedirs(os.path.dirname(manifest), exist_ok=True)
        with open(manifest, "w") as f:
            f.write("".join(line + "\n" for line in manifest_lines(root)))


def main():
    parser = argparse.ArgumentParser(description="Regenerates every generated file from Schemas/.")
    parser.add_argument("--out", default=ROOT, help="the folder to write into (default: the repository)")
    parser.add_argument("--skip-oracle", action="store_true",
                        help="leave out the swift-protobuf oracle (which needs protoc-gen-swift)")
    arguments = parser.parse_args()
    regenerate(os.path.abspath(arguments.out), oracle=not arguments.skip_oracle)


if __name__ == "__main__":
    main()
