#!/usr/bin/env python3
"""A new package made of README's "Use it in your package" snippets, its URL
pointed at a bare clone of this commit, resolves without swift-protobuf,
swift-argument-parser or swift-nio, builds, and prints what README says.

The manifest is the section's first ```swift block, `main.swift` its second
(an @ message built with MentionText and validated, an AsyncStream<Data> fed
to framePayloads(), a damaged frame skipped and reported with its index and
offset), and the expected output its ```text block. `swift package
show-dependencies` must list imcodec alone and nothing else may be checked
out; the program's standard output must be the text block, line for line.

    python3 scripts/checks/check_consumer_deps.py
"""

import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
UNWANTED = ("swift-protobuf", "swift-argument-parser", "swift-nio")


def snippets():
    """README's manifest, program and expected output of "Use it in your package"."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        section = f.read().split("## Use it in your package", 1)[1].split("\n## ", 1)[0]
    swift = re.findall(r"```swift\n(.*?)```", section, re.S)
    text = re.findall(r"```text\n(.*?)```", section, re.S)
    if len(swift) < 2 or not text:
        sys.exit("README's \"Use it in your package\" no longer holds a manifest, a program and its output")
    return swift[0], swift[1], text[0]


def manifest(text, url, revision):
    """The manifest pointed at `url` and `revision`."""
    for old, new in (("https://github.com/your-org/imcodec", url), ('branch: "main"', f'revision: "{revision}"')):
        if old not in text:
            sys.exit(f"README's snippet no longer contains {old!r}")
        text = text.replace(old, new)
    return text


def run(command, cwd):
    """Runs `command`, echoing its output; exits when it fails."""
    result = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        print(result.stdout, end="")
        sys.exit(f"{' '.join(command)} exited {result.returncode}")
    return result.stdout


def main():
    package_text, program, expected = snippets()
    target = re.search(r'\.executableTarget\(\s*name:\s*"(\w+)"', package_text)
    if not target:
        sys.exit("README's manifest names no executable target")
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["git", "clone", "--quiet", "--bare", ROOT, os.path.join(work, "imcodec.git")], check=True)
        revision = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, check=True, capture_output=True,
                                  text=True).stdout.strip()
        package = os.path.join(work, "consumer")
        os.makedirs(os.path.join(package, "Sources", target.group(1)))
        with open(os.path.join(package, "Package.swift"), "w", encoding="utf-8") as f:
            f.write(manifest(package_text, "file://" + os.path.join(work, "imcodec.git"), revision))
        with open(os.path.join(package, "Sources", target.group(1), "main.swift"), "w", encoding="utf-8") as f:
            f.write(program)

        dependencies = run(["swift", "package", "show-dependencies"], package)
        print(dependencies, end="")
        checkouts = os.path.join(package, ".build", "checkouts")
        problems = [f"a package depending on IMCodec resolved {name}" for name in UNWANTED
                    if name in dependencies or os.path.exists(os.path.join(checkouts, name))]
        if "── imcodec<" not in dependencies:
            problems.append("the package did not resolve imcodec at all")
        if problems:
            sys.exit("\n".join(problems))
        print("imcodec resolves alone: " + " ".join(sorted(os.listdir(checkouts))))

        run(["swift", "build", "-Xswiftc", "-warnings-as-errors"], package)
        printed = subprocess.run(["swift", "run", "--skip-build", target.group(1)], cwd=package, check=True,
                                 capture_output=True, text=True).stdout
        if printed.splitlines() != expected.splitlines():
            sys.exit(f"README's program printed:\n{printed}\nREADME says it prints:\n{expected}")
        print(f"README's program builds without warnings and prints the {len(expected.splitlines())} lines "
              "README shows")


if __name__ == "__main__":
    main()
