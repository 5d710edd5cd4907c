#!/usr/bin/env python3
"""The fuzz targets: from `swift package describe --type json` on stdin, the
executable products whose targets all live in FuzzTesting/, one a line.
scripts/fuzz/fuzz_build.sh --list runs it.
"""
import json, sys
package = json.load(sys.stdin)
paths = {target["name"]: target["path"] for target in package["targets"]}
for product in package["products"]:
    if "executable" in product["type"] and all(paths.get(t, "").startswith("FuzzTesting/") for t in product["targets"]):
        print(product["name"])
