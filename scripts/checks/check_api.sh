#!/usr/bin/env bash
# The public API of the library modules, as symbol lists: each module's
# public symbols (from its symbol graph, the one DocC reads), one a line as
# `kind path: declaration` (scripts/lib/api_symbols.py), compared with the committed docs/api/MODULE.txt
# so that every API change is deliberate. No public declaration may have an
# `_`-prefixed name in its path: the symbol graph leaves such names out, so
# they are looked for in swift-api-digester's dump of the module, which keeps
# them (and marks what is not public).
#
#   scripts/checks/check_api.sh            compare (needs `swift build` first)
#   scripts/checks/check_api.sh --update   rewrite docs/api/*.txt
#
# IMCodecNIO is built only with the SwiftNIO trait, which the root build
# leaves off: scripts/checks/check_docs.sh, whose build has every trait,
# compares docs/api/IMCodecNIO.txt (IMCODEC_API_UPDATE=1 rewrites it).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/imcodec_module.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

status=0
for module in "${imcodec_modules[@]}"; do
    imcodec_symbol_graph "$work/$module" "$module"

    python3 scripts/lib/api_symbols.py list "$work/$module" "$work/$module.txt" "$module"

    imcodec_sdk_dump "$work/$module.sdk.json" "$module"
    python3 scripts/lib/api_symbols.py underscored "$work/$module.sdk.json" "$module"

    if [ "${1:-}" = "--update" ]; then
        cp "$work/$module.txt" "docs/api/$module.txt"
        echo "docs/api/$module.txt updated"
    elif ! diff -u "docs/api/$module.txt" "$work/$module.txt"; then
        echo "the public API of $module changed: if that is meant, run scripts/checks/check_api.sh --update and commit docs/api/$module.txt" >&2
        status=1
    fi
done
exit $status
