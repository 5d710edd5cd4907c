#!/usr/bin/env python3
"""The release number is written once, in VERSION; everything that states it
agrees: the imcodec tool's version (Sources/IMCodecCLI/Version.swift, and
`imcodec --version` when --imcodec names a built binary), js/package.json's
`version`, and the first release section of CHANGELOG.md (or its
"Unreleased" section before the first release), and what every testee's
launcher prints for `testees/LANGUAGE/testee --version`.

    python3 scripts/release/check_version.py [--imcodec PATH] [--update] [--self-test]

--update writes VERSION into the Swift declaration and js/package.json.
--self-test plants a different number in a copy of each place and fails
unless the check reports it.
"""
import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SWIFT = Path("Sources/IMCodecCLI/Version.swift")
PACKAGE_JSON = Path("js/package.json")
CHANGELOG = Path("CHANGELOG.md")
# The testee launcher the self-test plants a number in (every launcher is checked).
LAUNCHER = Path("testees/js/testee")
SWIFT_PATTERN = re.compile(r'let imcodecRelease = "([^"]*)"')
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$")


def read_version(root: Path) -> str:
    return (root / "VERSION").read_text().strip()


def problems(root: Path, imcodec: str | None = None) -> list[str]:
    found = []
    version = read_version(root)
    if not SEMVER.match(version):
        found.append(f"VERSION: {version!r} is not MAJOR.MINOR.PATCH")
    swift = SWIFT_PATTERN.search((root / SWIFT).read_text())
    if not swift:
        found.append(f"{SWIFT}: no `let imcodecRelease = \"...\"`")
    elif swift.group(1) != version:
        found.append(f"{SWIFT}: {swift.group(1)}, VERSION: {version}")
    package = json.loads((root / PACKAGE_JSON).read_text())
    if package.get("version") != version:
        found.append(f"{PACKAGE_JSON}: version {package.get('version')}, VERSION: {version}")
    if package.get("license") != "Apache-2.0":
        found.append(f"{PACKAGE_JSON}: license {package.get('license')}, not Apache-2.0")
    heading = re.search(r"^## \[?([^\]\s]+)\]?", (root / CHANGELOG).read_text(), re.M)
    if not heading or heading.group(1) not in (version, "Unreleased"):
        found.append(f"{CHANGELOG}: first section {heading.group(1) if heading else None}, "
                     f"not {version} or Unreleased")
    for launcher in sorted((root / "testees").glob("*/testee")):
        printed = subprocess.run([str(launcher), "--version"], capture_output=True, text=True).stdout.strip()
        if printed != version:
            found.append(f"{launcher.relative_to(root)} --version: {printed!r}, VERSION: {version}")
    if imcodec:
        printed = subprocess.run([imcodec, "--version"], capture_output=True, text=True, check=True).stdout.strip()
        if not printed.startswith(version + " "):
            found.append(f"imcodec --version: {printed!r}, VERSION: {version}")
    return found


def update(root: Path) -> None:
    version = read_version(root)
    path = root / SWIFT
    path.write_text(SWIFT_PATTERN.sub(f'let imcodecRelease = "{version}"', path.read_text()))
    path = root / PACKAGE_JSON
    # Only the value, so that the file keeps its layout.
    path.write_text(re.sub(r'^(  "version": )"[^"]*"', rf'\g<1>"{version}"', path.read_text(), count=1, flags=re.M))


def self_test() -> int:
    plants = {
        "VERSION": lambda t: "9.9.9\n",
        str(SWIFT): lambda t: SWIFT_PATTERN.sub('let imcodecRelease = "9.9.9"', t),
        str(PACKAGE_JSON): lambda t: t.replace('"version": "', '"version": "9.', 1),
        str(CHANGELOG): lambda t: re.sub(r"^## .*$", "## [9.9.9]", t, count=1, flags=re.M),
        str(LAUNCHER): lambda t: t.replace('exec cat "$(dirname "$0")/../../VERSION"', "echo 9.9.9; exit 0"),
    }
    failed = 0
    for name, plant in plants.items():
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp)
            for path in ["VERSION", SWIFT, PACKAGE_JSON, CHANGELOG, LAUNCHER]:
                (copy / path).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / path, copy / path)
            if problems(copy):
                print(f"self-test: the unplanted copy already fails", file=sys.stderr)
                return 1
            target = copy / name
            target.write_text(plant(target.read_text()))
            if problems(copy):
                print(f"self-test: a different number in {name} is reported")
            else:
                print(f"self-test: a different number in {name} is NOT reported", file=sys.stderr)
                failed += 1
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--imcodec", help="a built imcodec binary whose --version to check")
    parser.add_argument("--update", action="store_true", help="write VERSION into the other places")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if args.update:
        update(ROOT)
    found = problems(ROOT, args.imcodec)
    for problem in found:
        print(problem, file=sys.stderr)
    if found:
        print("the version differs from VERSION (python3 scripts/release/check_version.py --update)", file=sys.stderr)
        return 1
    print(f"version {read_version(ROOT)}: VERSION, {SWIFT}, {PACKAGE_JSON}, {CHANGELOG} and every testee's --version agree"
          + (", and imcodec --version" if args.imcodec else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
