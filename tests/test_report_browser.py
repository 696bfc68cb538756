"""The report in a real browser: headless Chromium (the system's, /usr/bin/chromium, driven by
Selenium through /usr/bin/chromedriver; nothing downloads a browser).

- The page loads from file:// with no console error and no network request (the performance
  log lists every request Chromium makes; only the file itself may appear).
- Sorting and filtering the segment table give the rows Python expects from the same data;
  selecting a segment marks the tokens the data says.
- Hostile segments show literally and run nothing.
- Without DecompressionStream the page's own inflate unpacks the same data.
- Timings from performance.now() (first view; sorting and filtering 3,004 rows) are printed and
  written to $CYBLEU_ARTIFACTS/browser-timings.json, not asserted; screenshots of every view
  go to $CYBLEU_ARTIFACTS (default: a temporary directory, printed).

Without Chromium, chromedriver or Selenium (`pip install "cybleu[browser]"`) these tests skip
with the reason, unless CYBLEU_REQUIRE_BROWSER=1 (CI), where that fails them.
"""
import html
import json
import os
import re
import shutil
import tempfile
import time

import numpy as np
import pytest

import cybleu

from conftest import data_path, read_lines
from report_helpers import demo, hostile_corpus, page_data, seg_texts, sentence

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("CYBLEU_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CYBLEU_CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,1000"]
VIEWS = ["overview", "interpretation", "anatomy", "compare", "ngrams", "buckets"]
TIMINGS = {}


def _unavailable():
    reasons = []
    for path, what in ((CHROMIUM, "Chromium"), (CHROMEDRIVER, "chromedriver")):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            reasons.append(f"{what} is not at {path} (apt install chromium chromium-driver, or "
                           f"set CYBLEU_CHROMIUM / CYBLEU_CHROMEDRIVER)")
    try:
        import selenium  # noqa: F401 - a probe
    except ImportError:
        reasons.append('Selenium is not installed (pip install "cybleu[browser]")')
    return "; ".join(reasons)


@pytest.fixture(scope="module")
def browser():
    reason = _unavailable()
    if reason:
        if os.environ.get("CYBLEU_REQUIRE_BROWSER") == "1":
            pytest.fail(f"CYBLEU_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    profile = tempfile.mkdtemp(prefix="cybleu-chromium-")
    options = Options()
    options.binary_location = CHROMIUM
    for flag in FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": True,
                                                         "enablePage": False})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    path = os.environ.get("CYBLEU_ARTIFACTS") or str(tmp_path_factory.mktemp("artifacts"))
    os.makedirs(path, exist_ok=True)
    print(f"\nbrowser artefacts (screenshots, timings): {path}")
    yield path
    with open(os.path.join(path, "browser-timings.json"), "w", encoding="utf-8") as f:
        json.dump(TIMINGS, f, indent=1)
    print(json.dumps(TIMINGS, indent=1))


def _drain(driver):
    driver.get_log("browser")
    driver.get_log("performance")


# Chromium's own pages and resources (chrome://, devtools://, ...) and the file itself are not
# the network; every other URL requested is
LOCAL = ("chrome://", "chrome-extension://", "devtools://", "about:", "data:", "blob:")


def _network(requests, own):
    return [u for u in requests
            if not u.startswith(LOCAL) and u.split("#")[0] != own]


def _open(driver, path, view="overview", before=None):
    """Load the page; return (console entries, URLs requested)."""
    _drain(driver)
    if before is not None:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": before})
    driver.get("about:blank")
    driver.get(f"file://{os.path.abspath(path)}#{view}")
    for _ in range(600):
        state = driver.execute_script("return window.__cybleuReady || null")
        if state:
            break
        time.sleep(0.05)
    assert state is True, driver.execute_script("return window.__cybleuTimings")
    for _ in range(600):  # the segments' text unpacks after the first view
        if driver.execute_script("return !document.getElementById('cybleu-text') || "
                                 "!!window.__cybleuTimings.textsReady"):
            break
        time.sleep(0.05)
    logs = driver.get_log("browser")
    requests = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] in ("Network.requestWillBeSent", "Network.webSocketCreated"):
            requests.append(message["params"].get("request", message["params"]).get("url"))
    return logs, requests


def _shot(driver, artifacts, name):
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1400, min(max(height, 800), 6000))
    time.sleep(0.2)
    path = os.path.join(artifacts, f"{name}.png")
    driver.save_screenshot(path)
    driver.set_window_size(1400, 1000)
    return path


@pytest.fixture(scope="module")
def demo_page(tmp_path_factory):
    refs, systems = demo()
    rep = cybleu.report(refs, systems, sources=[f"(source {i + 1})" for i in range(len(refs))],
                        name="WMT17 en-de, first 500 segments")
    path = tmp_path_factory.mktemp("pages") / "demo.html"
    rep.save(path)
    _, header, arrays = page_data(path.read_text(encoding="utf-8"))
    return {"path": str(path), "header": header, "arrays": arrays, "refs": refs,
            "systems": systems}


def test_loads_offline_without_errors_or_requests(browser, demo_page, artifacts):
    logs, requests = _open(browser, demo_page["path"])
    assert [e for e in logs if e["level"] in ("SEVERE", "WARNING")] == []
    assert _network(requests, f"file://{os.path.abspath(demo_page['path'])}") == []
    t = browser.execute_script("return window.__cybleuTimings")
    TIMINGS["demo 5x500: first view (ms)"] = round(t["firstView"], 1)
    assert browser.execute_script("return typeof window.__pwned") == "undefined"


def test_every_view_renders(browser, demo_page, artifacts):
    _open(browser, demo_page["path"])
    header = demo_page["header"]
    n_sys = len(header["sets"][0]["systems"])
    checks = {
        "overview": "return document.querySelectorAll('#overview-table tbody tr').length",
        "interpretation": "return document.querySelectorAll('#bands-chart circle').length",
        "anatomy": "return document.querySelectorAll('#precision-bars rect').length "
                   "+ document.querySelectorAll('#bp-curve path').length",
        "compare": "return document.querySelectorAll('#seg-table .vt-row').length",
        "ngrams": "return document.querySelectorAll('#ngrams-better tbody tr').length",
        "buckets": "return document.querySelectorAll('#bucket-length path').length",
    }
    expected = {"overview": n_sys, "interpretation": n_sys, "anatomy": 5, "buckets": n_sys}
    for view in VIEWS:
        browser.execute_script(f"window.__cybleu.go('{view}')")
        if view == "compare":
            browser.execute_script("window.__cybleu.select(window.__cybleu.order()[0])")
        count = browser.execute_script(checks[view])
        if view in expected:
            assert count == expected[view], view
        else:
            assert count > 0, view
        _shot(browser, artifacts, f"demo-{view}")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def _rows(driver):
    """The segment indices of the rendered rows, top to bottom."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#seg-table .vt-row'))"
        ".filter(r => r.style.display !== 'none')"
        ".sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))"
        ".map(r => +r.getAttribute('data-seg'))")


def _expected_order(key_values, indices, descending):
    sign = -1 if descending else 1
    return sorted(indices, key=lambda i: (sign * key_values[i], i))


def test_sorting_and_filtering(browser, demo_page):
    from selenium.webdriver.common.by import By
    header, arrays = demo_page["header"], demo_page["arrays"]
    ts = header["sets"][0]
    _open(browser, demo_page["path"], "compare")
    state = browser.execute_script("return window.__cybleu.state")
    a, b, m = state["a"], state["b"], state["cmpMetric"]
    sa = sentence(header, arrays, 0, m, a)
    sb = sentence(header, arrays, 0, m, b)
    delta = sb - sa
    n = ts["n_segments"]
    everything = list(range(n))
    # the default: largest difference first
    rows = _rows(browser)
    assert len(rows) > 10
    assert rows == _expected_order(delta, everything, True)[:len(rows)]
    # a click on A's header: A's sentence score, highest first, then again: lowest first
    head = browser.find_element(By.CSS_SELECTOR, "#seg-table .vt-head [data-key='a']")
    head.click()
    rows = _rows(browser)
    assert rows == _expected_order(sa, everything, True)[:len(rows)]
    head.click()
    rows = _rows(browser)
    assert rows == _expected_order(sa, everything, False)[:len(rows)]
    browser.find_element(By.CSS_SELECTOR, "#seg-table .vt-head [data-key='idx']").click()
    assert _rows(browser) == everything[:len(_rows(browser))]
    # text search over source, references, A and B (case-insensitive)
    word = "trump"
    names = ts["systems"]
    hay = [" ".join([demo_page["refs"][i], demo_page["systems"][names[a]][i],
                     demo_page["systems"][names[b]][i], f"(source {i + 1})"]).lower()
           for i in range(n)]
    want = [i for i in range(n) if word in hay[i]]
    assert 0 < len(want) < n
    box = browser.find_element(By.ID, "seg-search")
    box.send_keys("TRUMP")
    time.sleep(0.5)
    assert _rows(browser) == want[:len(_rows(browser))]
    assert browser.find_element(By.ID, "row-count").text == f"{len(want)} of {n} segments"
    box.clear()
    browser.execute_script(
        "document.getElementById('seg-search').dispatchEvent(new Event('input'))")
    # a range of the difference
    lo = browser.find_element(By.ID, "range-lo")
    lo.send_keys("10")
    time.sleep(0.5)
    want = [i for i in range(n) if delta[i] >= 10]
    assert browser.find_element(By.ID, "row-count").text == f"{len(want)} of {n} segments"
    assert set(_rows(browser)) <= set(want)


def test_selecting_a_segment_marks_the_right_tokens(browser, demo_page, artifacts):
    from selenium.webdriver.common.by import By
    header = demo_page["header"]
    ts = header["sets"][0]
    _open(browser, demo_page["path"], "compare")
    state = browser.execute_script("return window.__cybleu.state")
    rows = browser.find_elements(By.CSS_SELECTOR, "#seg-table .vt-row")
    visible = [r for r in rows if r.is_displayed()]
    for row in visible[:4]:
        seg = int(row.get_attribute("data-seg"))
        row.click()
        _, _, _, toks, marks = seg_texts(ts, seg)
        for side, s in (("a", state["a"]), ("b", state["b"])):
            got = browser.execute_script(
                f"return Array.from(document.querySelectorAll('#detail-{side} .tokens .tok'))"
                ".map(t => [t.textContent, t.getAttribute('data-m')])")
            expected = [[tok, mark] for tok, mark in zip(toks[s].split(" "), marks[s])] \
                if toks[s] else []
            assert got == expected, (seg, side)
        assert browser.find_element(By.ID, "detail-title").text.startswith(f"Segment {seg + 1} ")
    _shot(browser, artifacts, "demo-compare-selected")


SPECIAL = re.compile("[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f"
                     "\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]")


def _shown(text):
    """What the page shows for a text: invisible and direction characters as U+XXXX labels."""
    return SPECIAL.sub(lambda m: f"U+{ord(m.group()):04X}", text)


def test_hostile_segments_run_nothing(browser, tmp_path, artifacts):
    refs, systems, src = hostile_corpus()
    rep = cybleu.report(refs, systems, sources=src, title=refs[0], name=refs[1])
    path = tmp_path / "hostile.html"
    rep.save(path)
    logs, requests = _open(browser, str(path), "compare")
    assert _network(requests, f"file://{path}") == []
    names = list(systems)
    for i in range(len(refs)):
        browser.execute_script(f"window.__cybleu.select({i})")
        shown = browser.execute_script(
            "var q = s => Array.from(document.querySelectorAll(s)).map(e => e.textContent);"
            "return [q('#seg-detail dd.src'), q('#seg-detail dd.ref'), q('#seg-detail dd.hyp')]")
        assert shown[0] == [_shown(src[i])]
        assert shown[1] == [_shown(refs[i])]
        state = browser.execute_script("return window.__cybleu.state")
        assert shown[2] == [_shown(systems[names[state["a"]]][i]),
                            _shown(systems[names[state["b"]]][i])]
        assert browser.execute_script("return typeof window.__pwned") == "undefined"
        assert browser.execute_script("return typeof window.self.__pwned") == "undefined"
        if i == 1:
            _shot(browser, artifacts, "hostile-compare")
    for view in VIEWS:
        browser.execute_script(f"window.__cybleu.go('{view}')")
    assert browser.execute_script(
        "return document.querySelectorAll('img, iframe, object, embed, a[href], "
        "[onerror], [onload], svg script').length") == 0
    assert browser.execute_script("return document.title") == refs[0]
    assert browser.execute_script("return typeof window.__pwned") == "undefined"
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    browser.execute_script("window.__cybleu.go('overview')")
    _shot(browser, artifacts, "hostile-overview")


def test_several_test_sets(browser, tmp_path, artifacts):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    refs, systems = demo(3, 60)
    names = list(systems)
    rep = cybleu.report(testsets=[
        {"name": "first", "references": refs, "systems": systems},
        {"name": "second", "references": refs[:40],
         "systems": {"renamed " + n: lines[:40] for n, lines in systems.items()}}])
    path = tmp_path / "sets.html"
    rep.save(path)
    _open(browser, str(path))

    def shown():
        return browser.execute_script(
            "return Array.from(document.querySelectorAll('#overview-table tbody td.name'))"
            ".map(td => td.textContent.replace('baseline', '')).sort()")
    assert shown() == sorted(names)
    Select(browser.find_element(By.ID, "set-select")).select_by_visible_text("second")
    assert shown() == sorted("renamed " + n for n in names)
    browser.execute_script("window.__cybleu.go('compare')")
    assert browser.find_element(By.ID, "row-count").text == "40 of 40 segments"
    _shot(browser, artifacts, "sets-second-compare")


def test_inflate_fallback_without_decompression_stream(browser, demo_page):
    # every new document of this browser session from here on lacks DecompressionStream
    logs, _ = _open(browser, demo_page["path"], "compare",
                    before="delete window.DecompressionStream;")
    assert browser.execute_script("return typeof DecompressionStream") == "undefined"
    assert [e for e in logs if e["level"] == "SEVERE"] == []
    header, arrays = demo_page["header"], demo_page["arrays"]
    state = browser.execute_script("return window.__cybleu.state")
    delta = sentence(header, arrays, 0, state["cmpMetric"], state["b"]) - \
        sentence(header, arrays, 0, state["cmpMetric"], state["a"])
    rows = _rows(browser)
    assert rows == _expected_order(delta, list(range(len(delta))), True)[:len(rows)]


def _time_table(driver, label):
    """performance.now() durations of sorting and filtering the whole table, in ms."""
    out = {}
    for key in ("delta", "a", "len", "idx"):
        driver.execute_script(f"window.__cybleu.sortBy('{key}')")
        out[f"sort by {key}"] = round(driver.execute_script(
            "return window.__cybleuTimings.lastSort"), 2)
    for q in ("der", "zzzz-none", ""):
        driver.execute_script(f"window.__cybleu.state.q = '{q}'; window.__cybleu.refreshRows()")
        out[f"filter '{q}'"] = round(driver.execute_script(
            "return window.__cybleuTimings.lastFilter"), 2)
    driver.execute_script("var s = window.__cybleu.state; s.lo = '0'; s.rangeOn = 'delta';"
                          "window.__cybleu.refreshRows()")
    out["filter delta >= 0"] = round(driver.execute_script(
        "return window.__cybleuTimings.lastFilter"), 2)
    TIMINGS[label] = out
    return out


def test_wmt17_sixteen_systems_timings(browser, tmp_path, artifacts):
    if cybleu.BACKEND != "cython":
        pytest.skip("builds the 16-system report: the compiled backend's job")
    d = data_path("sacrebleu-fixtures", "wmt17-en-de")
    refs = read_lines(d / "ref.txt")
    systems = {p.name.split(".")[1]: read_lines(p) for p in sorted((d / "sys").glob("*.txt"))}
    start = time.perf_counter()
    rep = cybleu.report(refs, systems, name="newstest2017 en-de")
    path = tmp_path / "wmt17.html"
    rep.save(path)
    TIMINGS["wmt17 16x3004: build + save (s)"] = round(time.perf_counter() - start, 2)
    TIMINGS["wmt17 16x3004: file (MB)"] = round(os.path.getsize(path) / 1e6, 2)
    logs, requests = _open(browser, str(path), "overview")
    assert [e for e in logs if e["level"] == "SEVERE"] == []
    assert _network(requests, f"file://{path}") == []
    TIMINGS["wmt17 16x3004: first view (ms)"] = round(
        browser.execute_script("return window.__cybleuTimings.firstView"), 1)
    browser.execute_script("window.__cybleu.go('compare')")
    out = _time_table(browser, "wmt17 16x3004: table (ms)")
    assert len(out) == 8
    assert browser.execute_script("return window.__cybleu.order().length") > 0
    for view in VIEWS:
        browser.execute_script(f"window.__cybleu.go('{view}')")
        if view == "compare":
            browser.execute_script("window.__cybleu.state.lo = ''; window.__cybleu.refreshRows();"
                                   "window.__cybleu.select(window.__cybleu.order()[0])")
        _shot(browser, artifacts, f"wmt17-{view}")


@pytest.mark.slow
def test_fifty_thousand_segments_build_open_and_sort(browser, tmp_path, artifacts):
    if cybleu.BACKEND != "cython":
        pytest.skip("builds a 4 x 50,000 report: the compiled backend's job")
    refs, systems = demo(4, 500)
    big_refs = refs * 100
    big = {name: lines * 100 for name, lines in systems.items()}
    start = time.perf_counter()
    rep = cybleu.report(big_refs, big, name="4 x 50,000")
    path = tmp_path / "big.html"
    rep.save(path)
    TIMINGS["4x50000: build + save (s)"] = round(time.perf_counter() - start, 2)
    TIMINGS["4x50000: file (MB)"] = round(os.path.getsize(path) / 1e6, 2)
    _, header, arrays = page_data(path.read_text(encoding="utf-8"))
    logs, _ = _open(browser, str(path), "compare")
    assert [e for e in logs if e["level"] == "SEVERE"] == []
    TIMINGS["4x50000: first view (ms)"] = round(
        browser.execute_script("return window.__cybleuTimings.firstView"), 1)
    state = browser.execute_script("return window.__cybleu.state")
    sa = sentence(header, arrays, 0, state["cmpMetric"], state["a"])
    browser.execute_script("window.__cybleu.sortBy('a')")
    rows = _rows(browser)
    assert rows == _expected_order(sa, list(range(len(sa))), True)[:len(rows)]
    # only the visible rows exist in the page
    assert browser.execute_script("return document.querySelectorAll('.vt-row').length") < 100
    browser.execute_script("document.getElementById('seg-table').scrollTop = 28 * 25000")
    time.sleep(0.3)
    rows = _rows(browser)
    order = _expected_order(sa, list(range(len(sa))), True)
    assert rows and set(rows) <= set(order[24900:25100])
    _time_table(browser, "4x50000: table (ms)")
    _shot(browser, artifacts, "big-compare")
    assert np.isfinite(sa).all()


# -- issue: the page as a researcher uses it (colours, exports, n-grams, phones, dark mode) -----

def _emulate(driver, width=None, height=None, dark=False, mobile=False):
    """Viewport size, phone and colour scheme for the next page loads (None: Chromium's own)."""
    if width is None:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    else:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 2 if mobile else 1,
            "mobile": mobile})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})


def _viewport_shot(driver, artifacts, name, width, height, mobile=False):
    """A screenshot of the whole view at this width (the page's height, up to 6000 px)."""
    full = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": min(max(full, height), 6000),
        "deviceScaleFactor": 2 if mobile else 1, "mobile": mobile})
    time.sleep(0.2)
    driver.save_screenshot(os.path.join(artifacts, f"{name}.png"))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 2 if mobile else 1,
        "mobile": mobile})


# every chart's text inside its chart (no "≥100(" or "+10(" cut at an edge)
CLIPPED_TEXT = """
var out = [];
document.querySelectorAll('section.view.active svg.chart').forEach(function (svg) {
  var box = svg.getBoundingClientRect();
  svg.querySelectorAll('text').forEach(function (t) {
    var r = t.getBoundingClientRect();
    if (!r.width) return;
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 ||
        r.bottom > box.bottom + 0.5) out.push(svg.id + ': ' + t.textContent);
  });
});
return out;"""
# charts drawn at their size: text keeps its size (no 4 px text on a phone)
SHRUNK_CHARTS = """
var out = [];
document.querySelectorAll('section.view.active svg.chart').forEach(function (svg) {
  var vb = svg.viewBox.baseVal, w = svg.getBoundingClientRect().width;
  if (vb && vb.width && w / vb.width < 0.95) out.push(svg.id + ' at ' + (w / vb.width).toFixed(2));
});
return out;"""
# tables wider than their box, rotated names cut short
OVERFLOW = """
var out = [];
if (document.documentElement.scrollWidth > document.documentElement.clientWidth + 1)
  out.push('page ' + document.documentElement.scrollWidth);
document.querySelectorAll('section.view.active .table-wrap').forEach(function (w) {
  if (w.scrollWidth > w.clientWidth + 1) out.push((w.firstChild.id || 'table') + ' ' + w.scrollWidth + ' > ' + w.clientWidth);
});
document.querySelectorAll('section.view.active th.rot > div').forEach(function (d) {
  if (d.scrollHeight > d.clientHeight + 1) out.push('header ' + d.textContent);
});
return out;"""


def test_layout_desktop_and_phone_light_and_dark(browser, demo_page, artifacts):
    """At 1440 px nothing is wider than the page and no table scrolls; on a 390 px phone the
    header is short; at every width (1100 px too) charts keep their text size and no chart text
    is cut at an edge, in light and dark. Screenshots of every view in each."""
    try:
        for width, height, mobile in ((1440, 900, False), (1100, 800, False), (390, 844, True)):
            for dark in ((False, True) if width != 1100 else (False,)):
                _emulate(browser, width, height, dark, mobile)
                _open(browser, demo_page["path"])
                bg = browser.execute_script(
                    "return getComputedStyle(document.body).backgroundColor")
                assert (bg == "rgb(13, 17, 23)") == dark, bg
                for view in VIEWS:
                    browser.execute_script(f"window.__cybleu.go('{view}')")
                    if view == "compare":
                        browser.execute_script("window.__cybleu.select(window.__cybleu.order()[0])")
                    time.sleep(0.1)
                    assert browser.execute_script(CLIPPED_TEXT) == [], (width, dark, view)
                    assert browser.execute_script(SHRUNK_CHARTS) == [], (width, dark, view)
                    if width == 1440:
                        assert browser.execute_script(OVERFLOW) == [], (width, dark, view)
                    if mobile:
                        header = browser.execute_script(
                            "return document.querySelector('header.top').offsetHeight")
                        assert header <= 0.12 * height, header
                    _viewport_shot(browser, artifacts,
                                   f"layout-{view}-{'phone' if mobile else width}-"
                                   f"{'dark' if dark else 'light'}", width, height, mobile)
                assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    finally:
        _emulate(browser)


def test_p_values_are_coloured_by_direction_and_show_enough_digits(browser, demo_page):
    header = demo_page["header"]
    ts = header["sets"][0]
    alpha = header["test"]["alpha"]
    _open(browser, demo_page["path"])
    got = browser.execute_script(
        "return Array.from(document.querySelectorAll('#overview-table tbody tr')).map(tr =>"
        " [+tr.getAttribute('data-system'), Array.from(tr.querySelectorAll('td.p'))"
        ".map(td => [td.className.replace('p ', ''), td.textContent])])")
    seen = set()
    for s, cells in got:
        for m, (cls, text) in zip(ts["metrics"], cells):
            c, base = m["corpus"][s], m["corpus"][ts["baseline"]]
            if c["p"] is None:
                assert cls == "muted"
                continue
            worse = c["score"] < base["score"] if m["higher_is_better"] else \
                c["score"] > base["score"]
            want = "nsig" if c["p"] >= alpha else ("sigw" if worse else "sig")
            assert cls == want, (s, m["name"], c)
            seen.add(want)
            assert (float(text.rstrip(" *")) < alpha) == (c["p"] < alpha)
    assert seen == {"sig", "sigw", "nsig"}   # the sample has all three
    # the matrix: a cell's text never reads as the other side of the level its colour shows
    for k, m in enumerate(ts["metrics"]):
        browser.execute_script(
            f"window.__cybleu.state.ovMetric = {k}; window.__cybleu.go('overview', true)")
        cells = browser.execute_script(
            "return Array.from(document.querySelectorAll('#pair-matrix td.cell:not(.diag)'))"
            ".map(td => [td.className, td.textContent])")
        assert len(cells) == len(ts["systems"]) * (len(ts["systems"]) - 1)
        adjusted = sorted(p for row in m["holm_p"] for p in row if p is not None)
        shown = []
        for cls, text in cells:
            value = float(text.lstrip("< "))
            strong = cls.endswith("2")
            assert (value < 0.01 or text.startswith("<")) == strong, (cls, text)
            shown.append(value)
        assert any(0.0099 < p < 0.01 for p in adjusted)         # the case that read "0.0100"
        assert "0.00999" in [text for _, text in cells]
    assert browser.execute_script("return window.__cybleu.fmtP(0.00999)") == "0.00999"
    assert browser.execute_script("return window.__cybleu.fmtP(0.0499999)") == "0.0499999"
    assert browser.execute_script("return window.__cybleu.fmtP(0.0100001)") == "0.0100"


LATEX_NAMES = ["a&b%c$d#e_f{g}h~i^j\\k", "<b>bold</b> | </script>", "=HYPERLINK(\"x\")",
               "\u202eevil\0 name"]


def _latex(name):
    """What the exports must write for a name (Python's escaping of the overview table)."""
    from cybleu._report import _latex_escape
    return _latex_escape(name)


def test_exports_escape_names_and_give_the_numbers(browser, tmp_path):
    import csv
    import io
    refs, systems = demo(4, 80)
    named = dict(zip(LATEX_NAMES, systems.values()))
    rep = cybleu.report(refs, named, sources=[f"src {i}" for i in range(80)])
    path = tmp_path / "export.html"
    rep.save(path)
    _, header, arrays = page_data(path.read_text(encoding="utf-8"))
    ts = header["sets"][0]
    _open(browser, str(path))
    # long names: the matrix's rotated header is as tall as they need, none cut short
    assert browser.execute_script(OVERFLOW) == []
    m = ts["metrics"][0]
    latex = browser.execute_script("return window.__cybleu.exportText('pair-matrix', 'latex')")
    assert latex.startswith("% ") and "\\begin{tabular}{lr" in latex
    assert latex.rstrip().endswith("\\end{tabular}")
    lines = latex.splitlines()
    for s in m["rank"]:
        assert any(line.startswith(_latex(ts["systems"][s]) + " & ") for line in lines), s
    assert "a\\&b\\%c\\$d\\#e\\_f\\{g\\}h\\textasciitilde{}i\\textasciicircum{}j" \
           "\\textbackslash{}k" in latex
    assert "</script>" not in latex and "\u202e" not in latex and "\0" not in latex
    rows = list(csv.reader(io.StringIO(
        browser.execute_script("return window.__cybleu.exportText('pair-matrix', 'csv')"))))
    order = m["rank"]
    assert rows[0][2:] == [("'" if ts["systems"][s].startswith("=") else "") + ts["systems"][s]
                           for s in order]
    for row, r in zip(rows[1:], order):
        assert float(row[1]) == m["corpus"][r]["score"]
        for cell, c in zip(row[2:], order):
            assert (cell == "") if r == c else float(cell) == m["holm_p"][r][c]
    # the other tables
    for view, table in (("anatomy", "anatomy-table"), ("buckets", "bucket-length-table"),
                        ("buckets", "bucket-score-table"), ("buckets", "bucket-wordf-table"),
                        ("ngrams", "ngrams-better"), ("ngrams", "ngrams-worse")):
        browser.execute_script(f"window.__cybleu.go('{view}')")
        text = browser.execute_script(f"return window.__cybleu.exportText('{table}', 'latex')")
        assert "\\toprule" in text and "</script>" not in text, table
        rows = list(csv.reader(io.StringIO(browser.execute_script(
            f"return window.__cybleu.exportText('{table}', 'csv')"))))
        assert len(rows) > 1, table
    # the anatomy's numbers in full
    browser.execute_script("window.__cybleu.go('anatomy')")
    rows = list(csv.reader(io.StringIO(browser.execute_script(
        "return window.__cybleu.exportText('anatomy-table', 'csv')"))))
    for row, s in zip(rows[1:], m["rank"]):
        an = m["anatomy"][s]
        assert [float(x) for x in row[1:]] == [an["score"], *an["precisions"], an["bp"],
                                               an["ratio"], an["sys_len"], an["ref_len"]]
    # the segment list, as filtered: every text in full, the scores Python computed
    browser.execute_script("window.__cybleu.go('compare')")
    browser.execute_script("var s = window.__cybleu.state; s.q = 'the'; "
                           "window.__cybleu.refreshRows()")
    state = browser.execute_script("return window.__cybleu.state")
    order = browser.execute_script("return Array.from(window.__cybleu.order())")
    assert 0 < len(order) < 80
    sa = sentence(header, arrays, 0, state["cmpMetric"], state["a"])
    sb = sentence(header, arrays, 0, state["cmpMetric"], state["b"])
    names = list(named)
    for fmt, sep in (("csv", ","), ("tsv", "\t")):
        text = browser.execute_script(f"return window.__cybleu.exportText('segments', '{fmt}')")
        rows = list(csv.reader(io.StringIO(text), delimiter=sep))
        assert rows[0][:2] == ["segment", "ref_len"] and len(rows) == len(order) + 1
        for row, i in zip(rows[1:], order):
            assert int(row[0]) == i + 1
            assert float(row[2]) == sa[i] and float(row[3]) == sb[i]
            assert float(row[4]) == sb[i] - sa[i]
            assert row[5:] == [f"src {i}", refs[i], named[names[state["a"]]][i],
                               named[names[state["b"]]][i]]


def test_a_click_on_an_ngram_lists_its_segments(browser, demo_page, artifacts):
    from selenium.webdriver.common.by import By
    header, arrays = demo_page["header"], demo_page["arrays"]
    ng = header["sets"][0]["ngrams"]
    _open(browser, demo_page["path"], "ngrams")
    state = browser.execute_script("return window.__cybleu.state")
    a, b = sorted((state["a"], state["b"]))
    first = ng["pairs"][f"{a},{b}"][0][0 if state["a"] < state["b"] else 1][0]
    text = ng["grams"][first[0]][0]
    row = browser.find_element(By.CSS_SELECTOR, "#ngrams-better tbody tr")
    assert row.find_element(By.CSS_SELECTOR, "td").text == text
    _shot(browser, artifacts, "ngrams-ranked")
    row.click()
    time.sleep(0.3)
    assert browser.execute_script("return window.__cybleu.state.view") == "compare"
    want = arrays[ng["segments"]][first[3]:first[3] + first[4]].tolist()
    assert sorted(browser.execute_script("return Array.from(window.__cybleu.order())")) == want
    chip = browser.find_element(By.ID, "seg-filter")
    assert text in chip.text and f"{len(want)} segment" in chip.text
    assert browser.find_element(By.ID, "row-count").text.startswith(f"{len(want)} of 500")
    _shot(browser, artifacts, "ngrams-clicked-compare")
    chip.find_element(By.CSS_SELECTOR, "button").click()
    time.sleep(0.3)
    assert len(browser.execute_script("return Array.from(window.__cybleu.order())")) == 500


def test_one_system_has_no_pickers_and_no_matrix(browser, tmp_path, artifacts):
    refs, systems = demo(1, 60)
    path = tmp_path / "one.html"
    cybleu.report(refs, systems).save(path)
    _open(browser, str(path))
    text = browser.find_element("id", "view-overview").text
    assert "matrix" not in text and "Every pair" not in text
    assert "1 system." in text or "1 system," in text
    for view in ("compare", "buckets", "ngrams"):
        browser.execute_script(f"window.__cybleu.go('{view}')")
        assert browser.execute_script(
            f"return document.querySelectorAll('#view-{view} select').length") == 0, view
    browser.execute_script("window.__cybleu.go('compare')")
    assert "one system" in browser.find_element("id", "one-system").text
    browser.execute_script("window.__cybleu.go('buckets')")
    assert browser.execute_script(
        "return document.querySelectorAll('#bucket-length circle').length") > 0
    _shot(browser, artifacts, "one-system-buckets")


def test_the_page_says_when_the_tokenization_does_not_suit(browser, tmp_path, artifacts):
    d = data_path("wmt", "wmt22", "en-zh")
    refs = read_lines(d / "ref.A.txt")[:200]
    systems = {n: read_lines(d / "sys" / f"{n}.txt")[:200] for n in ("DLUT", "GTCOM")}
    path = tmp_path / "zh.html"
    cybleu.report(refs, systems).save(path)
    _open(browser, str(path))
    notes = browser.execute_script(
        "return Array.from(document.querySelectorAll('#view-overview .note-tok'))"
        ".map(p => p.textContent)")
    assert len(notes) == 2                                # BLEU's tokenizer, TER's
    assert "-l SRC-zh" in notes[0] and 'language_pair="SRC-zh"' in notes[0]
    assert "--ter-normalized --ter-asian-support" in notes[1]
    _shot(browser, artifacts, "zh-13a-overview")


def test_a_notebook_page_says_it_left_out_the_segments(browser, tmp_path):
    from cybleu._report import notebook
    refs, systems = demo(3, 300)
    rep = cybleu.report(refs, systems, notebook_limit=150_000)
    block = notebook.report_html(rep, rep.notebook_limit)
    inner = html.unescape(re.search(r'srcdoc="([^"]*)"', block)[1])
    path = tmp_path / "light.html"
    path.write_text(inner, encoding="utf-8")
    _open(browser, str(path))
    note = browser.find_element("css selector", "#view-overview .light-note").text
    assert "Segments left out." in note and "report.notebook_limit" in note
    browser.execute_script("window.__cybleu.go('compare')")
    assert "report.notebook_limit" in browser.find_element("id", "view-compare").text


def test_a_metric_from_outside_and_external_scores(browser, tmp_path, artifacts):
    """A metric registered by the user (tests/protocol_metrics.py, a segment-mean one) and
    per-segment scores from elsewhere (lower is better) are metrics like the others: in the
    overview with their intervals and p-values, and in the two-system view, where the rows sort,
    filter and colour by them. No interpretation bands for a scale without any."""
    from selenium.webdriver.common.by import By

    import cybleu.metrics
    from protocol_metrics import Overlap
    refs, systems = demo(3, 300)
    names = list(systems)
    rng = np.random.default_rng(0)
    errors = {n: (rng.normal(3.0, 1.0, len(refs)) - k).tolist() for k, n in enumerate(names)}
    cybleu.metrics.register("overlap", Overlap)
    try:
        rep = cybleu.report(refs, systems, metrics=["overlap"], n_samples=200,
                            scores={"MetricX:lower": errors})
    finally:
        cybleu.metrics.unregister("overlap")
    path = tmp_path / "protocol.html"
    rep.save(path)
    _, header, arrays = page_data(path.read_text(encoding="utf-8"))
    ts = header["sets"][0]
    logs, requests = _open(browser, str(path))
    assert [e for e in logs if e["level"] in ("SEVERE", "WARNING")] == []
    heads = browser.execute_script(
        "return Array.from(document.querySelectorAll('#overview-table thead th'))"
        ".map(th => th.textContent)")
    assert "Overlap" in heads and "MetricX \u2193" in heads
    cells = browser.execute_script(
        "return Array.from(document.querySelectorAll('#overview-table tbody tr'))"
        ".map(tr => [+tr.getAttribute('data-system'),"
        " Array.from(tr.querySelectorAll('td.score')).map(td => td.textContent)])")
    metricx = ts["metrics"][1]
    for s, scores in cells:
        assert scores[1] == f"{metricx['corpus'][s]['score']:.{metricx['digits']}f}"
    _shot(browser, artifacts, "protocol-overview")
    browser.execute_script("window.__cybleu.go('interpretation')")
    assert browser.execute_script("return document.querySelectorAll('#bands-chart').length") == 0
    assert "No metric of this report has interpretation bands" in \
        browser.find_element(By.ID, "view-interpretation").text
    # the two-system view by MetricX (lower is better): sorted, filtered and coloured by it
    browser.execute_script("window.__cybleu.go('compare')")
    buttons = browser.find_elements(By.CSS_SELECTOR, "#view-compare .seg-buttons .btn")
    next(b for b in buttons if b.text == "MetricX").click()
    time.sleep(0.3)
    state = browser.execute_script("return window.__cybleu.state")
    assert state["cmpMetric"] == 1
    sa = sentence(header, arrays, 0, 1, state["a"])
    sb = sentence(header, arrays, 0, 1, state["b"])
    delta = sb - sa
    n = ts["n_segments"]
    rows = _rows(browser)
    assert rows == _expected_order(delta, list(range(n)), True)[:len(rows)]
    first = browser.find_element(By.CSS_SELECTOR, f"#seg-table .vt-row[data-seg='{rows[0]}']")
    # B's score higher than A's is worse when lower is better: the difference is in red
    assert "neg" in first.find_elements(By.CSS_SELECTOR, "div")[4].get_attribute("class")
    lo = browser.find_element(By.ID, "range-lo")
    lo.send_keys("1")
    time.sleep(0.5)
    want = [i for i in range(n) if delta[i] >= 1]
    assert browser.find_element(By.ID, "row-count").text == f"{len(want)} of {n} segments"
    _shot(browser, artifacts, "protocol-compare")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def _rouge_lcs_pairs(theirs, ref_tokens, hyp_tokens):
    """(reference, hypothesis) positions of the LCS rouge-score's _backtrack_norec reads out of
    its _lcs_table (its moves, the column recorded too)."""
    table = theirs._lcs_table(ref_tokens, hyp_tokens)
    i, j, out = len(ref_tokens), len(hyp_tokens), []
    while i > 0 and j > 0:
        if ref_tokens[i - 1] == hyp_tokens[j - 1]:
            out.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
    out.reverse()
    assert [r for r, _ in out] == theirs._backtrack_norec(table, ref_tokens, hyp_tokens)
    return out


def _as_count(x):
    """A number as the page writes a segment's statistic (report.js's count())."""
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,.2f}"


def test_two_system_view_marks_rouge_l_lcs(browser, tmp_path, artifacts):
    """ROUGE in the two-system view: a selected segment shows its ROUGE-L P, R and F (rouge-score's)
    and, for each hypothesis, rouge-score's tokens of it and of the reference with the LCS
    rouge-score reads out marked on both; text stays text."""
    from selenium.webdriver.common.by import By
    theirs = pytest.importorskip("rouge_score.rouge_scorer", reason="rouge-score (the oracle) "
                                 "is not installed: pip install rouge-score==0.1.2")
    from rouge_score import tokenizers

    from rouge_data import english_lines
    ref, hyp, other = english_lines()
    n = 40
    refs, a, b = ref[:n], hyp[:n], other[:n]
    b[1] = "<img src=x onerror=\"window.__pwned=1\"> The results of students were open."
    systems = {"base": a, "<b>sys</b>": b}
    rep = cybleu.report(refs, systems, metrics=["bleu", "rouge"], n_samples=50)
    path = tmp_path / "rouge.html"
    rep.save(path)
    logs, requests = _open(browser, str(path), "compare")
    assert [e for e in logs if e["level"] in ("SEVERE", "WARNING")] == []
    assert _network(requests, f"file://{path}") == []
    scorer = theirs.RougeScorer(["rougeL"])
    tokenize = tokenizers.DefaultTokenizer().tokenize
    state = browser.execute_script("return window.__cybleu.state")
    names = list(systems)
    for seg in (0, 1, 3):
        rows = {int(r.get_attribute("data-seg")): r
                for r in browser.find_elements(By.CSS_SELECTOR, "#seg-table .vt-row")
                if r.is_displayed()}
        if seg in rows:
            browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", rows[seg])
            rows[seg].click()
        else:
            browser.execute_script(f"window.__cybleu.select({seg})")
        for side, s in (("a", state["a"]), ("b", state["b"])):
            h_text, r_text = systems[names[s]][seg], refs[seg]
            p, r, f = scorer.score(r_text, h_text)["rougeL"]
            table = browser.execute_script(
                f"var t = Array.from(document.querySelectorAll('#detail-{side} table.segstats'))"
                ".find(t => t.querySelector('th').textContent === 'ROUGE');"
                "return [Array.from(t.querySelectorAll('thead th')).map(x => x.textContent),"
                " Array.from(t.querySelectorAll('tbody td')).map(x => x.textContent)]")
            cells = dict(zip(table[0], table[1]))
            assert [cells["L P"], cells["L R"], cells["L F"]] == \
                [_as_count(100 * v) for v in (p, r, f)], (seg, side)
            h, rt = tokenize(h_text), tokenize(r_text)
            pairs = _rouge_lcs_pairs(theirs, rt, h)
            shown = browser.execute_script(
                f"return ['h', 'r'].map(k => Array.from(document.querySelectorAll("
                f"'#detail-{side} dd.align .align-row.' + k + ' .tok'))"
                ".map(t => [t.textContent, t.classList.contains('lcs')]))")
            assert shown[0] == [[t, k in {q for _, q in pairs}] for k, t in enumerate(h)]
            assert shown[1] == [[t, k in {q for q, _ in pairs}] for k, t in enumerate(rt)]
            assert [t for t, on in shown[0] if on] == [t for t, on in shown[1] if on]
            assert browser.execute_script("return typeof window.__pwned") == "undefined"
        if seg == 1:
            browser.execute_script("document.getElementById('seg-detail').scrollIntoView()")
            _shot(browser, artifacts, "rouge-compare-lcs")
    assert browser.execute_script(
        "return document.querySelectorAll('#seg-detail img, #seg-detail [onerror]').length") == 0
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
