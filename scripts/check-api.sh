#!/usr/bin/env bash
# The public API of the library products, as symbol lists: IMCodec's
# public symbols (from its symbol graph, the one DocC reads), one a line as
# `kind path: declaration`, compared with the committed docs/api/IMCodec.txt
# so that every API change is deliberate. No public declaration may have an
# `_`-prefixed name in its path: the symbol graph leaves such names out, so
# they are looked for in swift-api-digester's dump of the module, which keeps
# them (and marks what is not public).
#
#   scripts/check-api.sh            compare (needs `swift build` first)
#   scripts/check-api.sh --update   rewrite docs/api/IMCodec.txt
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/imcodec-module.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

imcodec_symbol_graph "$work"

python3 - "$work" "$work/IMCodec.txt" <<'PY'
import glob, json, sys
work, out = sys.argv[1:]
lines = set()
for path in glob.glob(f"{work}/*.symbols.json"):
    for symbol in json.load(open(path, encoding="utf-8"))["symbols"]:
        name = ".".join(symbol["pathComponents"])
        declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
        lines.add(f'{symbol["kind"]["identifier"].removeprefix("swift.")} {name}: {" ".join(declaration.split())}')
underscored = sorted(l for l in lines if any(c.startswith("_") for c in l.split(" ", 2)[1].rstrip(":").split(".")))
if underscored:
    sys.exit("public symbols with _-prefixed names:\n" + "\n".join(underscored))
open(out, "w", encoding="utf-8").write("".join(l + "\n" for l in sorted(lines)))
print(f"IMCodec: {len(lines)} public symbols")
PY

imcodec_sdk_dump "$work/sdk.json"
python3 - "$work/sdk.json" <<'PY'
import json, sys
found = []
def walk(node, path, hidden):
    kind = node.get("declKind")
    path = path + [node.get("name", "")] if kind else path
    # Not public, or written by the compiler (derived conformances, the
    # typealiases it makes for a protocol's requirements).
    hidden = hidden or node.get("isInternal", False) or node.get("isImplicit", False) \
        or "Implements" in (node.get("declAttributes") or [])
    if kind and kind != "Import" and not hidden and node.get("moduleName") == "IMCodec" \
            and any(name.startswith("_") for name in path):
        found.append(f"{kind} {'.'.join(path)}")
    for child in node.get("children", []):
        walk(child, path, hidden)
walk(json.load(open(sys.argv[1], encoding="utf-8"))["ABIRoot"], [], False)
if found:
    sys.exit("public declarations with _-prefixed names:\n" + "\n".join(sorted(set(found))))
PY

if [ "${1:-}" = "--update" ]; then
    cp "$work/IMCodec.txt" docs/api/IMCodec.txt
    echo "docs/api/IMCodec.txt updated"
elif ! diff -u docs/api/IMCodec.txt "$work/IMCodec.txt"; then
    echo "the public API of IMCodec changed: if that is meant, run scripts/check-api.sh --update and commit docs/api/IMCodec.txt" >&2
    exit 1
fi
