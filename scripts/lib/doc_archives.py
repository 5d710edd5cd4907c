#!/usr/bin/env python3
"""Checks the DocC archives scripts/checks/check_docs.sh built, against
swift-api-digester's dump of each module.

    doc_archives.py ARCHIVES WORK MODULE...

ARCHIVES holds MODULE.doccarchive, WORK holds MODULE.sdk.json. For each
module: no page for a declaration that the dump shows as not public or does
not show at all, no page with an `_`-prefixed name other than an extended
module's, and every public top-level symbol, article and extended module in a
topic group of the module page.
"""
import json, os, sys
out, work, modules = sys.argv[1], sys.argv[2], sys.argv[3:]
failed = False
for module in modules:
    archive = os.path.join(out, f"{module}.doccarchive")
    data = os.path.join(archive, "data", "documentation")
    public, hidden = set(), set()
    def walk(node, internal):
        internal = internal or node.get("isInternal", False)
        if node.get("usr") and node.get("declKind"):
            (hidden if internal else public).add(node["usr"])
        for child in node.get("children", []):
            walk(child, internal)
    walk(json.load(open(os.path.join(work, f"{module}.sdk.json"), encoding="utf-8"))["ABIRoot"], False)
    own = f"s:{len(module)}{module}"
    pages = {}
    for root, _, files in os.walk(data):
        for name in files:
            if name.endswith(".json"):
                page = json.load(open(os.path.join(root, name), encoding="utf-8"))
                pages[page["identifier"]["url"]] = page
    # The pages of the modules this one extends (`_Concurrency` for an
    # extension of `AsyncSequence`) are named for those modules.
    extended = [url + "/" for url, page in pages.items()
                if page.get("metadata", {}).get("roleHeading") == "Extended Module"]
    problems = []
    for url, page in pages.items():
        path = url
        for prefix in extended:
            if (url + "/").startswith(prefix):
                path = url[len(prefix):]
        if any(c.startswith("_") for c in path.split("/")):
            problems.append(f"an _-prefixed name has a page: {url}")
        # A member a type has from a protocol extension: the extension's
        # declaration, then `::SYNTHESIZED::` and the type.
        usr = page.get("metadata", {}).get("externalID", "").split("::SYNTHESIZED::")[0]
        if usr in hidden:
            problems.append(f"a page for a declaration that is not public: {url}")
        elif usr.startswith(own) and usr not in public:
            problems.append(f"a page for a declaration the module's public API does not have: {url}")
    page = json.load(open(os.path.join(data, f"{module.lower()}.json"), encoding="utf-8"))
    for section in page.get("topicSections", []):
        if section.get("generated"):
            names = ", ".join(i.rsplit("/", 1)[1] for i in section["identifiers"])
            problems.append(f"not in a topic group of {module}.md (in DocC's own '{section.get('title')}' group): {names}")
    if not page.get("topicSections"):
        problems.append(f"{module}'s module page has no topic groups")
    curated = sum(len(s["identifiers"]) for s in page.get("topicSections", []))
    if problems:
        failed = True
        print(f"{module}:\n  " + "\n  ".join(problems), file=sys.stderr)
    else:
        print(f"{module} documentation: {len(pages)} pages, none for a declaration that is not public;"
              f" {curated} entries in the module page's topic groups, nothing uncurated")
sys.exit(1 if failed else 0)
