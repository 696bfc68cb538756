"""Pure-Python twin of `porter.pyx`: the Porter stemmer as nltk 3.10.4's
`nltk.stem.porter.PorterStemmer()` runs it (its default mode, NLTK_EXTENSIONS, the one rouge-score
constructs), written out step by step. The readable specification of the compiled stemmer; the
tests hold both to nltk's output on every word of the shared data and on generated words.

A word is a string; `stem` lowercases it first, as nltk does. Letters other than a, e, i, o, u and
y are consonants (digits and any other character included); y is a consonant at the start of a
word or after a vowel, and a vowel after a consonant.
"""

__all__ = ["stem"]

_VOWELS = frozenset("aeiou")

# nltk's table of irregular forms (NLTK_EXTENSIONS): the word -> its stem, before any step runs
_IRREGULAR = {
    "sky": "sky", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie", "news": "news",
    "innings": "inning", "inning": "inning", "outings": "outing", "outing": "outing",
    "cannings": "canning", "canning": "canning", "howe": "howe", "proceed": "proceed",
    "exceed": "exceed", "succeed": "succeed",
}


def _consonants(word):
    """One flag per character: is it a consonant?"""
    flags = []
    for i, ch in enumerate(word):
        if ch in _VOWELS:
            flags.append(False)
        elif ch == "y":
            flags.append(i == 0 or not flags[i - 1])
        else:
            flags.append(True)
    return flags


def _is_consonant(word, i):
    return _consonants(word[:i + 1])[i]


def _measure(stem):
    """m in [C](VC){m}[V]: the number of vowel-consonant transitions."""
    flags = _consonants(stem)
    return sum(1 for a, b in zip(flags, flags[1:]) if not a and b)


def _has_vowel(stem):
    return not all(_consonants(stem))


def _double_consonant(word):
    """*d: the word ends in two equal consonants."""
    return len(word) >= 2 and word[-1] == word[-2] and _is_consonant(word, len(word) - 1)


def _cvc(word):
    """*o: the word ends consonant-vowel-consonant, the last not w, x or y; nltk also counts a
    two-letter vowel-consonant word."""
    if len(word) >= 3:
        if (_is_consonant(word, len(word) - 3) and not _is_consonant(word, len(word) - 2)
                and _is_consonant(word, len(word) - 1) and word[-1] not in "wxy"):
            return True
    return len(word) == 2 and not _is_consonant(word, 0) and _is_consonant(word, 1)


def _first_rule(word, rules):
    """The first rule whose suffix ends the word decides: its replacement when the condition on
    the remaining stem holds, else the word unchanged (no later rule is tried)."""
    for suffix, replacement, condition in rules:
        if word.endswith(suffix):
            stem = word[:len(word) - len(suffix)]
            return stem + replacement if condition is None or condition(stem) else word
    return word


def _positive(stem):
    return _measure(stem) > 0


def _above_one(stem):
    return _measure(stem) > 1


def _step1a(word):
    if word.endswith("ies") and len(word) == 4:
        return word[:-3] + "ie"
    return _first_rule(word, [("sses", "ss", None), ("ies", "i", None), ("ss", "ss", None),
                              ("s", "", None)])


def _step1b(word):
    if word.endswith("ied"):
        return word[:-3] + ("ie" if len(word) == 4 else "i")
    if word.endswith("eed"):
        stem = word[:-3]
        return stem + "ee" if _measure(stem) > 0 else word
    for suffix in ("ed", "ing"):
        if word.endswith(suffix) and _has_vowel(word[:-len(suffix)]):
            stem = word[:-len(suffix)]
            break
    else:
        return word
    for suffix, replacement in (("at", "ate"), ("bl", "ble"), ("iz", "ize")):
        if stem.endswith(suffix):
            return stem[:-len(suffix)] + replacement
    if _double_consonant(stem):
        return stem[:-1] if stem[-1] not in "lsz" else stem
    if _measure(stem) == 1 and _cvc(stem):
        return stem + "e"
    return stem


def _step1c(word):
    # y -> i after a consonant that is not the whole stem ('happy' -> 'happi', 'enjoy' stays)
    if word.endswith("y"):
        stem = word[:-1]
        if len(stem) > 1 and _is_consonant(stem, len(stem) - 1):
            return stem + "i"
    return word


def _step2(word):
    # nltk applies alli -> al first, and runs step 2 again on the result
    if word.endswith("alli") and _positive(word[:-4]):
        return _step2(word[:-4] + "al")
    rules = [
        ("ational", "ate", _positive), ("tional", "tion", _positive), ("enci", "ence", _positive),
        ("anci", "ance", _positive), ("izer", "ize", _positive), ("bli", "ble", _positive),
        ("alli", "al", _positive), ("entli", "ent", _positive), ("eli", "e", _positive),
        ("ousli", "ous", _positive), ("ization", "ize", _positive), ("ation", "ate", _positive),
        ("ator", "ate", _positive), ("alism", "al", _positive), ("iveness", "ive", _positive),
        ("fulness", "ful", _positive), ("ousness", "ous", _positive), ("aliti", "al", _positive),
        ("iviti", "ive", _positive), ("biliti", "ble", _positive), ("fulli", "ful", _positive),
        # logi -> log keeps the l in the stem whose measure is taken
        ("logi", "log", lambda stem: _positive(word[:-3])),
    ]
    return _first_rule(word, rules)


def _step3(word):
    return _first_rule(word, [("icate", "ic", _positive), ("ative", "", _positive),
                              ("alize", "al", _positive), ("iciti", "ic", _positive),
                              ("ical", "ic", _positive), ("ful", "", _positive),
                              ("ness", "", _positive)])


def _step4(word):
    rules = [(suffix, "", _above_one) for suffix in
             ("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent")]
    rules.append(("ion", "", lambda stem: _above_one(stem) and stem[-1:] in ("s", "t")))
    rules += [(suffix, "", _above_one) for suffix in
              ("ou", "ism", "ate", "iti", "ous", "ive", "ize")]
    return _first_rule(word, rules)


def _step5a(word):
    if word.endswith("e"):
        stem = word[:-1]
        m = _measure(stem)
        if m > 1 or (m == 1 and not _cvc(stem)):
            return stem
    return word


def _step5b(word):
    if word.endswith("ll") and _measure(word[:-1]) > 1:
        return word[:-1]
    return word


def stem(word, to_lowercase=True):
    """nltk's `PorterStemmer().stem(word, to_lowercase)` (NLTK_EXTENSIONS mode)."""
    if not isinstance(word, str):
        raise TypeError(f"the word to stem is {type(word).__name__}, not str")
    lowered = word.lower() if to_lowercase else word
    if lowered in _IRREGULAR:
        return _IRREGULAR[lowered]
    if len(word) <= 2:  # nltk measures the word as given, before lowercasing
        return lowered
    for step in (_step1a, _step1b, _step1c, _step2, _step3, _step4, _step5a, _step5b):
        lowered = step(lowered)
    return lowered
