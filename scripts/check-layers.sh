#!/usr/bin/env bash
# Prints the package's target graph (from `swift package describe`) by layer
# and checks that every dependency points to a lower layer, and that the
# shipped `imcodec` tool neither depends on nor links swift-protobuf or the
# swift-protobuf oracle. SwiftPM itself refuses a dependency cycle, and
# .ci/run builds with --explicit-target-dependency-import-check=error, which
# refuses an `import` of a target that is not a declared dependency; so a
# back-edge can neither be declared nor slip in as an import.
#
#   scripts/check-layers.sh          graph and checks (the nm check needs `swift build`)
set -euo pipefail
cd "$(dirname "$0")/.."
swift package describe --type json >"${TMPDIR:-/tmp}/imcodec-describe.$$.json"
trap 'rm -f "${TMPDIR:-/tmp}/imcodec-describe.$$.json"' EXIT
python3 - "${TMPDIR:-/tmp}/imcodec-describe.$$.json" <<'PY'
import json, sys

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

targets = {t["name"]: t for t in json.load(open(sys.argv[1], encoding="utf-8"))["targets"]}
layer = {name: i for i, (_, names) in enumerate(LAYERS) for name in names}
problems = [f"{name} has no layer in scripts/check-layers.sh" for name in targets if name not in layer]
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
PY
bin=$(swift build --show-bin-path)
if [ -x "$bin/imcodec" ]; then
    if nm "$bin/imcodec" | grep -q -e SwiftProtobuf -e IMCodecOracle -e Imcodec_V1_; then
        echo "$bin/imcodec links swift-protobuf or the oracle" >&2
        exit 1
    fi
    echo "$bin/imcodec: no SwiftProtobuf or oracle symbol ($(nm "$bin/imcodec" | wc -l) symbols)"
fi
