#!/usr/bin/env bash
# Builds IMCodec's documentation with DocC (the toolchain's docc, from the
# public symbol graph and Sources/IMCodec/IMCodec.docc) and checks it:
# DocC reports no warning; no page is for a declaration that
# swift-api-digester's dump of the module shows as not public, or that it does
# not show at all, and no page has an `_`-prefixed name, so no package or
# internal symbol (WireReader, WireCodable, `_merge`) is shown; and every
# public type is listed in a topic group of the catalog's module page, none
# left to the groups DocC makes for what is not curated.
#
#   scripts/check-docs.sh              check (needs `swift build` first)
#   scripts/check-docs.sh OUTPUT-DIR   check, and keep the archive there
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/imcodec-module.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
archive=${1:-$work/IMCodec.doccarchive}

imcodec_symbol_graph "$work/graphs"
rm -rf "$archive"
docc convert Sources/IMCodec/IMCodec.docc --additional-symbol-graph-dir "$work/graphs" \
    --output-path "$archive" --fallback-display-name IMCodec --fallback-bundle-identifier imcodec.IMCodec \
    --warnings-as-errors >"$work/docc.log" 2>&1 || { cat "$work/docc.log" >&2; exit 1; }

imcodec_sdk_dump "$work/sdk.json"

python3 - "$archive" "$work/sdk.json" <<'PY'
import json, os, sys
archive, sdk = sys.argv[1:]
data = os.path.join(archive, "data", "documentation")
public, hidden = set(), set()
def walk(node, internal):
    internal = internal or node.get("isInternal", False)
    if node.get("usr") and node.get("declKind"):
        (hidden if internal else public).add(node["usr"])
    for child in node.get("children", []):
        walk(child, internal)
walk(json.load(open(sdk, encoding="utf-8"))["ABIRoot"], False)
problems, pages = [], 0
for root, _, files in os.walk(data):
    for name in files:
        if not name.endswith(".json"):
            continue
        pages += 1
        page = json.load(open(os.path.join(root, name), encoding="utf-8"))
        path = page["identifier"]["url"]
        # A member a type has from a protocol extension: the extension's
        # declaration, then `::SYNTHESIZED::` and the type.
        usr = page.get("metadata", {}).get("externalID", "").split("::SYNTHESIZED::")[0]
        if any(c.startswith("_") for c in path.split("/")):
            problems.append(f"an _-prefixed name has a page: {path}")
        if usr in hidden:
            problems.append(f"a page for a declaration that is not public: {path}")
        elif usr and usr.startswith("s:7IMCodec") and usr not in public:
            problems.append(f"a page for a declaration the module's public API does not have: {path}")
module = json.load(open(os.path.join(data, "imcodec.json"), encoding="utf-8"))
for section in module.get("topicSections", []):
    if section.get("generated"):
        names = ", ".join(i.rsplit("/", 1)[1] for i in section["identifiers"])
        problems.append(f"not in a topic group of IMCodec.md (in DocC's own '{section.get('title')}' group): {names}")
if problems:
    sys.exit("\n".join(problems))
curated = sum(len(s["identifiers"]) for s in module.get("topicSections", []))
print(f"IMCodec documentation: {pages} pages, none for a declaration that is not public;"
      f" {curated} entries in the module page's topic groups, nothing uncurated")
PY
