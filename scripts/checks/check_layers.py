#!/usr/bin/env python3
"""Prints the package's target graph (from `swift package describe`) by layer
and checks that every dependency points to a lower layer, that the shipped
`imcodec` tool neither depends on nor links swift-protobuf or the
swift-protobuf oracle, and that the library modules other than
IMCodecFoundation neither import Foundation nor, once built, refer to a
symbol of it (README: "Foundation"). SwiftPM itself refuses a dependency cycle, and
.ci/run builds with --explicit-target-dependency-import-check=error, which
refuses an `import` of a target that is not a declared dependency; so a
back-edge can neither be declared nor slip in as an import.

    python3 scripts/checks/check_layers.py     graph and checks (the nm checks need `swift build`)
"""

import json
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


# The layers, lowest first. A target may depend only on targets of lower
# layers (and on products of other packages where its layer allows).
LAYERS = [
    ("system and C", ["CZlib", "CZstd", "CLibDeflate", "CProtobufC", "CIMCodecCRC32", "CIMCodecUTF8"]),
    ("codec", ["IMCodec", "IMCodecReference"]),
    ("formats, protocol and transports", ["IMCodecREST", "IMCodecFoundation", "IMCodecTestee", "IMCodecNIO",
                                          "IMCodecTraffic", "IMCodecOracle", "CReferenceChecks"]),
    ("validation", ["IMCodecValidation"]),
    ("conformance", ["IMCodecConformance"]),
    ("tools and tests", ["IMCodecCLI", "imcodec-devtools", "IMCodecTestSupport"]),
    ("test suites", ["IMCodecTests", "IMCodecFoundationTests", "IMCodecRESTTests", "IMCodecValidationTests",
                     "IMCodecConformanceTests", "IMCodecCLITests", "IMCodecDifferentialTests"]),
]
# Targets that must not reach swift-protobuf or the oracle, even indirectly.
WITHOUT_PROTOBUF = ["IMCodec", "IMCodecREST", "IMCodecValidation", "IMCodecTestee", "IMCodecConformance",
                    "IMCodecCLI"]
# Library modules that must not use Foundation: the product IMCodec and the
# testee protocol. Foundation's types come in through IMCodecFoundation, a
# product of its own, so a program that does not name it links no Foundation
# through imcodec.
WITHOUT_FOUNDATION = ["IMCodec", "IMCodecREST", "IMCodecValidation", "IMCodecTestee"]
FOUNDATION_IMPORT = re.compile(r"^\s*(@\w+\s+)*import\s+(Foundation\w*)\b", re.M)
# Swift's mangling of a symbol of Foundation or of the modules it is split into
# on Linux (FoundationEssentials, FoundationInternationalization).
FOUNDATION_SYMBOL = re.compile(r"\$s.*(10Foundation|20FoundationEssentials|31FoundationInternationalization)")


def check_graph(describe):
    """Prints the graph by layer; exits with the problems."""
    targets = {t["name"]: t for t in json.loads(describe)["targets"]}
    layer = {name: i for i, (_, names) in enumerate(LAYERS) for name in names}
    problems = [f"{name} has no layer in scripts/checks/check_layers.py" for name in targets if name not in layer]
    problems += [f"{name} is in a layer but not in the package" for name in layer if name not in targets]
    for i, (title, names) in enumerate(LAYERS):
        print(f"layer {i}, {title}:")
        for name in names:
            t = targets.get(name, {})
            deps = t.get("target_dependencies") or []
            products = t.get("product_dependencies") or []
            print(f"  {name} -> {', '.join(deps + products) or '(nothing)'}")
            for dep in deps:
                if dep in layer and layer[dep] >= i:
                    problems.append(f"{name} (layer {i}) depends on {dep} (layer {layer[dep]}): not a lower layer")

    def closure(name, seen):
        t = targets[name]
        for dep in t.get("target_dependencies") or []:
            if dep not in seen:
                seen.add(dep)
                closure(dep, seen)
        seen.update(t.get("product_dependencies") or [])
        return seen
    for name in WITHOUT_PROTOBUF:
        reached = closure(name, set()) & {"SwiftProtobuf", "IMCodecOracle"}
        if reached:
            problems.append(f"{name} reaches {', '.join(sorted(reached))}")
    if problems:
        sys.exit("\n".join(problems))
    print("no dependency points up a layer; " + ", ".join(WITHOUT_PROTOBUF) + " reach no swift-protobuf")


def check_foundation_imports():
    """No source file of WITHOUT_FOUNDATION imports a Foundation module."""
    problems = []
    for module in WITHOUT_FOUNDATION:
        for folder, _, names in os.walk(os.path.join(ROOT, "Sources", module)):
            for name in sorted(n for n in names if n.endswith(".swift")):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    for match in FOUNDATION_IMPORT.finditer(f.read()):
                        problems.append(f"{os.path.relpath(path, ROOT)} imports {match.group(2)}")
    if problems:
        sys.exit("\n".join(problems))
    print(", ".join(WITHOUT_FOUNDATION) + " import no Foundation module")


def check_foundation_symbols():
    """The built objects of WITHOUT_FOUNDATION refer to no Foundation symbol."""
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True,
                              text=True).stdout.strip()
    problems = []
    checked = 0
    for module in WITHOUT_FOUNDATION:
        # The objects of the module's sources as they are now: a build
        # folder keeps the objects of deleted files.
        folder = os.path.join(bin_path, module + ".build")
        sources = [n for _, _, names in os.walk(os.path.join(ROOT, "Sources", module)) for n in names
                   if n.endswith(".swift")]
        objects = [os.path.join(folder, n + ".o") for n in sorted(sources)]
        if not all(os.path.exists(o) for o in objects):
            problems.append(f"{module} is not built: run swift build first")
            continue
        symbols = subprocess.run(["nm", *objects], check=True, capture_output=True, text=True).stdout
        checked += len(objects)
        used = sorted({line.split()[-1] for line in symbols.splitlines() if FOUNDATION_SYMBOL.search(line)})
        problems += [f"{module} refers to the Foundation symbol {symbol}" for symbol in used[:5]]
    if problems:
        sys.exit("\n".join(problems))
    print(f"{checked} object files of {', '.join(WITHOUT_FOUNDATION)}: no Foundation symbol")


def check_binary():
    """The built imcodec holds no SwiftProtobuf or oracle symbol."""
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True,
                              text=True).stdout.strip()
    tool = os.path.join(bin_path, "imcodec")
    if not os.access(tool, os.X_OK):
        return
    symbols = subprocess.run(["nm", tool], check=True, capture_output=True, text=True).stdout.splitlines()
    if any(word in line for line in symbols for word in ("SwiftProtobuf", "IMCodecOracle", "Imcodec_V1_")):
        sys.exit(f"{tool} links swift-protobuf or the oracle")
    print(f"{tool}: no SwiftProtobuf or oracle symbol ({len(symbols)} symbols)")


if __name__ == "__main__":
    check_graph(subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=ROOT, check=True,
                               capture_output=True, text=True).stdout)
    check_foundation_imports()
    check_foundation_symbols()
    check_binary()
