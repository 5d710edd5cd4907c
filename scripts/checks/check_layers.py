#!/usr/bin/env python3
"""Prints the package's target graph (from `swift package describe`) by layer
and checks that every dependency points to a lower layer, and that the
shipped `imcodec` tool neither depends on nor links swift-protobuf or the
swift-protobuf oracle. SwiftPM itself refuses a dependency cycle, and
.ci/run builds with --explicit-target-dependency-import-check=error, which
refuses an `import` of a target that is not a declared dependency; so a
back-edge can neither be declared nor slip in as an import.

    python3 scripts/checks/check_layers.py     graph and checks (the nm check needs `swift build`)
"""

import json
import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


# The layers, lowest first. A target may depend only on targets of lower
# layers (and on products of other packages where its layer allows).
LAYERS = [
    ("system and C", ["CZlib", "CZstd", "CLibDeflate", "CProtobufC", "CIMCodecCRC32", "CIMCodecUTF8"]),
    ("codec", ["IMCodec", "IMCodecReference"]),
    ("formats, protocol and transports", ["IMCodecREST", "IMCodecTestee", "IMCodecNIO", "IMCodecTraffic",
                                          "IMCodecOracle", "CReferenceChecks"]),
    ("validation", ["IMCodecValidation"]),
    ("conformance", ["IMCodecConformance"]),
    ("tools and tests", ["IMCodecCLI", "imcodec-devtools", "IMCodecTestSupport"]),
    ("test suites", ["IMCodecTests", "IMCodecRESTTests", "IMCodecValidationTests", "IMCodecConformanceTests",
                     "IMCodecCLITests", "IMCodecDifferentialTests"]),
]
# Targets that must not reach swift-protobuf or the oracle, even indirectly.
WITHOUT_PROTOBUF = ["IMCodec", "IMCodecREST", "IMCodecValidation", "IMCodecTestee", "IMCodecConformance",
                    "IMCodecCLI"]


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
    check_binary()
