#!/usr/bin/env bash
# Builds the DocC documentation of every public module with swift-docc-plugin
# (`swift package generate-documentation`; IMCODEC_DOCS=1 makes Package.swift
# depend on the plugin) and checks each archive:
# - DocC reports no warning (`--warnings-as-errors`, and no `warning:` line);
# - no page is for a declaration that swift-api-digester's dump of the module
#   shows as not public, or that it does not show at all, and no page has an
#   `_`-prefixed name other than an extended module's (`_Concurrency`), so no
#   package or internal symbol is shown;
# - every public top-level symbol, article and extended module is listed in a
#   topic group of the catalog's module page, none left to the groups DocC
#   makes for what is not curated.
# It builds in its own scratch path, .build-docs, with every trait on
# (IMCodecNIO is empty without SwiftNIO), so the root build is left as it is.
# That build is the one that has IMCodecNIO, so this script also compares
# IMCodecNIO's public API with docs/api/IMCodecNIO.txt, as
# scripts/checks/check_api.sh does for the other modules
# (IMCODEC_API_UPDATE=1 rewrites that file instead).
#
#   scripts/checks/check_docs.sh              check
#   scripts/checks/check_docs.sh OUTPUT-DIR   check, and keep the archives there
set -euo pipefail
cd "$(dirname "$0")/../.."
export IMCODEC_DOCS=1
modules=(IMCodec IMCodecFoundation IMCodecREST IMCodecValidation IMCodecTestee IMCodecConformance IMCodecNIO)
scratch=.build-docs
work=$(mktemp -d)
# This build resolves more packages than the root build (swift-nio, the DocC
# plugin) and writes them into Package.resolved, which the root build in
# .build shares: put the root's back when done, so that the steps after this
# one neither fetch swift-nio nor rebuild for a graph they do not use.
# Copied with its time as well: a newer Package.resolved, even with the same
# pins, makes the next root build plan again (half a minute).
if [ -f Package.resolved ]; then cp -p Package.resolved "$work/Package.resolved"; fi
restore_resolved() {
    if [ -f "$work/Package.resolved" ]; then cp -p "$work/Package.resolved" Package.resolved; else rm -f Package.resolved; fi
}
trap 'restore_resolved; rm -rf "$work"' EXIT
out=${1:-$work/archives}

swift=(swift package --scratch-path "$scratch" --enable-all-traits)
targets=()
for module in "${modules[@]}"; do
    targets+=(--target "$module")
done
"${swift[@]}" --disable-sandbox generate-documentation "${targets[@]}" --warnings-as-errors \
    >"$work/docc.log" 2>&1 || { cat "$work/docc.log" >&2; exit 1; }
if grep -E "(^|[ :])warning:" "$work/docc.log" >&2; then
    echo "DocC or the build of the symbol graphs warned (above)" >&2
    exit 1
fi

imcodec_bin=$(swift build --scratch-path "$scratch" --enable-all-traits --show-bin-path)
source scripts/lib/imcodec_module.sh
mkdir -p "$out"
for module in "${modules[@]}"; do
    rm -rf "${out:?}/$module.doccarchive"
    cp -R "$scratch/plugins/Swift-DocC/outputs/$module.doccarchive" "$out/"
    imcodec_sdk_dump "$work/$module.sdk.json" "$module"
done

python3 scripts/lib/doc_archives.py "$out" "$work" "${modules[@]}"

# IMCodecNIO's public API listing (docs/api/IMCodecNIO.txt), from this build.
imcodec_symbol_graph "$work/IMCodecNIO.graph" IMCodecNIO
python3 scripts/lib/api_symbols.py list "$work/IMCodecNIO.graph" "$work/IMCodecNIO.txt" IMCodecNIO
python3 scripts/lib/api_symbols.py underscored "$work/IMCodecNIO.sdk.json" IMCodecNIO
if [ "${IMCODEC_API_UPDATE:-}" = 1 ]; then
    cp "$work/IMCodecNIO.txt" docs/api/IMCodecNIO.txt
    echo "docs/api/IMCodecNIO.txt updated"
elif ! diff -u docs/api/IMCodecNIO.txt "$work/IMCodecNIO.txt"; then
    echo "the public API of IMCodecNIO changed: if that is meant, run IMCODEC_API_UPDATE=1 scripts/checks/check_docs.sh and commit docs/api/IMCodecNIO.txt" >&2
    exit 1
fi
