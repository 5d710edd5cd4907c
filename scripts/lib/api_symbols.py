#!/usr/bin/env python3
"""The two views of a module's public API that scripts/checks/check_api.sh compares and checks.

    api_symbols.py list WORK OUT MODULE    the public symbols of MODULE's symbol graphs in WORK, one a line as
                                           `kind path: declaration`, sorted, into OUT; fails on an
                                           `_`-prefixed name
    api_symbols.py underscored SDK MODULE  fails on a public declaration with an `_`-prefixed name in
                                           swift-api-digester's dump SDK of MODULE (which keeps the names the
                                           symbol graph leaves out)
"""

import glob
import json
import sys


def list_symbols(work, out, module):
    lines = set()
    # The module's own graph only: MODULE@OTHER.symbols.json holds its extensions
    # of other modules' types, which are listed too, under the extended type,
    # without the members the extended type has from its own module's
    # protocols (the collection algorithms of Foundation's `Data`), which the
    # graph repeats as "synthesized" because the module added a conformance.
    for path in glob.glob(f"{work}/{module}*.symbols.json"):
        extension = "@" in path.rsplit("/", 1)[-1]
        for symbol in json.load(open(path, encoding="utf-8"))["symbols"]:
            if extension and "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue
            name = ".".join(symbol["pathComponents"])
            declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
            lines.add(f'{symbol["kind"]["identifier"].removeprefix("swift.")} {name}: {" ".join(declaration.split())}')
    underscored = sorted(line for line in lines
                         if any(c.startswith("_") for c in line.split(" ", 2)[1].rstrip(":").split(".")))
    if underscored:
        sys.exit("public symbols with _-prefixed names:\n" + "\n".join(underscored))
    open(out, "w", encoding="utf-8").write("".join(line + "\n" for line in sorted(lines)))
    print(f"{module}: {len(lines)} public symbols")


def underscored_declarations(sdk, module):
    found = []

    def walk(node, path, hidden):
        kind = node.get("declKind")
        path = path + [node.get("name", "")] if kind else path
        # Not public, or written by the compiler (derived conformances, the
        # typealiases it makes for a protocol's requirements).
        hidden = hidden or node.get("isInternal", False) or node.get("isImplicit", False) \
            or "Implements" in (node.get("declAttributes") or [])
        if kind and kind != "Import" and not hidden and node.get("moduleName") == module \
                and any(name.startswith("_") for name in path):
            found.append(f"{kind} {'.'.join(path)}")
        for child in node.get("children", []):
            walk(child, path, hidden)

    walk(json.load(open(sdk, encoding="utf-8"))["ABIRoot"], [], False)
    if found:
        sys.exit("public declarations with _-prefixed names:\n" + "\n".join(sorted(set(found))))


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "list":
        list_symbols(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "underscored":
        underscored_declarations(*sys.argv[2:])
    else:
        sys.exit(__doc__)
