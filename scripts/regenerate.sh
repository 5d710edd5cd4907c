#!/usr/bin/env bash
# Regenerates every piece of generated code from Schemas/:
#   Sources/IMCodecOracle/Generated   swift-protobuf types (the oracle)
#   Sources/IMCodec/Generated         the schema-specialised Swift model and codecs
#   Sources/IMCodecReference/Generated  protoc-c output for the C reference
#   testees/python/generated          protoc's Python output for the Python testee
#   testees/java/generated            protoc's Java output for the Java testee
#   limit tables and docs/LIMITS.md   scripts/generate_constraints.py
# Needs protoc and protoc-c (Debian: protobuf-compiler, protobuf-c-compiler) and
# python3. protoc-gen-swift is built from the swift-protobuf dependency on first
# use (about a minute) into .build-plugin; set PROTOC_GEN_SWIFT to use another.
set -euo pipefail
cd "$(dirname "$0")/.."

plugin=${PROTOC_GEN_SWIFT:-}
if [ -z "$plugin" ]; then
    swift build -c release --product protoc-gen-swift --scratch-path .build-plugin >&2
    plugin=.build-plugin/release/protoc-gen-swift
fi

protos=(Schemas/imcodec/v1/model.proto Schemas/imcodec/v1/relationship.proto Schemas/imcodec/v1/group.proto
    Schemas/imcodec/v1/event.proto Schemas/imcodec/testee/v1/testee.proto)
# The constraint options: imported by both, read by the generators; only
# Python needs its generated module (the others never see the option types).
options=Schemas/imcodec/constraints/v1/constraints.proto

out=Sources/IMCodecOracle/Generated
rm -rf "$out" && mkdir -p "$out"
protoc -ISchemas --plugin=protoc-gen-swift="$plugin" \
    --swift_opt=Visibility=Public --swift_opt=FileNaming=PathToUnderscores \
    --swift_out="$out" "${protos[@]}"

if [ -d Sources/IMCodecReference ]; then
    out=Sources/IMCodecReference/Generated
    rm -rf "$out" && mkdir -p "$out"
    protoc-c -ISchemas --c_out="$out" "${protos[@]}"
    scripts/strip_option_includes.sh "$out"
    scripts/embed_dictionary_c.sh
fi

if [ -d testees/python ]; then
    out=testees/python/generated
    rm -rf "$out" && mkdir -p "$out"
    protoc -ISchemas --python_out="$out" "${protos[@]}" "$options"
fi

# The Java testee: protoc --java_out of the same files (and of the constraint
# options, which it reads its default limits from); compiled by
# testees/java/testee.
if [ -d testees/java ]; then
    out=testees/java/generated
    rm -rf "$out" && mkdir -p "$out"
    protoc -ISchemas --java_out="$out" "${protos[@]}" "$options"
fi

descriptors=$(mktemp)
trap 'rm -f "$descriptors"' EXIT
protoc -ISchemas --include_source_info --descriptor_set_out="$descriptors" "${protos[@]}"
python3 scripts/generate_swift.py "$descriptors"
python3 scripts/generate_constraints.py
