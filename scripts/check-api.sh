#!/usr/bin/env bash
# The public API of the library modules, as symbol lists: each module's
# public symbols (from its symbol graph, the one DocC reads), one a line as
# `kind path: declaration`, compared with the committed docs/api/MODULE.txt
# so that every API change is deliberate. No public declaration may have an
# `_`-prefixed name in its path: the symbol graph leaves such names out, so
# they are looked for in swift-api-digester's dump of the module, which keeps
# them (and marks what is not public).
#
#   scripts/check-api.sh            compare (needs `swift build` first)
#   scripts/check-api.sh --update   rewrite docs/api/*.txt
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/imcodec-module.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

status=0
for module in "${imcodec_modules[@]}"; do
    imcodec_symbol_graph "$work/$module" "$module"

    python3 - "$work/$module" "$work/$module.txt" "$module" <<'PY'
import glob, json, sys
work, out, module = sys.argv[1:]
lines = set()
# The module's own graph only: MODULE@OTHER.symbols.json holds its extensions
# of other modules' types, which are listed too, under the extended type.
for path in glob.glob(f"{work}/{module}*.symbols.json"):
    for symbol in json.load(open(path, encoding="utf-8"))["symbols"]:
        name = ".".join(symbol["pathComponents"])
        declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
        lines.add(f'{symbol["kind"]["identifier"].removeprefix("swift.")} {name}: {" ".join(declaration.split())}')
underscored = sorted(l for l in lines if any(c.startswith("_") for c in l.split(" ", 2)[1].rstrip(":").split(".")))
if underscored:
    sys.exit("public symbols with _-prefixed names:\n" + "\n".join(underscored))
open(out, "w", encoding="utf-8").write("".join(l + "\n" for l in sorted(lines)))
print(f"{module}: {len(lines)} public symbols")
PY

    imcodec_sdk_dump "$work/$module.sdk.json" "$module"
    python3 - "$work/$module.sdk.json" "$module" <<'PY'
import json, sys
found = []
module = sys.argv[2]
def walk(node, path, hidden):
    kind = node.get("declKind")
    path = path + [node.get("name", "")] if kind else path
    # Not public, or written by the compiler (derived conformances, the
    # typealiases it makes for a protocol's requirements).
    hidden = hidden or node.get("isInternal", False) or node.get("isImplicit", False) \
        or "Implements" in (node.get("declAttributes") or [])
    if kind and kind != "Import" and not hidden and node.get("moduleName") == module \
            and any(name.startswith("_") for name in path):
        found.append(f"{kind} {'.'.join(path)}")
    for child in node.get("children", []):
        walk(child, path, hidden)
walk(json.load(open(sys.argv[1], encoding="utf-8"))["ABIRoot"], [], False)
if found:
    sys.exit("public declarations with _-prefixed names:\n" + "\n".join(sorted(set(found))))
PY

    if [ "${1:-}" = "--update" ]; then
        cp "$work/$module.txt" "docs/api/$module.txt"
        echo "docs/api/$module.txt updated"
    elif ! diff -u "docs/api/$module.txt" "$work/$module.txt"; then
        echo "the public API of $module changed: if that is meant, run scripts/check-api.sh --update and commit docs/api/$module.txt" >&2
        status=1
    fi
done
exit $status
