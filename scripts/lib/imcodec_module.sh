# Sourced by scripts/checks/check_api.sh and scripts/checks/check_docs.sh: the two views of
# a built module of the package both read (after `swift build`; a script that
# built elsewhere sets imcodec_bin to that build's bin path before sourcing).
#
#   imcodec_symbol_graph DIR [MODULE]   the module's public symbol graph, into DIR
#   imcodec_sdk_dump FILE [MODULE]      swift-api-digester's dump of the module,
#                                       which keeps `_`-prefixed names and marks
#                                       what is not public, into FILE
# MODULE is IMCodec unless given.
#
# The public library modules, lowest layer first (Package.swift).
imcodec_modules=(IMCodec IMCodecFoundation IMCodecREST IMCodecValidation IMCodecTestee IMCodecConformance)

imcodec_bin=${imcodec_bin:-$(swift build --show-bin-path)}
imcodec_triple=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')

# The C modules the library imports: system libraries with their module maps in
# their folders, and C targets whose module maps SwiftPM wrote into the build.
imcodec_includes=()
for dir in Sources/C*/; do
    [ -f "$dir/module.modulemap" ] && imcodec_includes+=(-Xcc -I -Xcc "$dir")
done
for map in "$imcodec_bin"/C*.build/module.modulemap; do
    imcodec_includes+=(-Xcc "-fmodule-map-file=$map")
done
# Those of the dependencies with a module map of their own (swift-atomics'
# _AtomicsShims, which IMCodecNIO reaches through swift-nio).
for map in "$imcodec_bin"/../../checkouts/*/Sources/*/include/module.modulemap; do
    [ -f "$map" ] && imcodec_includes+=(-Xcc "-fmodule-map-file=$map")
done

imcodec_symbol_graph() {
    mkdir -p "$1"
    swift symbolgraph-extract -module-name "${2:-IMCodec}" -target "$imcodec_triple" -I "$imcodec_bin/Modules" \
        -minimum-access-level public -skip-inherited-docs -output-dir "$1" "${imcodec_includes[@]}"
}

imcodec_sdk_dump() {
    swift-api-digester -dump-sdk -module "${2:-IMCodec}" -target "$imcodec_triple" -I "$imcodec_bin/Modules" -o "$1" \
        "${imcodec_includes[@]}"
}
