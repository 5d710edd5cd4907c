#!/usr/bin/env bash
# Lints every Swift file in git (and every new one it does not ignore) with
# swift-format and the repository's .swift-format (4 spaces, 120 columns);
# --strict makes any warning an error, so a file that `swift format format`
# would change fails the check. Files generated from Schemas/ by
# scripts/codegen/generate_swift.py and protoc-gen-swift carry
# `// swift-format-ignore-file`: scripts/checks/check_generated.py checks them instead.
#
#   scripts/checks/lint.sh          lint (exits non-zero on any finding)
#   scripts/checks/lint.sh --fix    rewrite the files in place, then lint
set -euo pipefail
cd "$(dirname "$0")/../.."
files=()
while IFS= read -r -d '' file; do files+=("$file"); done < <(git ls-files -z --cached --others --exclude-standard -- '*.swift')
if [ "${1:-}" = "--fix" ]; then
    swift format format --configuration .swift-format --in-place --parallel "${files[@]}"
fi
swift format lint --configuration .swift-format --strict --parallel "${files[@]}"
echo "swift format lint: ${#files[@]} files, no findings"
