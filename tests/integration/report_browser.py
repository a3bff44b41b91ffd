#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""report_browser.py: open an fslab report.html in headless Chromium and check it as a reader
sees it (issue 21): at each width, no horizontal overflow (the page nor any element wider
than the window), every chart rendered (an inline SVG with a non-empty box and drawn
content), the answer and the key table above the first chart, no console error or uncaught
exception, no request that leaves the file (no network, no other file), every <details>
section opens when its summary is clicked (a real mouse click); the print stylesheet keeps
tables and charts whole.  Screenshots (the first screen and the whole page, every section
open) and a PDF print are kept in OUTDIR.

Usage: report_browser.py REPORT.html OUTDIR [WIDTH...]     (default widths 1280 800)

Chromium is driven through the DevTools protocol over a pipe (--remote-debugging-pipe: JSON
messages separated by NUL on file descriptors 3 and 4), so nothing but Debian's chromium and
python3 is needed.  Exit status 0 when every check passed, 1 otherwise (each failure
printed), 2 when Chromium cannot be started.
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

CHROMIUM = os.environ.get("FSLAB_CHROMIUM", "/usr/bin/chromium")
TIMEOUT = 60.0


class Browser:
    """Chromium with the DevTools protocol on a pipe: commands, their replies, events."""

    def __init__(self, profile):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        # the child's ends above 10, so that moving them to 3 and 4 clobbers neither
        to_chrome_r, from_chrome_w = [self._high(fd) for fd in (to_chrome_r, from_chrome_w)]
        # the flags of the brief: no sandbox (root), no GPU, nothing that phones home
        args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-quic", "--disable-extensions",
                "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"]
        # the protocol wants its pipe on fds 3 (commands) and 4 (replies): the shell puts them
        # there whatever numbers os.pipe() gave (bash: dash takes one-digit fds only)
        shell = 'exec "$0" "$@" 3<&%d 4>&%d %d<&- %d>&-' % (
            to_chrome_r, from_chrome_w, to_chrome_r, from_chrome_w)
        self.log = open(os.path.join(profile, "chromium.log"), "wb")
        self.proc = subprocess.Popen(["/bin/bash", "-c", shell] + args,
                                     pass_fds=(to_chrome_r, from_chrome_w),
                                     stdout=self.log, stderr=subprocess.STDOUT)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    @staticmethod
    def _high(fd):
        high = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
        os.close(fd)
        return high

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no message from Chromium")
            ready, _, _ = select.select([self.from_chrome], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise EOFError("Chromium closed its DevTools pipe (see chromium.log)")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None):
        """One command; its result (events that arrive meanwhile are kept)."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method, session=None):
        deadline = time.monotonic() + TIMEOUT
        while True:
            for i, ev in enumerate(self.events):
                if ev.get("method") == method and (not session or ev.get("sessionId") == session):
                    return self.events.pop(i)
            self.events.append(self._read_message(deadline))

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_chrome)
        os.close(self.from_chrome)
        self.log.close()


# What the page says about itself, as a reader at this width would see it.
PAGE_FACTS = r"""
(() => {
  const vw = document.documentElement.clientWidth;
  const top = el => el.getBoundingClientRect().top + window.scrollY;
  const bottom = el => el.getBoundingClientRect().bottom + window.scrollY;
  const wide = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > vw + 0.5 && !el.closest('svg, details:not([open])'))
      wide.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' right ' +
                Math.round(r.right) + ' px: ' + (el.textContent || '').trim().slice(0, 60));
  }
  const charts = [...document.querySelectorAll('figure')].map(f => {
    const svg = f.querySelector('svg'), r = svg ? svg.getBoundingClientRect() : null;
    return { caption: (f.querySelector('figcaption') || {}).textContent || '',
             width: r ? r.width : 0, height: r ? r.height : 0,
             drawn: svg ? svg.querySelectorAll('path, rect, polygon, text').length : 0 };
  });
  const h2 = [...document.querySelectorAll('h2')];
  const answer = h2.find(h => h.textContent.trim() === 'The answer');
  let list = null, key = null;
  for (let el = answer && answer.nextElementSibling; el && el.tagName !== 'H2';
       el = el.nextElementSibling) {
    if (!list && el.tagName === 'UL') list = el;
    if (!key && el.tagName === 'TABLE') key = el;
  }
  const fig = document.querySelector('figure');
  return {
    viewport: vw, scrollWidth: document.documentElement.scrollWidth,
    height: document.documentElement.scrollHeight, wide: wide.slice(0, 10),
    nwide: wide.length, charts: charts,
    sections: h2.map(h => h.textContent.trim()),
    answer: answer ? top(answer) : -1, answerList: list ? bottom(list) : -1,
    keyTable: key ? bottom(key) : -1,
    keyHeader: key ? [...key.querySelectorAll('th')].map(t => t.textContent) : [],
    firstChart: fig ? top(fig) : -1,
    details: document.querySelectorAll('details').length,
    scripts: document.querySelectorAll('script').length,
  };
})()
"""

# Every <details>: its summary's place on the page and whether it is open, with the height of
# what it shows.
DETAILS_FACTS = r"""
[...document.querySelectorAll('details')].map(d => {
  const s = d.querySelector('summary');
  const kids = [...d.children].filter(k => k !== s);
  return { summary: s.textContent.trim(), open: d.open,
           shown: kids.reduce((h, k) => h + k.getBoundingClientRect().height, 0) };
})
"""

# In the print stylesheet tables and charts are never split by a page break.
PRINT_FACTS = r"""
[...document.querySelectorAll('table, figure')].filter(e => {
  const b = getComputedStyle(e).breakInside;
  return b !== 'avoid' && b !== 'avoid-page';
}).length
"""


def evaluate(b, session, expr):
    r = b.send("Runtime.evaluate", {"expression": expr, "returnByValue": True,
                                    "awaitPromise": True}, session)
    if "exceptionDetails" in r:
        raise RuntimeError("page script failed: %s" % r["exceptionDetails"])
    return r["result"].get("value")


def click(b, session, x, y):
    for kind in ("mousePressed", "mouseReleased"):
        b.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                            "clickCount": 1}, session)


def screenshot(b, session, path, width, height=None):
    params = {"format": "png"}
    if height:
        params.update(captureBeyondViewport=True,
                      clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
    data = b.send("Page.captureScreenshot", params, session)["data"]
    with open(path, "wb") as f:
        f.write(base64.b64decode(data))


def check_width(b, url, width, outdir, failures):
    def fail(msg):
        failures.append("%d px: %s" % (width, msg))

    target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        b.send(domain + ".enable", {}, session)
    b.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900,
                                                  "deviceScaleFactor": 1, "mobile": False},
           session)
    b.send("Page.navigate", {"url": url}, session)
    b.wait_event("Page.loadEventFired", session)
    facts = evaluate(b, session, PAGE_FACTS)
    print("%d px: %s" % (width, json.dumps({k: v for k, v in facts.items() if k != "charts"})))

    if facts["scrollWidth"] > facts["viewport"]:
        fail("the page scrolls sideways: %d px wide in a %d px window"
             % (facts["scrollWidth"], facts["viewport"]))
    if facts["nwide"]:
        fail("%d elements reach past the window's right edge: %s"
             % (facts["nwide"], "; ".join(facts["wide"])))
    if not facts["charts"]:
        fail("no chart in the page")
    for ch in facts["charts"]:
        if ch["width"] < 100 or ch["height"] < 50 or ch["drawn"] < 10:
            fail("chart not rendered (%.0f x %.0f px, %d drawn elements): %s"
                 % (ch["width"], ch["height"], ch["drawn"], ch["caption"]))
    if facts["answer"] < 0 or facts["answerList"] < 0:
        fail("no answer section (h2 'The answer' followed by its list)")
    if facts["keyTable"] < 0:
        fail("no key table in the answer")
    if facts["firstChart"] >= 0 and not (0 <= facts["answerList"] <= facts["firstChart"]
                                         and 0 <= facts["keyTable"] <= facts["firstChart"]):
        fail("the answer (ends at %.0f px) and the key table (ends at %.0f px) are not above "
             "the first chart (%.0f px)" % (facts["answerList"], facts["keyTable"],
                                            facts["firstChart"]))
    if facts["scripts"]:
        fail("the report carries %d script(s)" % facts["scripts"])
    if not facts["details"]:
        fail("no <details> section (the per-run detail is folded)")

    screenshot(b, session, os.path.join(outdir, "report-%d-top.png" % width), width)

    # open every folded section with a real click on its summary
    details = evaluate(b, session, DETAILS_FACTS)
    for i, d in enumerate(details):
        if d["open"]:
            fail("details '%s' is open before it was clicked" % d["summary"])
        evaluate(b, session, "document.querySelectorAll('details')[%d].querySelector('summary')"
                 ".scrollIntoView({block: 'center'})" % i)
        rect = evaluate(b, session, "(() => { const r = document.querySelectorAll('details')[%d]"
                        ".querySelector('summary').getBoundingClientRect(); return [r.left + 10,"
                        " r.top + r.height / 2]; })()" % i)
        click(b, session, rect[0], rect[1])
    opened = evaluate(b, session, DETAILS_FACTS)
    for d in opened:
        if not d["open"] or d["shown"] < 5:
            fail("details '%s' did not open on a click (open %s, %.0f px shown)"
                 % (d["summary"], d["open"], d["shown"]))
    facts2 = evaluate(b, session, PAGE_FACTS)
    if facts2["scrollWidth"] > facts2["viewport"] or facts2["nwide"]:
        fail("with the details open the page is wider than the window: %s"
             % "; ".join(facts2["wide"]))
    evaluate(b, session, "window.scrollTo(0, 0)")
    screenshot(b, session, os.path.join(outdir, "report-%d-full.png" % width), width,
               facts2["height"])

    if width == 1280:
        b.send("Emulation.setEmulatedMedia", {"media": "print"}, session)
        split = evaluate(b, session, PRINT_FACTS)
        if split:
            fail("print: %d tables or charts may be split by a page break" % split)
        b.send("Emulation.setEmulatedMedia", {"media": ""}, session)
        pdf = b.send("Page.printToPDF", {"printBackground": False}, session)["data"]
        with open(os.path.join(outdir, "report.pdf"), "wb") as f:
            f.write(base64.b64decode(pdf))

    # what the page logged and fetched while it was loaded, read and clicked
    for ev in [e for e in b.events if e.get("sessionId") == session]:
        m, p = ev.get("method"), ev.get("params", {})
        if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            fail("console %s: %s" % (p["type"], [a.get("value", a.get("description"))
                                                 for a in p.get("args", [])]))
        elif m == "Runtime.exceptionThrown":
            fail("uncaught exception: %s" % p["exceptionDetails"].get("text"))
        elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
            fail("console error: %s %s" % (p["entry"].get("text"), p["entry"].get("url", "")))
        elif m == "Network.requestWillBeSent":
            req = p["request"]["url"]
            if req != url and not req.startswith("data:"):
                fail("request beyond the report file: %s" % req)
    b.events = [e for e in b.events if e.get("sessionId") != session]
    b.send("Target.closeTarget", {"targetId": target})


def main():
    if len(sys.argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    report, outdir = os.path.abspath(sys.argv[1]), sys.argv[2]
    widths = [int(w) for w in sys.argv[3:]] or [1280, 800]
    os.makedirs(outdir, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="fslab-chromium.")
    failures = []
    try:
        try:
            b = Browser(profile)
            version = b.send("Browser.getVersion")
        except (OSError, EOFError, TimeoutError, RuntimeError) as e:
            print("cannot start %s: %s" % (CHROMIUM, e), file=sys.stderr)
            try:
                print(open(os.path.join(profile, "chromium.log")).read()[-2000:],
                      file=sys.stderr)
            except OSError:
                pass
            return 2
        print("browser: %s" % version.get("product"))
        try:
            for w in widths:
                check_width(b, "file://" + report, w, outdir, failures)
        finally:
            b.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    for f in failures:
        print("FAIL: " + f)
    print("screenshots: %s" % " ".join(sorted(n for n in os.listdir(outdir)
                                               if n.endswith(".png"))))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
