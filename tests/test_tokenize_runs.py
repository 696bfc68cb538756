"""13a and none on every short line over the characters their rules react to, in each of CPython's
three string layouts (1, 2 and 4 bytes per code point), against sacreBLEU 2.6.0.

The compiled tokenizer reads a str's own storage and splits a line at whitespace and symbols into
runs that it rewrites one at a time; these lines put digits, '.', ',', '-', symbols, entities and
every kind of whitespace next to each other in every order, so each case of the rules (and of
their left-to-right, non-overlapping matching) meets each neighbour, on all three layouts."""
import itertools

import pytest
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from cybleu._backend import core

_call = type(Tokenizer13a()).__call__.__wrapped__
_T13A = Tokenizer13a()

# a letter, a digit, the three rule characters, a symbol, whitespace (ASCII, Latin-1, wide)
ALPHABET = "a1.,-$ \xa0"
RARE = "&;<\n"        # the language-independent part: entities, <skipped>, newlines
# a suffix (after a space) that makes the line's storage 1, 2 or 4 bytes wide
LAYOUTS = {"1-byte": "", "2-byte": " \u0100", "4-byte": " \U0001f600"}


def _oracle(line, name):
    return _call(_T13A, line) if name == "13a" else " ".join(line.split())


def _lines(alphabet, max_len):
    for n in range(1, max_len + 1):
        for chars in itertools.product(alphabet, repeat=n):
            yield "".join(chars)


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("name", ["13a", "none"])
def test_every_short_line(name, layout):
    suffix = LAYOUTS[layout]
    bad = []
    for line in _lines(ALPHABET, 5):
        line += suffix
        if core.tokenize(line, name) != _oracle(line, name):
            bad.append(line)
            if len(bad) > 5:
                break
    assert not bad, [(b, core.tokenize(b, name), _oracle(b, name)) for b in bad]


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_rule_characters_in_long_runs(layout):
    """Runs of up to 7 characters of digits, '.', ',', '-' and a letter: the chains of matches
    whose left-to-right order decides which character each rule takes."""
    suffix = LAYOUTS[layout]
    for line in _lines("a1.,-", 7):
        line += suffix
        assert core.tokenize(line, "13a") == _oracle(line, "13a"), line


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_entities_newlines_and_skipped(layout):
    """Lines that need 13a's language-independent part (rewritten first, then tokenized)."""
    suffix = LAYOUTS[layout]
    for line in _lines(RARE + "a1.-", 4):
        for text in (line, line + "<skipped>", "&amp;" + line, line + "&quot;x", "a-\n" + line):
            text += suffix
            assert core.tokenize(text, "13a") == _oracle(text, "13a"), text
