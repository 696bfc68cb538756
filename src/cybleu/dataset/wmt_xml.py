"""sacreBLEU's `WMTXMLDataset`: WMT 2021 and later, every field of a pair in one XML file.

Read with the standard library's ElementTree (sacreBLEU uses lxml; the fields are the same)."""
import os

from .base import Dataset, TestSetError, _missing, _write_text

__all__ = ["WMTXMLDataset"]


def _get_field_by_translator(translator):
    return "ref" if not translator else f"ref:{translator}"


class WMTXMLDataset(Dataset):
    """The XML format of WMT 2021 and later (sacreBLEU 2.6.0's `WMTXMLDataset`): one file per
    pair holds every field: `src`, one `ref:<translator>` per translator (`ref` when unnamed),
    `docid`, `origlang`, one field per system, and `domain` when the documents have one. The
    references scored against are the registry's `refs` (of the pair, else of the test set).

    A toy test set of this format in a temporary cache:

    >>> import os, tempfile
    >>> from unittest import mock
    >>> from cybleu.dataset import WMTXMLDataset
    >>> toy = WMTXMLDataset("toy", langpairs={"en-de": ["toy.en-de.xml"]}, refs=["A"])
    >>> xml = ('<dataset><collection><doc id="d1" origlang="en">'
    ...        '<src lang="en"><p><seg id="1">Hello world!</seg></p></src>'
    ...        '<ref lang="de" translator="A"><p><seg id="1">Hallo Welt!</seg></p></ref>'
    ...        '<hyp system="sys1"><p><seg id="1">Hallo, Welt!</seg></p></hyp>'
    ...        '</doc></collection></dataset>')
    >>> with tempfile.TemporaryDirectory() as cache, mock.patch.dict(os.environ, SACREBLEU=cache):
    ...     os.makedirs(toy.rawdir)
    ...     with open(os.path.join(toy.rawdir, "toy.en-de.xml"), "w", encoding="utf-8") as out:
    ...         _ = out.write(xml)
    ...     print(toy.fieldnames("en-de"))
    ...     print([os.path.basename(path) for path in toy.get_reference_files("en-de")])
    ...     print(list(toy.references("en-de")))
    ['src', 'ref:A', 'docid', 'origlang', 'sys1']
    ['toy.en-de.ref-A']
    [('Hallo Welt!\\n',)]
    """

    @staticmethod
    def _unwrap_wmt21_or_later(raw_file):
        """{field: one value per segment} of a WMT21+ XML file (a path or an open file), as
        sacreBLEU lists them: src, the references, docid, origlang, the systems' outputs, domain.

        Translators come in the order of iterating a Python set, as in sacreBLEU (the same order
        for the same PYTHONHASHSEED)."""
        return _unwrap_xml(raw_file)

    def _get_langpair_path(self, langpair):
        """The pair's XML file under raw/ (the registry entry is a list, or a dict with 'path'
        and the pair's preferred 'refs')."""
        langpair_data = self._get_langpair_metadata(langpair)[langpair]
        rel_path = langpair_data["path"] if isinstance(langpair_data, dict) else langpair_data[0]
        return self._raw_path(rel_path)

    def _raw_inputs(self, langpair):
        return [self._get_langpair_path(langpair)]

    def _existing_raw(self, langpair):
        path = self._get_langpair_path(langpair)
        if not os.path.exists(path):
            raise _missing(path, self.name, langpair)
        return path

    def process_to_text(self, langpair=None):
        """Write the text file of every field of the pair that is not there yet (or is empty)
        from the pair's raw XML file, each line cleaned of extra whitespace, as sacreBLEU does.

        :param langpair: One of the test set's language pairs, or None for all of them.
        :raises TestSetError: An unknown language pair, or a raw file missing from the cache or
            not readable as XML.
        """
        for pair in sorted(self._get_langpair_metadata(langpair)):
            fields = _unwrap_xml(self._existing_raw(pair))
            for fieldname, values in fields.items():
                textfile = self._get_txt_file_path(pair, fieldname)
                if os.path.exists(textfile) and os.path.getsize(textfile) > 0:
                    continue
                _write_text(textfile, [self._clean(line) for line in values])

    def _get_langpair_allowed_refs(self, langpair):
        """The reference fields scored against: the pair's `refs`, else the test set's, else
        none ('' in the registry stands for the unnamed translator, field 'ref')."""
        defaults = self.kwargs.get("refs", [])
        langpair_data = self._get_langpair_metadata(langpair)[langpair]
        allowed = langpair_data.get("refs", defaults) if isinstance(langpair_data, dict) \
            else defaults
        return [_get_field_by_translator(ref) for ref in allowed]

    def get_reference_files(self, langpair):
        """The text files of the references scored against: the translators of the registry's
        `refs` (of the pair, else of the test set). When they are all in the cache already,
        the raw XML is not read.

        :param langpair: One of the test set's language pairs.
        :returns: Their paths.
        :raises TestSetError: An unknown language pair, or a file missing from the cache
            together with the raw XML file.
        """
        allowed = self._get_langpair_allowed_refs(langpair)
        files = [self._get_txt_file_path(langpair, field) for field in allowed]
        if all(os.path.exists(path) for path in files):
            return files
        return self._field_files(langpair, lambda field: field in allowed)

    def fieldnames(self, langpair):
        """The fields of the pair, read from its raw XML file (which must be in the cache).

        :param langpair: One of the test set's language pairs.
        :returns: The field names, in the order of the class description.
        :raises TestSetError: An unknown language pair, or the raw XML file missing from the
            cache or not readable.
        """
        return list(_unwrap_xml(self._existing_raw(langpair), fields_only=True))


def _unwrap_xml(raw_file, fields_only=False):
    """The fields of a WMT21+ XML file, as sacreBLEU's `_unwrap_wmt21_or_later` lists them:
    src, one `ref:<translator>` per translator (`ref` when unnamed), docid, origlang, one field
    per system, then domain when present. With `fields_only`, only the names (values empty).

    Translators come in the order of iterating a Python set, as in sacreBLEU."""
    from xml.etree import ElementTree
    try:
        root = ElementTree.parse(raw_file).getroot()
    except (ElementTree.ParseError, OSError) as err:
        raise TestSetError(f"cannot read {raw_file}: {err}") from None
    src_langs = {doc.get("lang") for doc in root.iter("src")}
    ref_langs = set()
    # sacreBLEU iterates a Python set of translators: the same order here for the same
    # PYTHONHASHSEED (it varies between runs otherwise, for two or more translators)
    translators = set()
    for ref_doc in root.iter("ref"):
        ref_langs.add(ref_doc.get("lang"))
        translators.add(ref_doc.get("translator"))
    if len(src_langs) != 1:
        raise TestSetError(f"Multiple source languages found in the file: {raw_file}")
    if len(ref_langs) != 1:
        raise TestSetError(f"Found {len(ref_langs)} reference languages found in the file: "
                           f"{raw_file}")

    src, docids, origlangs, domains = [], [], [], []
    refs = {_get_field_by_translator(t): [] for t in translators}
    systems = {}
    seen_domain = False
    for doc in root.iter("doc"):
        if "testsuite" in doc.attrib:
            continue
        src_sents = {int(seg.get("id")): seg.text for seg in doc.findall(".//src//seg")}

        def sents(node):
            return {int(seg.get("id")): seg.text if seg.text else "" for seg in node.iter("seg")}

        trans_to_ref = {r.get("translator"): sents(r) for r in doc.findall(".//ref")}
        hyps = {h.get("system"): sents(h) for h in doc.findall(".//hyp")}
        for name in hyps:
            systems.setdefault(name, [])
        for seg_id in sorted(src_sents):
            if not any(value.get(seg_id, "") for value in trans_to_ref.values()):
                continue
            for t in translators:
                refs[_get_field_by_translator(t)].append(trans_to_ref.get(t, {}).get(seg_id, ""))
            src.append(src_sents[seg_id])
            for name in hyps:
                systems[name].append(hyps[name][seg_id])
            docids.append(doc.attrib["id"])
            origlangs.append(doc.attrib["origlang"])
            domains.append(doc.get("domain"))
            seen_domain = doc.get("domain") is not None
    fields = {"src": src, **refs, "docid": docids, "origlang": origlangs, **systems}
    if seen_domain:
        fields["domain"] = domains
    return fields
