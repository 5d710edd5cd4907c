#!/usr/bin/env bash
# Makes the shipped preset dictionary and embeds it in the library:
#   Schemas/dictionaries/1.bin                      trained on a synthetic corpus
#   Sources/IMCodec/Frame/Generated/Dictionary1.swift  its base64, for the library
# The trainer and the corpus are deterministic: running this again gives the
# same bytes (docs/DICTIONARY.md). --check rebuilds into a temporary file and
# fails if the committed dictionary or its Swift embedding differ.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=${SCRATCH_PATH:-.build-devtools}
swift build -c release --product imcodec-devtools --scratch-path "$scratch" >&2
tool="$scratch/release/imcodec-devtools"
# The trainer's settings, chosen by measurement (docs/DICTIONARY.md).
options=(--seed 488403200 --samples 20000 --size 8192 --segment 64 --dmer 6)

if [ "${1:-}" = "--check" ]; then
    fresh=$(mktemp)
    trap 'rm -f "$fresh"' EXIT
    "$tool" train-dictionary "${options[@]}" --output "$fresh" >&2
    cmp "$fresh" Schemas/dictionaries/1.bin
    python3 scripts/embed_dictionary.py --check 1
    echo "dictionary 1 is up to date"
else
    mkdir -p Schemas/dictionaries
    "$tool" train-dictionary "${options[@]}" --output Schemas/dictionaries/1.bin --evaluate
    python3 scripts/embed_dictionary.py 1
fi
