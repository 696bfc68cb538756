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
