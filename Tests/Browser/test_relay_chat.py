#!/usr/bin/env python3
"""The relay's chat page in real Chromium, over the relay's WebSocket endpoint.

Starts the example relay (`imcodec-relay --port 0 --web-port 0 --profile current --insecure-demo`,
whose pages log in without tickets; the binary
given by --relay), opens its chat page (`GET /` on the web port) in two pages
of Debian's chromium driven by Playwright, and checks:

1. both pages join one group through the page's form (#user, #group, #join)
   and see the relay's echo; text typed into #text and sent with #send by one
   page shows on the other as a `li.message` with `data-sender`, in order, in
   both directions;
2. a message the validation profile refuses (a text past the 12 KB message
   body, `limit.message.body-bytes`) is not sent at all: the page validates it
   with the JavaScript validator against the relay's profile (the page is
   opened with `?profile=current`) and shows the finding's code and path at
   once as a `li.rejection.local`, with no round trip and no frame on the
   socket; sent without that check, it is answered to its sender alone: the
   sender's page shows a `li.rejection` naming the message and the finding's
   code and path, and the other page never shows the message;
3. a third page that sends a text WebSocket message is closed with 1003 and
   `connection.websocket-text`; a fourth that sends garbage as a binary
   message is closed with 1007 and `frame.version`; a fifth that sends a real
   frame with one checksum bit flipped is closed with 1007 and
   `frame.checksum` (docs: Servers.md, "WebSocket"); the first two pages stay
   open and keep exchanging messages;
4. the relay's log has a "closed" line with each of those reasons, and one
   "rejected" line with the refused message's code.

With --bundle the relay serves the page built by Debian's esbuild for browsers
instead (`chat.js` bundled with the JavaScript implementation, resolved by
the package's name through js/package.json's "exports"), and the test also
checks that the bundle has no `node:` import and that the pages load no file
of /js/: every check above then runs on the bundle.

With --screenshot PNG it also saves the two pages side by side, showing the
conversation and the rejection (docs/images/relay_chat.png is made this way).

    .build/browser/bin/python Tests/Browser/test_relay_chat.py \
        --relay .build-nio/debug/imcodec-relay [--bundle] [--screenshot docs/images/relay_chat.png]

Needs Playwright from PyPI (Tests/Browser/requirements.txt, in .build/browser),
Debian's chromium and node-pako, and the relay built (`swift build
--package-path Examples/RelayServer --scratch-path .build-nio`). Prints each
check and ends with "N passed, N failed"; exits 1 when a check fails. With
--bundle, needs Debian's esbuild too.
"""

import argparse
import base64
import os
import re
import shutil
import signal
import subprocess
import tempfile
import sys
import time

from playwright.sync_api import sync_playwright

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CHROMIUM = os.environ.get("IMCODEC_CHROMIUM", "/usr/bin/chromium")
ESBUILD = os.environ.get("IMCODEC_ESBUILD", "esbuild")
WEB = os.path.join(ROOT, "Examples", "RelayServer", "Web")
# Requests of the chat pages, by path.
REQUESTED = []
GROUP = "lobby"
# The current profile's message body bound is 12 KB (docs/spec/limits.md, M13);
# the sdk-guide profile, the relay's default, has none.
TOO_LONG = "x" * (12 * 1024 + 1)
TIMEOUT_MS = 10000

# A real frame from the page's own encoder, with one bit of its checksum
# flipped: the checksum is the 4 bytes before the (uncompressed) body.
BAD_CHECKSUM = """async () => {
    const { FrameKind, Message, encodeFrame } = await import("./js/src/browser.js");
    const message = Message.create({ msgId: "m", sender: "mallory", groupId: "%s",
        elems: [{ kind: { case: "text", value: { text: "flipped" } } }] });
    const frame = await encodeFrame({ kind: FrameKind.message, value: message }, { policy: { compression: 0 } });
    const bytes = new Uint8Array(frame);
    const bodyLength = bytes[2];
    bytes[bytes.length - bodyLength - 1] ^= 0x01;
    return Array.from(bytes);
}""" % GROUP


class Relay:
    """The relay as its own process, its stdout and stderr kept."""

    def __init__(self, binary, page_directory):
        self.process = subprocess.Popen(
            [binary, "--port", "0", "--web-port", "0", "--profile", "current", "--insecure-demo",
             "--page-directory", page_directory,
             "--js-directory", os.path.join(ROOT, "js")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        self.web_port = None
        deadline = time.monotonic() + 30
        while self.web_port is None and time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            match = re.match(r"web port (\d+)", line)
            if match:
                self.web_port = int(match.group(1))
        if self.web_port is None:
            self.process.kill()
            raise SystemExit("the relay did not print its web port: %s" % self.process.stderr.read())

    def stop(self):
        """SIGTERM (a graceful drain), then its output."""
        self.process.send_signal(signal.SIGTERM)
        try:
            out, err = self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            out, err = self.process.communicate()
        return self.process.returncode, out, err


def open_chat(browser, url, user):
    """A page on the chat page, joined to GROUP as `user` through its form."""
    page = browser.new_page(viewport={"width": 640, "height": 640})
    page.on("request", lambda request: REQUESTED.append(re.sub(r"^https?://[^/]+", "", request.url)))
    page.goto(url)
    page.fill("#user", user)
    page.fill("#group", GROUP)
    page.click("#join")
    page.wait_for_selector("#text:enabled", timeout=TIMEOUT_MS)
    return page


def say(page, text):
    page.fill("#text", text)
    page.click("#send")


def received(page):
    return page.evaluate("window.imcodecChat.messages.map((m) => [m.sender, m.text])")


def wait_for(page, predicate, ms=TIMEOUT_MS):
    """Waits until the page's `predicate` (JavaScript over `chat`) holds, at most `ms`; False when it never does."""
    try:
        page.evaluate("(p) => window.imcodecChat.waitFor(() => (new Function('chat', 'return ' + p))"
                      "(window.imcodecChat), %d)" % ms, predicate)
        return True
    except Exception:
        return False


def closed_by(browser, url, send):
    """A page that joins, sends what `send` sends, and the close it gets: (code, reason)."""
    page = open_chat(browser, url, "mallory")
    send(page)
    wait_for(page, "chat.closed !== null")
    closed = page.evaluate("window.imcodecChat.closed")
    page.close()
    return (closed or {}).get("code"), (closed or {}).get("reason")


def side_by_side(browser, pages, path):
    """The pages' screenshots next to each other, as one PNG."""
    images = "".join(
        '<img src="data:image/png;base64,%s">' % base64.b64encode(page.screenshot()).decode() for page in pages)
    width = sum(page.viewport_size["width"] for page in pages) + 8 * (len(pages) + 1)
    height = max(page.viewport_size["height"] for page in pages) + 16
    canvas = browser.new_page(viewport={"width": width, "height": height})
    canvas.set_content('<body style="margin:0;padding:8px;display:flex;gap:8px;background:#888">%s</body>' % images)
    canvas.wait_for_function("Array.from(document.images).every((image) => image.complete)")
    canvas.screenshot(path=path)
    canvas.close()


def build_page(folder):
    """The chat page with chat.js bundled by esbuild for browsers, in folder/page; problems found, if any."""
    modules = os.path.join(folder, "node_modules")
    os.makedirs(modules)
    os.symlink(os.path.join(ROOT, "js"), os.path.join(modules, "imcodec"))
    page = os.path.join(folder, "page")
    os.makedirs(page)
    for name in ("index.html", "chat.css"):
        shutil.copy(os.path.join(WEB, name), page)
    built = subprocess.run(
        [ESBUILD, os.path.join(WEB, "chat.js"), "--bundle", "--format=esm", "--platform=browser", "--minify",
         "--splitting", "--external:./pako.esm.mjs", "--log-level=warning", "--outdir=" + page],
        capture_output=True, text=True, env=dict(os.environ, NODE_PATH=modules))
    if built.returncode != 0:
        return ["esbuild: " + built.stderr.strip()[-2000:]]
    # chat.js, and the dictionaries as chunks of their own, loaded on use.
    scripts = sorted(name for name in os.listdir(page) if name.endswith(".js"))
    problems = []
    for name in scripts:
        with open(os.path.join(page, name)) as f:
            text = f.read()
        if re.search(r"""(\bfrom\s*|\bimport\s*\(?\s*)["']node:""", text):
            problems.append("%s has a node: import" % name)
        if re.search(r"""(\bfrom\s*|\bimport\s*\(?\s*)["'][^"']*/js/""", text):
            problems.append("%s imports a file of /js/" % name)
    print("the page bundled by esbuild: %s" % ", ".join(
        "%s %d bytes" % (name, os.path.getsize(os.path.join(page, name))) for name in scripts))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--relay", required=True, help="the imcodec-relay binary")
    parser.add_argument("--screenshot", metavar="PNG", help="where to save the two pages side by side")
    parser.add_argument("--bundle", action="store_true", help="serve the page built by esbuild from the package")
    arguments = parser.parse_args()
    results = []

    def check(name, ok, detail=""):
        results.append(ok)
        print("%s %s%s" % ("ok  " if ok else "FAIL", name, "" if ok else ": " + detail))

    page_directory, bundle_dir = WEB, None
    if arguments.bundle:
        bundle_dir = tempfile.mkdtemp(prefix="imcodec-chat-")
        problems = build_page(bundle_dir)
        check("esbuild --platform=browser bundles chat.js with the package, no node: import, no file of /js/",
              not problems, "; ".join(problems))
        if problems:
            return 1
        page_directory = os.path.join(bundle_dir, "page")
    relay = Relay(arguments.relay, page_directory)
    url = "http://127.0.0.1:%d/?profile=current" % relay.web_port
    started = time.monotonic()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            alice = open_chat(browser, url, "alice")
            bob = open_chat(browser, url, "bob")
            from_js = sorted({path for path in REQUESTED if path.startswith("/js/")})
            if arguments.bundle:
                check("the bundled pages load no file of /js/", not from_js, ", ".join(from_js))
            else:
                check("the pages load js/ from /js/src/ through the import map",
                      "/js/src/browser.js" in from_js, ", ".join(from_js))
            check("both pages joined %s over ws://127.0.0.1:%d/frames" % (GROUP, relay.web_port),
                  alice.evaluate("window.imcodecChat.state") == "open"
                  and bob.evaluate("window.imcodecChat.state") == "open")

            say(alice, "hello bob")
            say(alice, "how are you?")
            wait_for(bob, "chat.messages.length >= 2")
            check("bob's page shows alice's two messages, in order", received(bob) == [
                ["alice", "hello bob"], ["alice", "how are you?"]], repr(received(bob)))
            shown = bob.locator("#log li.message[data-sender='alice']")
            check("as two li.message[data-sender=alice] in #log", shown.count() == 2
                  and "hello bob" in shown.nth(0).inner_text(), "%d shown" % shown.count())
            say(bob, "fine, thanks")
            wait_for(alice, "chat.messages.length >= 1")
            check("alice's page shows bob's answer", received(alice) == [["bob", "fine, thanks"]],
                  repr(received(alice)))
            check("alice's own messages show as li.message.mine",
                  alice.locator("#log li.message.mine").count() == 2)

            unsent = alice.evaluate("(text) => window.imcodecChat.send(text)", TOO_LONG)
            local = alice.locator("#log li.rejection.local[data-msg-id='%s']" % unsent["msgId"])
            check("the page refuses a text past 12 KB itself, with limit.message.body-bytes at elems, and sends nothing",
                  [(f["code"], f["path"]) for f in unsent.get("findings", [])] == [("limit.message.body-bytes", "elems")]
                  and alice.evaluate("window.imcodecChat.refusedHere.length") == 1
                  and alice.evaluate("window.imcodecChat.rejections.length") == 0
                  and local.count() == 1 and "limit.message.body-bytes" in local.inner_text(),
                  repr(unsent))
            check("the page's own refusal took no round trip: no rejection from the relay follows",
                  not wait_for(alice, "chat.rejections.length >= 1", 1500), "a rejection arrived")
            sent = alice.evaluate("(text) => window.imcodecChat.send(text, {check: false})", TOO_LONG)
            wait_for(alice, "chat.rejections.length >= 1")
            rejections = alice.evaluate("window.imcodecChat.rejections")
            findings = rejections[0]["findings"] if rejections else []
            check("a text past 12 KB is refused to alice with limit.message.body-bytes",
                  len(rejections) == 1 and rejections[0]["msgId"] == sent["msgId"]
                  and [f["code"] for f in findings] == ["limit.message.body-bytes"], repr(rejections))
            row = alice.locator("#log li.rejection[data-msg-id='%s']" % sent["msgId"])
            check("alice's page shows the rejection with its finding's code and path",
                  row.count() == 1 and "limit.message.body-bytes" in row.inner_text()
                  and findings and findings[0]["path"] in row.inner_text(),
                  row.inner_text() if row.count() else "no row")
            say(alice, "sorry, too long")
            wait_for(bob, "chat.messages.length >= 3")
            check("bob never sees the refused message, and sees the next one",
                  received(bob) == [["alice", "hello bob"], ["alice", "how are you?"], ["alice", "sorry, too long"]]
                  and bob.evaluate("window.imcodecChat.rejections.length") == 0, repr(received(bob)))

            if arguments.screenshot:
                side_by_side(browser, [alice, bob], arguments.screenshot)
                print("saved %s" % arguments.screenshot)

            cases = [
                ("a text message", (1003, "connection.websocket-text"),
                 lambda page: page.evaluate("window.imcodecChat.sendText('hello')")),
                ("garbage as a binary message", (1007, "frame.version"),
                 lambda page: page.evaluate("window.imcodecChat.sendBytes(new TextEncoder().encode('garbage'))")),
                ("a frame with a flipped checksum bit", (1007, "frame.checksum"),
                 lambda page: page.evaluate(
                     "(bytes) => window.imcodecChat.sendBytes(new Uint8Array(bytes))", page.evaluate(BAD_CHECKSUM))),
            ]
            for name, expected, send in cases:
                got = closed_by(browser, url, send)
                check("%s closes that socket with %d %s" % ((name,) + expected), got == expected, repr(got))

            say(bob, "still here")
            wait_for(alice, "chat.messages.length >= 2")
            say(alice, "me too")
            wait_for(bob, "chat.messages.length >= 4")
            check("alice and bob stay open and keep talking",
                  alice.evaluate("window.imcodecChat.closed") is None
                  and bob.evaluate("window.imcodecChat.closed") is None
                  and received(alice)[-1] == ["bob", "still here"] and received(bob)[-1] == ["alice", "me too"],
                  "%r / %r" % (received(alice), received(bob)))
            browser.close()
    finally:
        status, out, err = relay.stop()
        if bundle_dir:
            shutil.rmtree(bundle_dir, ignore_errors=True)
    closes = re.findall(r"reason=(\S+)", "\n".join(line for line in err.splitlines() if " closed" in line))
    for reason in ("connection.websocket-text", "frame.version", "frame.checksum"):
        check("the relay logs a close with reason %s" % reason, reason in closes, repr(closes))
    rejected = [line for line in err.splitlines() if " rejected" in line]
    check("the relay logs one rejection, codes=limit.message.body-bytes",
          len(rejected) == 1 and "codes=limit.message.body-bytes" in rejected[0], repr(rejected))
    check("the relay drains and exits 0 on SIGTERM", status == 0, "exit %s: %s" % (status, out[-400:]))
    failed = results.count(False)
    print("%d passed, %d failed (%.1f s)" % (len(results) - failed, failed, time.monotonic() - started))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
