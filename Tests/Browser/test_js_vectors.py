#!/usr/bin/env python3
"""The JavaScript implementation (js/) in real Chromium, checked against its Node run.

Serves the repository's js/, testees/js/ and Vectors/ (and Debian's pako as
/vendor/pako.esm.mjs) over HTTP on 127.0.0.1, opens js/test/browser/index.html
in Debian's chromium driven by Playwright, and checks:

1. what the page's platform offers: DecompressionStream and CompressionStream
   take 'deflate-raw', DecompressionStream refuses 'zstd', and js/'s platform
   deflate in a page is Compression Streams without preset dictionaries; and
   that Compression Streams and pako give step 5's codes in the documented
   order (the table of js/test/deflate-cases.js);
2. with pako beside the page, every payload, frame, stream and
   frame-encoding vector ends in the page exactly as under Node
   (`node js/test/run-vectors.js`): the same cases pass, and the others fail
   the same way;
3. with the platform alone, the only cases that end otherwise are cases with a
   deflate frame that names a dictionary, and they fail with
   frame.dictionary-unavailable: stored and dictionary-less deflate frames
   need nothing but the platform (the claim of README.md and FrameFormat.md);
4. with --report, the Node run agrees case by case with the conformance
   runner's JSON report of the JavaScript testee (`imcodec conformance
   --testee testees/js/testee --json FILE`);
5. with --bundle, the same for the page built by Debian's esbuild for
   browsers (`--platform=browser`, resolving `imcodec` through js/package.json's
   "exports"): checks 1 to 3 again in the bundled page, which has no `node:`
   import; and the package's own browser bundle (`export * from "imcodec"`)
   has none either, and what a page loads of it (the dictionaries apart) is
   at most 40 KB gzipped.

    .build/browser/bin/python Tests/Browser/test_js_vectors.py [--report FILE] [--bundle]

Needs Playwright from PyPI (Tests/Browser/requirements.txt, in .build/browser),
Debian's chromium and node-pako, and Node 20; with --bundle, Debian's esbuild. Prints each check and ends with
"N passed, N failed"; exits 1 when a check fails.
"""

import argparse
import functools
import gzip
import re
import shutil
import tempfile
import http.server
import json
import os
import subprocess
import sys
import threading
import time

from playwright.sync_api import sync_playwright

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CHROMIUM = os.environ.get("IMCODEC_CHROMIUM", "/usr/bin/chromium")
ESBUILD = os.environ.get("IMCODEC_ESBUILD", "esbuild")
PAKO = os.environ.get("IMCODEC_PAKO", "/usr/share/nodejs/pako/dist/pako.esm.mjs")
SERVED = {"/js/": "js", "/testees/js/": "testees/js", "/Vectors/": "Vectors"}
# With --bundle, the esbuild output is served at /bundle/.
BUNDLE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>imcodec: the vectors through the browser bundle</title>
<script type="module" src="./vectors-page.js"></script></head>
<body><pre id="result">loading…</pre></body></html>
"""
# The size budget of the package's browser bundle, minified, gzipped (js/README.md, "Bundles").
SIZE_BUDGET = 40 * 1024
# An import of a Node built-in, static or dynamic, in esbuild's output.
NODE_IMPORT = re.compile(r"""(\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']node:""")
TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json",
         ".html": "text/html; charset=utf-8"}


class Handler(http.server.BaseHTTPRequestHandler):
    """GET of the served folders and pako; nothing else."""

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        file = None
        if path == "/vendor/pako.esm.mjs":
            file = PAKO
        for prefix, folder in SERVED.items():
            if path.startswith(prefix):
                base = os.path.join(ROOT, folder) if not os.path.isabs(folder) else folder
                candidate = os.path.normpath(os.path.join(base, path[len(prefix):]))
                if candidate.startswith(base + os.sep):
                    file = candidate
        if file is None or not os.path.isfile(file):
            self.send_error(404)
            return
        with open(file, "rb") as f:
            data = f.read()
        self.send_response(200)
        self.send_header("Content-Type", TYPES.get(os.path.splitext(file)[1], "application/octet-stream"))
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def vector_paths():
    folder = os.path.join(ROOT, "Vectors")
    return [os.path.join(area, name) for area in sorted(os.listdir(folder))
            if os.path.isdir(os.path.join(folder, area))
            for name in sorted(os.listdir(os.path.join(folder, area))) if name.endswith(".json")]


def names_deflate_dictionary(data):
    """Whether a frame, or a stream of frames, holds a deflate frame naming a dictionary."""
    def varint(i):
        value, shift = 0, 0
        while i < len(data) and shift < 35:
            value |= (data[i] & 0x7F) << shift
            i += 1
            if data[i - 1] < 0x80:
                return value, i
            shift += 7
        return None, i
    i = 0
    while i + 2 <= len(data):
        flags = data[i + 1]
        if (flags >> 2) & 3 == 1 and flags & 0x10:
            return True
        j = i + 2
        if flags & 0x10:
            _, j = varint(j)
        body, j = varint(j)
        if body is None:
            return False
        if (flags >> 2) & 3:
            _, j = varint(j)
        i = j + 4 + body
    return False


def dictionary_cases():
    """The ids of the cases that give js/ a deflate frame naming a dictionary."""
    ids = set()
    for path in vector_paths():
        with open(os.path.join(ROOT, "Vectors", path)) as f:
            document = json.load(f)
        for case in document["cases"]:
            data = case["input"]
            if case["operation"] == "decode-frame":
                hit = names_deflate_dictionary(bytes.fromhex(data["frameHex"]))
            elif case["operation"] == "decode-stream":
                hit = names_deflate_dictionary(b"".join(bytes.fromhex(c) for c in data["chunksHex"]))
            elif case["operation"] == "encode-frame":
                policy = data["policy"]
                hit = policy.get("compression") == 1 and policy.get("dictionaryId", 0) != 0
            else:
                hit = False
            if hit:
                ids.add(case["id"])
    return ids


def outcome(case):
    return case["status"], case["failure"], case["code"]


def build_bundles(folder, check):
    """Builds the package's browser bundle and the bundled test page with esbuild into folder."""
    modules = os.path.join(folder, "node_modules")
    os.makedirs(modules)
    os.symlink(os.path.join(ROOT, "js"), os.path.join(modules, "imcodec"))
    with open(os.path.join(folder, "lib.js"), "w") as f:
        f.write('export * from "imcodec";\n')
    env = dict(os.environ, NODE_PATH=modules)
    common = [ESBUILD, "--bundle", "--format=esm", "--platform=browser", "--splitting", "--log-level=warning"]
    for entry, out, extra in [(os.path.join(folder, "lib.js"), "lib", ["--minify"]),
                              (os.path.join(ROOT, "js", "test", "browser", "vectors-page.js"), "page",
                               ["--external:/vendor/*"])]:
        built = subprocess.run(common + extra + [entry, "--outdir=" + os.path.join(folder, out)],
                               capture_output=True, text=True, env=env)
        check("esbuild --platform=browser bundles %s" % os.path.relpath(entry, folder if out == "lib" else ROOT),
              built.returncode == 0, built.stderr.strip()[-2000:])
        if built.returncode != 0:
            return False
    with open(os.path.join(folder, "page", "index.html"), "w") as f:
        f.write(BUNDLE_PAGE)
    for out in ("lib", "page"):
        names = sorted(os.listdir(os.path.join(folder, out)))
        texts = {n: open(os.path.join(folder, out, n), encoding="utf-8").read() for n in names if n.endswith(".js")}
        found = sorted(n for n, text in texts.items() if NODE_IMPORT.search(text))
        check("the %s bundle has no node: import (%d files)" % (out, len(texts)), texts and not found, ", ".join(found))
    # What a page loads: the entry and the chunks it imports statically;
    # the rest (the dictionaries) only when a frame names one.
    lib = os.path.join(folder, "lib")
    eager, todo = set(), ["lib.js"]
    while todo:
        name = todo.pop()
        if name not in eager:
            eager.add(name)
            todo += re.findall(r"""(?:from|import)\s*["']\./([^"']+)["']""", open(os.path.join(lib, name)).read())
    raw = sum(os.path.getsize(os.path.join(lib, n)) for n in eager)
    zipped = sum(len(gzip.compress(open(os.path.join(lib, n), "rb").read(), 9)) for n in eager)
    lazy = [n for n in os.listdir(lib) if n not in eager]
    check("the browser bundle: what a page loads for payloads and frames is at most %d bytes gzipped "
          "(%d bytes, %d gzipped; %d chunks loaded on use: the dictionaries)" % (SIZE_BUDGET, raw, zipped, len(lazy)),
          zipped <= SIZE_BUDGET)
    return True


def check_page(browser, name, url, paths, node_run, check):
    """Runs checks 1 to 3 in the page at url."""
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_function("window.imcodec !== undefined", timeout=30000)
    print("== %s" % name)

    facts = page.evaluate("window.imcodec.platformFacts()")
    check("the page inflates and deflates raw deflate with Compression Streams",
          facts["decompressDeflateRaw"] and facts["compressDeflateRaw"], json.dumps(facts))
    check("this Chromium's DecompressionStream refuses zstd", not facts["decompressZstd"])
    check("js/ in a page uses Compression Streams, which take no preset dictionary",
          facts["platformDeflate"] == "compression-streams" and not facts["platformDictionaries"])

    table = page.evaluate("window.imcodec.deflateTable()")
    check("Compression Streams and pako inflate, overflow and break in the documented order "
          "(js/test/deflate-cases.js)", not table["wrong"], "; ".join(table["wrong"]))

    with_pako = page.evaluate("(paths) => window.imcodec.runSuite(paths, {pako: true})", paths)
    print("chromium, %s: %s (%.1f s)" % (with_pako["deflate"], json.dumps(with_pako["counts"]),
                                          with_pako["seconds"]))
    alone = page.evaluate("(paths) => window.imcodec.runSuite(paths, {pako: false})", paths)
    print("chromium, %s: %s (%.1f s)" % (alone["deflate"], json.dumps(alone["counts"]), alone["seconds"]))
    check("no error in the page", not errors, "; ".join(errors))
    page.close()

    node_cases, page_cases = node_run["cases"], with_pako["cases"]
    differ = sorted(i for i in set(node_cases) | set(page_cases)
                    if i not in node_cases or i not in page_cases or outcome(node_cases[i]) != outcome(page_cases[i]))
    check("with pako, every case ends in Chromium as under Node (%d cases, %d passed)"
          % (len(page_cases), with_pako["counts"]["passed"]),
          not differ and with_pako["counts"] == node_run["counts"],
          ", ".join("%s: node %s, chromium %s" % (i, node_cases.get(i), page_cases.get(i)) for i in differ[:10]))

    dictionary = dictionary_cases()
    changed = {i for i, case in alone["cases"].items() if outcome(case) != outcome(page_cases[i])}
    wrong = sorted(i for i in changed if alone["cases"][i]["code"] != "frame.dictionary-unavailable"
                   or i not in dictionary)
    refused = sorted(i for i in changed if i not in wrong)
    check("with the platform alone, only deflate frames naming a dictionary end otherwise, refused with "
          "frame.dictionary-unavailable (%d cases; %d pass without pako)" % (len(refused), alone["counts"]["passed"]),
          not wrong and refused,
          ", ".join("%s: %s" % (i, alone["cases"][i]) for i in wrong[:10]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--report", help="the conformance runner's JSON report of testees/js/testee")
    parser.add_argument("--bundle", action="store_true",
                        help="also run the page built by esbuild for browsers, through js/package.json's exports")
    args = parser.parse_args()

    results = []

    def check(name, ok, detail=""):
        ok = bool(ok)
        results.append(ok)
        print("%s %s%s" % ("PASS" if ok else "FAIL", name, (": " + detail) if detail else ""), flush=True)

    started = time.monotonic()
    node = subprocess.run(["node", os.path.join(ROOT, "js", "test", "run-vectors.js")], check=True,
                          capture_output=True, text=True)
    node_run = json.loads(node.stdout)
    print("node %s: %s (%.1f s)" % (node_run["runtime"], json.dumps(node_run["counts"]), time.monotonic() - started))

    pages = [("js/ as files", "/js/test/browser/index.html")]
    bundle_dir = None
    if args.bundle:
        bundle_dir = tempfile.mkdtemp(prefix="imcodec-bundle-")
        if not build_bundles(bundle_dir, check):
            return 1
        SERVED["/bundle/"] = os.path.join(bundle_dir, "page")
        pages.append(("the esbuild bundle", "/bundle/index.html"))

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    paths = vector_paths()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            print("browser: %s" % browser.version)
            for name, page_path in pages:
                url = "http://127.0.0.1:%d%s" % (server.server_address[1], page_path)
                check_page(browser, name, url, paths, node_run, check)
            browser.close()
    finally:
        server.shutdown()
        if bundle_dir:
            shutil.rmtree(bundle_dir, ignore_errors=True)

    node_cases = node_run["cases"]
    if args.report:
        with open(args.report) as f:
            report = json.load(f)
        kit = {case["id"]: case for case in report["cases"]}

        def kit_outcome(case):
            return ("passed", None) if case["status"] == "passed" else ("failed", case["failure"])
        disagree = sorted(i for i, case in node_cases.items()
                          if i not in kit or kit_outcome(kit[i]) != outcome(case)[:2])
        check("the Node run agrees with the conformance runner's report of testees/js/testee (%d cases)"
              % len(node_cases), not disagree, ", ".join(disagree[:10]))

    passed = sum(results)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
