#!/usr/bin/env bash
# Makes the shipped preset dictionaries and embeds them in both libraries:
#   Schemas/dictionaries/<id>.bin                          trained on synthetic IM traffic
#   Sources/IMCodec/Generated/Dictionary<id>.swift         its base64, for the Swift library
#   Sources/IMCodecReference/Generated/dictionary_<id>.h   its bytes, for the C reference
# (the embeddings by scripts/codegen/embed_dictionary_swift.py and
# embed_dictionary_c.py, which scripts/codegen/regenerate.py runs too, and
# scripts/checks/check_generated.py checks).
#
#   scripts/bench/make_dictionary.sh ID            retrain dictionary ID (1 to 4), embed it, print its ratios
#   scripts/bench/make_dictionary.sh --check [ID]  retrain into a temporary file and compare (every id by default)
#
# The trainer and the traffic models are deterministic: retraining gives the
# same bytes (docs/DICTIONARY.md). A published id's bytes never change, so
# --check failing means the trainer or a traffic model changed, which belongs
# to a new id.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The trainer's settings for each id, chosen by measurement (docs/DICTIONARY.md).
options_for() {
    local common=(--seed 488403200 --samples 20000 --size 8192 --segment 64 --dmer 6)
    case "$1" in
    1) echo "${common[@]}" ;;
    2) echo "${common[@]}" --traffic-samples 20000 --traffic-seed 1927785557268892956 ;;
    # zstd dictionaries: zstd's own trainer (ZDICT) on both traffic models, 8 and 32 KiB.
    3) echo --seed 488403200 --samples 20000 --traffic-samples 20000 --traffic-seed 1927785557268892956 --trainer zdict --size 8192 ;;
    4) echo --seed 488403200 --samples 20000 --traffic-samples 20000 --traffic-seed 1927785557268892956 --trainer zdict --size 32768 ;;
    *) echo "make_dictionary.sh: no recipe for dictionary $1" >&2; return 1 ;;
    esac
}

scratch=${SCRATCH_PATH:-.build-devtools}
swift build -c release --product imcodec-devtools --scratch-path "$scratch" >&2
tool="$scratch/release/imcodec-devtools"

if [ "${1:-}" = "--check" ]; then
    shift
    ids=("$@")
    if [ ${#ids[@]} -eq 0 ]; then
        for file in Schemas/dictionaries/*.bin; do ids+=("$(basename "$file" .bin)"); done
    fi
    fresh=$(mktemp)
    trap 'rm -f "$fresh"' EXIT
    for id in "${ids[@]}"; do
        read -r -a options <<<"$(options_for "$id")"
        "$tool" train-dictionary "${options[@]}" --output "$fresh" >&2
        cmp "$fresh" "Schemas/dictionaries/$id.bin"
        echo "dictionary $id is up to date"
    done
else
    id=${1:?usage: scripts/bench/make_dictionary.sh ID | --check [ID...]}
    read -r -a options <<<"$(options_for "$id")"
    mkdir -p Schemas/dictionaries
    "$tool" train-dictionary "${options[@]}" --output "Schemas/dictionaries/$id.bin" --evaluate
    python3 scripts/codegen/embed_dictionary_swift.py
    python3 scripts/codegen/embed_dictionary_c.py
fi
