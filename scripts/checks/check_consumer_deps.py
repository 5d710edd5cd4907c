#!/usr/bin/env python3
"""A new package that depends on product IMCodec the way README's "Use it in
your package" says resolves without swift-protobuf, swift-argument-parser or
swift-nio. The package manifest is README's snippet itself, its URL pointed
at a bare clone of this commit; `swift package show-dependencies` must list
imcodec alone, and nothing else may be checked out.

    python3 scripts/checks/check_consumer_deps.py
"""

import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
UNWANTED = ("swift-protobuf", "swift-argument-parser", "swift-nio")


def manifest(url, revision):
    """The first ```swift block after README's "Use it in your package" heading, pointed at `url` and `revision`."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        section = f.read().split("## Use it in your package", 1)[1]
    text = re.search(r"```swift\n(.*?)```", section, re.S).group(1)
    for old, new in (("https://github.com/your-org/imcodec", url), ('branch: "main"', f'revision: "{revision}"')):
        if old not in text:
            sys.exit(f"README's snippet no longer contains {old!r}")
        text = text.replace(old, new)
    return text


def main():
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["git", "clone", "--quiet", "--bare", ROOT, os.path.join(work, "imcodec.git")], check=True)
        revision = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, check=True, capture_output=True,
                                  text=True).stdout.strip()
        package = os.path.join(work, "chat-server")
        os.makedirs(os.path.join(package, "Sources", "ChatServer"))
        with open(os.path.join(package, "Package.swift"), "w", encoding="utf-8") as f:
            f.write(manifest("file://" + os.path.join(work, "imcodec.git"), revision))
        with open(os.path.join(package, "Sources", "ChatServer", "main.swift"), "w") as f:
            f.write("import IMCodec\n\nprint(IMCodecError.self)\n")
        run = subprocess.run(["swift", "package", "show-dependencies"], cwd=package, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        print(run.stdout, end="")
        checkouts = os.path.join(package, ".build", "checkouts")
        problems = [f"a package depending on IMCodec resolved {name}" for name in UNWANTED
                    if name in run.stdout or os.path.exists(os.path.join(checkouts, name))]
        if run.returncode != 0:
            problems.append(f"swift package show-dependencies exited {run.returncode}")
        if "── imcodec<" not in run.stdout:
            problems.append("the package did not resolve imcodec at all")
        if problems:
            sys.exit("\n".join(problems))
        print("IMCodec resolves alone: " + " ".join(sorted(os.listdir(checkouts))))


if __name__ == "__main__":
    main()
