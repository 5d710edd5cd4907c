#!/usr/bin/env bash
# A new package that depends on product IMCodec the way README's "Use it in
# your package" says resolves without swift-protobuf or swift-argument-parser.
# The package manifest is README's snippet itself, its URL pointed at a bare
# clone of this commit; `swift package show-dependencies` must list imcodec
# alone, and nothing else may be checked out.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git clone --quiet --bare "$root" "$work/imcodec.git"
revision=$(git rev-parse HEAD)

# The first ```swift block after the "Use it in your package" heading.
mkdir -p "$work/chat-server/Sources/ChatServer"
python3 - "$root/README.md" "$work/chat-server/Package.swift" "file://$work/imcodec.git" "$revision" <<'PY'
import re, sys
readme, out, url, revision = sys.argv[1:]
text = open(readme, encoding="utf-8").read()
section = text.split("## Use it in your package", 1)[1]
manifest = re.search(r"```swift\n(.*?)```", section, re.S).group(1)
for old, new in (("https://github.com/your-org/imcodec", url), ('branch: "main"', f'revision: "{revision}"')):
    if old not in manifest:
        sys.exit(f"README's snippet no longer contains {old!r}")
    manifest = manifest.replace(old, new)
open(out, "w", encoding="utf-8").write(manifest)
PY
printf 'import IMCodec\n\nprint(IMCodecError.self)\n' > "$work/chat-server/Sources/ChatServer/main.swift"

cd "$work/chat-server"
swift package show-dependencies 2>&1 | tee "$work/deps.txt"
status=0
for unwanted in swift-protobuf swift-argument-parser swift-nio; do
    if grep -q "$unwanted" "$work/deps.txt" || [ -e ".build/checkouts/$unwanted" ]; then
        echo "a package depending on IMCodec resolved $unwanted" >&2
        status=1
    fi
done
if ! grep -q "── imcodec<" "$work/deps.txt"; then
    echo "the package did not resolve imcodec at all" >&2
    status=1
fi
[ $status -eq 0 ] && echo "IMCodec resolves alone: $(ls .build/checkouts | tr '\n' ' ')"
exit $status
