#!/usr/bin/env bash
# The public API of the library products, as symbol lists: IMCodec's
# public symbols (from its symbol graph, the one DocC reads), one a line as
# `kind path: declaration`, compared with the committed docs/api/IMCodec.txt
# so that every API change is deliberate. No listed symbol may have an
# `_`-prefixed name in its path.
#
#   scripts/check-api.sh            compare (needs `swift build` first)
#   scripts/check-api.sh --update   rewrite docs/api/IMCodec.txt
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(swift build --show-bin-path)
triple=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The C modules IMCodec imports: system libraries with their module maps in
# their folders, and C targets whose module maps SwiftPM wrote into the build.
includes=()
for dir in Sources/C*/; do
    [ -f "$dir/module.modulemap" ] && includes+=(-Xcc -I -Xcc "$dir")
done
for map in "$bin"/C*.build/module.modulemap; do
    includes+=(-Xcc "-fmodule-map-file=$map")
done
swift symbolgraph-extract -module-name IMCodec -target "$triple" -I "$bin/Modules" \
    -minimum-access-level public -skip-inherited-docs -output-dir "$work" "${includes[@]}"

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

if [ "${1:-}" = "--update" ]; then
    cp "$work/IMCodec.txt" docs/api/IMCodec.txt
    echo "docs/api/IMCodec.txt updated"
elif ! diff -u docs/api/IMCodec.txt "$work/IMCodec.txt"; then
    echo "the public API of IMCodec changed: if that is meant, run scripts/check-api.sh --update and commit docs/api/IMCodec.txt" >&2
    exit 1
fi
