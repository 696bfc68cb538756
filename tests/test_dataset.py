"""cybleu.dataset against sacreBLEU 2.6.0's test-set surface: the names (top level, the `dataset`
package, its submodules and classes), the registry, and what the classes read and extract from a
local cache, file for file. sacreBLEU runs in a subprocess with its own copy of the same cache
(it fixes $SACREBLEU when imported, and would download what is missing: every archive is there,
so it does not). Plus what cybleu does differently on purpose: it never downloads (a clear error
names the missing file), and it checks test-set and language-pair names before they become
paths."""
import importlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
from xml.sax.saxutils import escape

import pytest
import sacrebleu

import cybleu
import cybleu.dataset as cds
from cybleu.dataset import DATASETS, TestSetError

TOP_LEVEL = ["DATASETS", "SACREBLEU_DIR", "download_test_set", "get_available_testsets",
             "get_langpairs_for_testset", "get_reference_files", "get_source_file", "smart_open"]
SUBMODULES = {"base": ["Dataset"], "fake_sgml": ["FakeSGMLDataset", "WMTAdditionDataset"],
              "iwslt_xml": ["IWSLTXMLDataset"], "plain_text": ["PlainTextDataset"],
              "tsv": ["TSVDataset"], "wmt_xml": ["WMTXMLDataset"]}
METHODS = ["source", "references", "maybe_download", "process_to_text", "fieldnames",
           "get_files", "get_source_file", "get_reference_files", "_get_txt_file_path",
           "_get_langpair_metadata", "_get_tarball_filename", "_clean", "__iter__"]


def test_top_level_names_as_sacrebleu():
    """lm-evaluation-harness 0.3 builds its task registry from these at import time."""
    for name in TOP_LEVEL:
        assert name in sacrebleu.__all__ and name in cybleu.__all__, name
        assert hasattr(cybleu, name), name
    assert cybleu.get_available_testsets() == sacrebleu.get_available_testsets()
    for name in sacrebleu.get_available_testsets():
        assert cybleu.get_langpairs_for_testset(name) == \
            sacrebleu.get_langpairs_for_testset(name)
    assert cybleu.get_langpairs_for_testset("no-such-set") == [] == \
        sacrebleu.get_langpairs_for_testset("no-such-set")
    assert cybleu.SACREBLEU_DIR == sacrebleu.SACREBLEU_DIR


def test_sacrebleu_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    assert cybleu.SACREBLEU_DIR == str(tmp_path) == cds.SACREBLEU_DIR


def test_dataset_package_submodules_and_classes_as_sacrebleu():
    for module, classes in SUBMODULES.items():
        ours = importlib.import_module(f"cybleu.dataset.{module}")
        theirs = importlib.import_module(f"sacrebleu.dataset.{module}")
        for cls in classes:
            assert hasattr(theirs, cls)
            assert issubclass(getattr(ours, cls), cds.Dataset)
            assert getattr(cds, cls) is getattr(ours, cls)
            for method in METHODS:
                assert callable(getattr(getattr(ours, cls), method)), (cls, method)
    assert dict(cds._SUBSETS) == dict(sacrebleu.dataset._SUBSETS)


def test_registry_as_sacrebleu():
    assert list(DATASETS) == list(sacrebleu.DATASETS)
    for name, theirs in sacrebleu.DATASETS.items():
        ours = DATASETS[name]
        assert type(ours).__name__ == type(theirs).__name__
        for attr in ("name", "description", "citation", "md5", "langpairs", "kwargs"):
            assert getattr(ours, attr) == getattr(theirs, attr), (name, attr)
        assert list(ours.data or []) == list(theirs.data or [])
        for url in theirs.data or []:
            assert ours._get_tarball_filename(url) == theirs._get_tarball_filename(url)


def test_dataset_dump_as_sacrebleu():
    ours = subprocess.run([sys.executable, "-m", "cybleu.dataset", "--dump"],
                          capture_output=True, text=True, timeout=120)
    theirs = subprocess.run([sys.executable, "-m", "sacrebleu.dataset", "--dump"],
                            capture_output=True, text=True, timeout=120)
    assert ours.returncode == theirs.returncode == 0
    assert ours.stdout == theirs.stdout


# -- a local cache with raw files of every format ------------------------------------------------

# (test set, language pair): one of each format sacreBLEU 2.6.0 has
CASES = [("wmt17", "en-de"), ("wmt20/tworefs", "de-en"), ("wmt19/google/ar", "en-de"),
         ("iwslt17", "en-fr"), ("multi30k/2016", "en-de"), ("mtnt2019", "en-fr"),
         ("wmt22", "en-de")]

LINES = ["A first  line, with   spaces.", "  tabs\tinside\t ", "&amp; entities &lt;kept&gt;",
         "", "ünïcödé — “quotes” …", "last line"]


def _sgml(lines, side, origlang="en"):
    out = [f'<{side}set setid="x" srclang="any">']
    for d in range(2):
        out.append(f'<doc sysid="ref" docid="doc{d}" genre="news" origlang="{origlang}">')
        out += [f'<seg id="{i + 1}">{line}</seg>' for i, line in enumerate(lines)]
        out.append("</doc>")
    out.append(f"</{side}set>")
    return out


def _wmt_xml(n_lines):
    xml = ['<?xml version="1.0" encoding="utf-8"?>', '<dataset id="x">', '<collection id="g">']
    for k in range(2):
        xml.append(f'<doc id="doc{k}" origlang="{"de" if k else "en"}" domain="news">')
        for tag, attrs, text in (("src", 'lang="en"', "src"),
                                 ("ref", 'lang="de" translator="A"', "refA"),
                                 ("ref", 'lang="de" translator="B"', "refB"),
                                 ("hyp", 'system="sys1" language="de"', "hyp")):
            xml.append(f"<{tag} {attrs}><p>")
            xml += [f'<seg id="{i + 1}">{escape(text)} {k} {i}  {escape(LINES[i % 6])}</seg>'
                    for i in range(n_lines)]
            xml.append(f"</{tag}>".replace(f"</{tag}>", f"</p></{tag}>"))
        xml.append("</doc>")
    return xml + ["</collection>", "</dataset>"]


def _write(path, lines):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


def _build_raw(root, name, pair):
    """The raw files (and stand-ins for the downloaded archives) sacreBLEU would have."""
    ds = sacrebleu.DATASETS[name]
    rawdir = os.path.join(root, name, "raw")
    for url in ds.data:
        tarball = os.path.join(rawdir, ds._get_tarball_filename(url))
        if not os.path.exists(tarball):
            os.makedirs(rawdir, exist_ok=True)
            with open(tarball, "wb") as f:
                f.write(b"stands in for the downloaded archive")
    meta = ds.langpairs[pair]
    kind = type(ds).__name__
    if kind == "WMTXMLDataset":
        _write(os.path.join(rawdir, meta["path"] if isinstance(meta, dict) else meta[0]),
               _wmt_xml(6))
        return
    for k, entry in enumerate(meta):
        if kind == "TSVDataset":
            entry = entry.split(":")[1]
            rows = [f"id{i}\t{i}\t{line}\tréf {line}" for i, line in enumerate(LINES)]
            _write(os.path.join(rawdir, entry), rows)
        elif entry.endswith((".sgm", ".xml")):
            side = "src" if k == 0 else "ref"
            _write(os.path.join(rawdir, entry), _sgml([f"{side}{k} {x}" for x in LINES], side))
        else:
            _write(os.path.join(rawdir, entry), [f"{k}: {x}  " for x in LINES])


PROBE = textwrap.dedent('''
    import json, os, sys
    from {package}.dataset import DATASETS

    def read(path):
        with open(path, encoding="utf-8", newline="") as f:
            return f.read()

    root = os.environ["SACREBLEU"]
    out = {{}}
    for name, pair in json.loads(sys.argv[1]):
        ds = DATASETS[name]
        files = ds.get_files(pair)
        out[name] = {{
            "fieldnames": ds.fieldnames(pair),
            "files": [os.path.relpath(f, root) for f in files],
            "contents": [read(f) for f in files],
            "source_file": os.path.relpath(ds.get_source_file(pair), root),
            "reference_files": [os.path.relpath(f, root) for f in ds.get_reference_files(pair)],
            "source": list(ds.source(pair)),
            "references": [list(r) for r in ds.references(pair)],
        }}
    print(json.dumps(out))
''')


def _read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def _probe(package, root):
    # one PYTHONHASHSEED for both: an XML test set's translators come in a Python set's order
    env = dict(os.environ, SACREBLEU=root, PYTHONHASHSEED="0")
    proc = subprocess.run([sys.executable, "-c", PROBE.format(package=package),
                           json.dumps(CASES)], capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def caches(tmp_path_factory):
    """Two identical caches holding only raw files: sacreBLEU extracts the text fields in one,
    cybleu in the other."""
    theirs = str(tmp_path_factory.mktemp("sacrebleu-cache"))
    for name, pair in CASES:
        _build_raw(theirs, name, pair)
    ours = str(tmp_path_factory.mktemp("cybleu-cache"))
    shutil.rmtree(ours)
    shutil.copytree(theirs, ours)
    return ours, _probe("cybleu", ours), _probe("sacrebleu", theirs)


@pytest.mark.parametrize("name,pair", CASES)
def test_fields_extracted_and_read_as_sacrebleu(caches, name, pair):
    root, ours, theirs = caches
    assert ours[name] == theirs[name]
    # extraction writes through temporary files renamed into place: none is left over
    assert not [f for f in os.listdir(os.path.join(root, name)) if f.startswith(".cybleu-")]


def test_wmt_xml_fields_as_sacrebleu(caches):
    """The WMT22 XML: two translators, a system, a domain."""
    _, ours, theirs = caches
    assert {"src", "ref:A", "ref:B", "docid", "origlang", "sys1", "domain"} == \
        set(ours["wmt22"]["fieldnames"]) == set(theirs["wmt22"]["fieldnames"])


def test_process_to_text_writes_what_sacrebleu_writes(caches, monkeypatch, tmp_path):
    """process_to_text() called directly, for every pair of a test set whose raw files are
    there (the pairs whose raw files are missing name them)."""
    root, _, theirs = caches
    fresh = str(tmp_path / "cache")
    shutil.copytree(os.path.join(root, "wmt17", "raw"), os.path.join(fresh, "wmt17", "raw"))
    monkeypatch.setenv("SACREBLEU", fresh)
    DATASETS["wmt17"].process_to_text("en-de")
    files = DATASETS["wmt17"].get_files("en-de")
    assert [_read(f) for f in files] == theirs["wmt17"]["contents"]
    with pytest.raises(TestSetError, match=r"newstest2017-csen-src\.cs\.sgm is missing"):
        DATASETS["wmt17"].process_to_text()


# -- never downloads; names checked -------------------------------------------------------------

def test_a_missing_file_is_an_error_naming_it(monkeypatch, tmp_path):
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    with pytest.raises(TestSetError, match=r"wmt17/wmt17\.en-de\.src is missing, and so is the "
                                           r"raw file .*newstest2017-ende-src\.en\.sgm.*never "
                                           r"downloads.*sacrebleu -t wmt17 -l en-de"):
        cybleu.get_source_file("wmt17", "en-de")
    with pytest.raises(TestSetError, match=r"wmt17\.en-de\.ref is missing"):
        cybleu.get_reference_files("wmt17", "en-de")
    with pytest.raises(TestSetError, match=r"raw/wmt17\.test\.tgz is missing.*never downloads"):
        DATASETS["wmt17"].maybe_download()
    with pytest.raises(TestSetError, match=r"is missing"):
        cybleu.download_test_set("wmt17", "en-de")
    with pytest.raises(TestSetError, match=r"is missing"):
        list(DATASETS["wmt17"].source("en-de"))
    assert os.listdir(tmp_path) == []      # nothing fetched, nothing written


@pytest.mark.parametrize("call", [
    lambda: cybleu.get_source_file("wmt17", "../../x#"),
    lambda: cybleu.get_reference_files("wmt17", "../../x#"),
    lambda: cds.get_files("wmt17", "../../x#"),
    lambda: cybleu.download_test_set("wmt17", "../x"),
    lambda: DATASETS["wmt17"].fieldnames("../../x#"),
    lambda: DATASETS["wmt17"]._get_txt_file_path("../../x#", "src"),
    lambda: DATASETS["wmt22"].get_source_file("en-de/../../../etc"),
    lambda: list(DATASETS["mtnt2019"].source("en-fr/..")),
])
def test_language_pairs_are_checked_before_they_become_paths(call, monkeypatch, tmp_path):
    """As the command line checks -l: no path with '..' is built, let alone opened."""
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "cache"))
    with pytest.raises(TestSetError, match=r"No such language pair .*; .* has: "):
        call()
    assert not os.path.exists(tmp_path / "x#") and not os.path.exists(tmp_path / "x")


def test_test_set_names_are_checked(monkeypatch, tmp_path):
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    for bad in ("../wmt17", "no-such-set", None):
        with pytest.raises(TestSetError, match="No such test set"):
            cybleu.get_source_file(bad, "en-de")
        with pytest.raises(TestSetError, match="No such test set"):
            cybleu.download_test_set(bad)


def test_no_path_leaves_the_cache_even_from_a_field_name(monkeypatch, tmp_path):
    """A field name comes from the raw XML (its translators): one that climbs out is refused."""
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    with pytest.raises(TestSetError, match="outside the test set's cache directory"):
        DATASETS["wmt22"]._get_txt_file_path("en-de", "../../../../etc/passwd")
    assert DATASETS["wmt22"]._get_txt_file_path("en-de", "ref:A").endswith("wmt22.en-de.ref-A")


def test_smart_open_as_sacrebleu(tmp_path):
    import gzip
    path = tmp_path / "a.txt.gz"
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write("a\r\nb\n")
    with cybleu.smart_open(str(path)) as ours, sacrebleu.smart_open(str(path)) as theirs:
        assert ours.read() == theirs.read() == "a\r\nb\n"
