#!/usr/bin/env bash
# Proves the committed generated code matches Schemas/: regenerates the Swift
# model and codecs (scripts/generate_swift.py), the protoc-c output and the
# Python and Java testees' protoc output into a temporary folder and compares
# them with the committed files. The
# swift-protobuf oracle is not rebuilt here (that needs protoc-gen-swift, built
# by scripts/regenerate.sh); the oracle tests compare it with the schema.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
protos=(Schemas/imcodec/v1/model.proto Schemas/imcodec/v1/relationship.proto Schemas/imcodec/v1/group.proto
    Schemas/imcodec/v1/event.proto Schemas/imcodec/testee/v1/testee.proto)
options=Schemas/imcodec/constraints/v1/constraints.proto

protoc -ISchemas --include_source_info --descriptor_set_out="$tmp/descriptors" "${protos[@]}"
python3 scripts/generate_swift.py "$tmp/descriptors" "$tmp"
python3 scripts/generate_constraints.py "$tmp"
status=0
for dir in Sources/IMCodec/Generated Sources/IMCodecValidation/Generated Sources/IMCodecTestee/Generated Sources/IMCodecTestSupport/Generated Sources/IMCodecConformance/Generated; do
    diff -r "$tmp/$dir" "$dir" || status=1
done
for file in Sources/IMCodecReference/Generated/constraints.h Sources/IMCodecReference/Generated/constraints.c docs/LIMITS.md Sources/IMCodecValidation/IMCodecValidation.docc/LimitsAndProfiles.md \
    Sources/IMCodec/IMCodec.docc/Limits.md; do
    diff "$tmp/$file" "$file" || status=1
done
dictionary_ids=()
for file in Schemas/dictionaries/*.bin; do dictionary_ids+=("$(basename "$file" .bin)"); done
python3 scripts/embed_dictionary.py --check "${dictionary_ids[@]}" || status=1
if [ -d Sources/IMCodecReference/Generated ]; then
    mkdir -p "$tmp/c"
    protoc-c -ISchemas --c_out="$tmp/c" "${protos[@]}"
    scripts/strip_option_includes.sh "$tmp/c"
    for file in imcodec/v1/model.pb-c.c imcodec/v1/model.pb-c.h imcodec/v1/relationship.pb-c.c \
        imcodec/v1/relationship.pb-c.h imcodec/v1/group.pb-c.c imcodec/v1/group.pb-c.h imcodec/v1/event.pb-c.c \
        imcodec/v1/event.pb-c.h imcodec/testee/v1/testee.pb-c.c imcodec/testee/v1/testee.pb-c.h; do
        diff "$tmp/c/$file" "Sources/IMCodecReference/Generated/$file" || status=1
    done
    scripts/embed_dictionary_c.sh "$tmp/c"
    for id in "${dictionary_ids[@]}"; do
        diff "$tmp/c/dictionary_$id.h" "Sources/IMCodecReference/Generated/dictionary_$id.h" || status=1
    done
fi
if [ -d testees/python/generated ]; then
    mkdir -p "$tmp/python"
    protoc -ISchemas --python_out="$tmp/python" "${protos[@]}" "$options"
    diff -r -x __pycache__ "$tmp/python" testees/python/generated || status=1
fi
# The Java testee: protoc --java_out (testees/java/generated).
if [ -d testees/java/generated ]; then
    mkdir -p "$tmp/java"
    protoc -ISchemas --java_out="$tmp/java" "${protos[@]}" "$options"
    diff -r "$tmp/java" testees/java/generated || status=1
fi
if [ "$status" -ne 0 ]; then
    echo "generated code differs from Schemas/: run scripts/regenerate.sh" >&2
    exit 1
fi
echo "generated code matches Schemas/"
