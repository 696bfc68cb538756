"""The Porter stemmer (floor 1) as nltk 3.10.4's `PorterStemmer()` runs it (NLTK_EXTENSIONS), on
a word's code points, in place and without the GIL. The twin `porter_py.py` is the readable
specification, step by step; this is the same rules on a buffer. A word only ever shortens (each
rule that appends a letter first removed at least two), so the buffer needs no room beyond it.
"""
from cpython.mem cimport PyMem_RawMalloc, PyMem_RawFree
from libc.stdint cimport uint32_t

__all__ = ["stem"]

cdef extern from "Python.h":
    Py_UCS4* PyUnicode_AsUCS4(object u, Py_UCS4* buffer, Py_ssize_t buflen, int copy_null) except NULL
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)

cdef extern from *:
    """
    /* The rule tables: suffix, replacement, condition (0 none, 1 m > 0, 2 m > 1, 3 m > 1 and
       the stem ends in s or t, 4 m > 0 of the word minus its last three letters: logi). */
    typedef struct { const char* suffix; Py_ssize_t slen; const char* repl; Py_ssize_t rlen;
                     int cond; } cyb_porter_rule;
    #define CYB_R(s, r, c) {s, sizeof(s) - 1, r, sizeof(r) - 1, c}
    static const cyb_porter_rule CYB_STEP1A[4] = {
        CYB_R("sses", "ss", 0), CYB_R("ies", "i", 0), CYB_R("ss", "ss", 0), CYB_R("s", "", 0)};
    static const cyb_porter_rule CYB_STEP2[22] = {
        CYB_R("ational", "ate", 1), CYB_R("tional", "tion", 1), CYB_R("enci", "ence", 1),
        CYB_R("anci", "ance", 1), CYB_R("izer", "ize", 1), CYB_R("bli", "ble", 1),
        CYB_R("alli", "al", 1), CYB_R("entli", "ent", 1), CYB_R("eli", "e", 1),
        CYB_R("ousli", "ous", 1), CYB_R("ization", "ize", 1), CYB_R("ation", "ate", 1),
        CYB_R("ator", "ate", 1), CYB_R("alism", "al", 1), CYB_R("iveness", "ive", 1),
        CYB_R("fulness", "ful", 1), CYB_R("ousness", "ous", 1), CYB_R("aliti", "al", 1),
        CYB_R("iviti", "ive", 1), CYB_R("biliti", "ble", 1), CYB_R("fulli", "ful", 1),
        CYB_R("logi", "log", 4)};
    static const cyb_porter_rule CYB_STEP3[7] = {
        CYB_R("icate", "ic", 1), CYB_R("ative", "", 1), CYB_R("alize", "al", 1),
        CYB_R("iciti", "ic", 1), CYB_R("ical", "ic", 1), CYB_R("ful", "", 1),
        CYB_R("ness", "", 1)};
    static const cyb_porter_rule CYB_STEP4[19] = {
        CYB_R("al", "", 2), CYB_R("ance", "", 2), CYB_R("ence", "", 2), CYB_R("er", "", 2),
        CYB_R("ic", "", 2), CYB_R("able", "", 2), CYB_R("ible", "", 2), CYB_R("ant", "", 2),
        CYB_R("ement", "", 2), CYB_R("ment", "", 2), CYB_R("ent", "", 2), CYB_R("ion", "", 3),
        CYB_R("ou", "", 2), CYB_R("ism", "", 2), CYB_R("ate", "", 2), CYB_R("iti", "", 2),
        CYB_R("ous", "", 2), CYB_R("ive", "", 2), CYB_R("ize", "", 2)};
    /* nltk's irregular forms: word -> stem, looked up before any step */
    static const cyb_porter_rule CYB_IRREGULAR[16] = {
        CYB_R("sky", "sky", 0), CYB_R("skies", "sky", 0), CYB_R("dying", "die", 0),
        CYB_R("lying", "lie", 0), CYB_R("tying", "tie", 0), CYB_R("news", "news", 0),
        CYB_R("innings", "inning", 0), CYB_R("inning", "inning", 0),
        CYB_R("outings", "outing", 0), CYB_R("outing", "outing", 0),
        CYB_R("cannings", "canning", 0), CYB_R("canning", "canning", 0),
        CYB_R("howe", "howe", 0), CYB_R("proceed", "proceed", 0), CYB_R("exceed", "exceed", 0),
        CYB_R("succeed", "succeed", 0)};
    #undef CYB_R
    """
    ctypedef struct Rule "cyb_porter_rule":
        const char* suffix
        Py_ssize_t slen
        const char* repl
        Py_ssize_t rlen
        int cond
    const Rule* STEP1A "CYB_STEP1A"
    const Rule* STEP2 "CYB_STEP2"
    const Rule* STEP3 "CYB_STEP3"
    const Rule* STEP4 "CYB_STEP4"
    const Rule* IRREGULAR "CYB_IRREGULAR"


cdef inline bint _vowel(uint32_t c) noexcept nogil:
    return c == 97 or c == 101 or c == 105 or c == 111 or c == 117   # a e i o u


cdef inline bint _cons(const uint32_t* w, Py_ssize_t i) noexcept nogil:
    """Is w[i] a consonant? A run of y's alternates, starting from the letter before it."""
    cdef bint negate = False
    if _vowel(w[i]):
        return False
    if w[i] != 121:   # y
        return True
    while i > 0 and w[i] == 121:
        negate = not negate
        i -= 1
    return (not _vowel(w[i])) != negate


cdef inline int _measure(const uint32_t* w, Py_ssize_t n) noexcept nogil:
    """m of w[:n]: the vowel-consonant transitions, the flags computed left to right."""
    cdef int m = 0
    cdef Py_ssize_t i
    cdef bint prev = False, cur
    for i in range(n):
        if _vowel(w[i]):
            cur = False
        elif w[i] == 121:
            cur = True if i == 0 else not prev
        else:
            cur = True
        if i > 0 and not prev and cur:
            m += 1
        prev = cur
    return m


cdef inline bint _has_vowel(const uint32_t* w, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    cdef bint prev = False, cur
    for i in range(n):
        if _vowel(w[i]):
            return True
        if w[i] == 121:
            cur = True if i == 0 else not prev
            if not cur:
                return True
        else:
            cur = True
        prev = cur
    return False


cdef inline bint _ends(const uint32_t* w, Py_ssize_t n, const char* s, Py_ssize_t k) noexcept nogil:
    cdef Py_ssize_t i
    if n < k:
        return False
    for i in range(k):
        if w[n - k + i] != <uint32_t><unsigned char>s[i]:
            return False
    return True


cdef inline Py_ssize_t _put(uint32_t* w, Py_ssize_t n, const char* s, Py_ssize_t k) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(k):
        w[n + i] = <unsigned char>s[i]
    return n + k


cdef inline bint _double_cons(const uint32_t* w, Py_ssize_t n) noexcept nogil:
    return n >= 2 and w[n - 1] == w[n - 2] and _cons(w, n - 1)


cdef inline bint _cvc(const uint32_t* w, Py_ssize_t n) noexcept nogil:
    if n >= 3 and _cons(w, n - 3) and not _cons(w, n - 2) and _cons(w, n - 1) \
            and w[n - 1] != 119 and w[n - 1] != 120 and w[n - 1] != 121:   # w x y
        return True
    return n == 2 and not _cons(w, 0) and _cons(w, 1)


cdef Py_ssize_t _first_rule(uint32_t* w, Py_ssize_t n, const Rule* rules, int nrules) noexcept nogil:
    """The first rule whose suffix ends w[:n] decides (see porter_py._first_rule)."""
    cdef int k
    cdef Py_ssize_t s
    cdef bint ok
    for k in range(nrules):
        if _ends(w, n, rules[k].suffix, rules[k].slen):
            s = n - rules[k].slen
            if rules[k].cond == 0:
                ok = True
            elif rules[k].cond == 1:
                ok = _measure(w, s) > 0
            elif rules[k].cond == 2:
                ok = _measure(w, s) > 1
            elif rules[k].cond == 3:
                ok = _measure(w, s) > 1 and (w[s - 1] == 115 or w[s - 1] == 116)
            else:
                ok = _measure(w, n - 3) > 0
            if not ok:
                return n
            return _put(w, s, rules[k].repl, rules[k].rlen)
    return n


cdef Py_ssize_t _step1b(uint32_t* w, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t s
    if _ends(w, n, b"ied", 3):
        return _put(w, n - 3, b"ie", 2) if n == 4 else _put(w, n - 3, b"i", 1)
    if _ends(w, n, b"eed", 3):
        return _put(w, n - 3, b"ee", 2) if _measure(w, n - 3) > 0 else n
    if _ends(w, n, b"ed", 2) and _has_vowel(w, n - 2):
        s = n - 2
    elif _ends(w, n, b"ing", 3) and _has_vowel(w, n - 3):
        s = n - 3
    else:
        return n
    if _ends(w, s, b"at", 2):
        return _put(w, s - 2, b"ate", 3)
    if _ends(w, s, b"bl", 2):
        return _put(w, s - 2, b"ble", 3)
    if _ends(w, s, b"iz", 2):
        return _put(w, s - 2, b"ize", 3)
    if _double_cons(w, s):
        if w[s - 1] != 108 and w[s - 1] != 115 and w[s - 1] != 122:   # l s z
            return s - 1
        return s
    if _measure(w, s) == 1 and _cvc(w, s):
        return _put(w, s, b"e", 1)
    return s


cdef Py_ssize_t _step2(uint32_t* w, Py_ssize_t n) noexcept nogil:
    while _ends(w, n, b"alli", 4) and _measure(w, n - 4) > 0:
        n = _put(w, n - 4, b"al", 2)
    return _first_rule(w, n, STEP2, 22)


cdef Py_ssize_t stem_chars(uint32_t* w, Py_ssize_t n) noexcept nogil:
    """Stem the lowercased word w[:n] in place; returns its new length. The irregular forms and
    nltk's two-letter rule are the caller's (stem_word)."""
    cdef Py_ssize_t s
    # step 1a
    if n == 4 and _ends(w, n, b"ies", 3):
        n = _put(w, n - 3, b"ie", 2)
    else:
        n = _first_rule(w, n, STEP1A, 4)
    n = _step1b(w, n)
    # step 1c
    if n >= 1 and w[n - 1] == 121 and n - 1 > 1 and _cons(w, n - 2):
        w[n - 1] = 105
    n = _step2(w, n)
    n = _first_rule(w, n, STEP3, 7)
    n = _first_rule(w, n, STEP4, 19)
    # step 5a
    if n >= 1 and w[n - 1] == 101:
        s = n - 1
        if _measure(w, s) > 1 or (_measure(w, s) == 1 and not _cvc(w, s)):
            n = s
    # step 5b
    if _ends(w, n, b"ll", 2) and _measure(w, n - 1) > 1:
        n -= 1
    return n


cdef int _irregular(const uint32_t* w, Py_ssize_t n) noexcept nogil:
    """Index into IRREGULAR of an irregular word, or -1."""
    cdef int k
    cdef Py_ssize_t i
    for k in range(16):
        if IRREGULAR[k].slen != n:
            continue
        for i in range(n):
            if w[i] != <uint32_t><unsigned char>IRREGULAR[k].suffix[i]:
                break
        else:
            return k
    return -1


cdef Py_ssize_t stem_word(uint32_t* w, Py_ssize_t n) noexcept nogil:
    """nltk's PorterStemmer().stem of the lowercased word w[:n] whose length before lowercasing
    was n too (always so for the ASCII tokens of ROUGE), in place; returns the new length."""
    cdef int k = _irregular(w, n) if 3 <= n <= 8 else -1
    cdef Py_ssize_t i
    if k >= 0:
        return _put(w, 0, IRREGULAR[k].repl, IRREGULAR[k].rlen)
    if n <= 2:
        return n
    return stem_chars(w, n)


def stem(word, to_lowercase=True):
    """nltk's `PorterStemmer().stem(word, to_lowercase)` (NLTK_EXTENSIONS mode)."""
    cdef Py_ssize_t n, m
    cdef uint32_t* buf
    if not isinstance(word, str):
        raise TypeError(f"the word to stem is {type(word).__name__}, not str")
    lowered = word.lower() if to_lowercase else str(word)
    n = PyUnicode_GET_LENGTH(lowered)
    buf = <uint32_t*>PyMem_RawMalloc((n + 1) * sizeof(uint32_t))
    if buf == NULL:
        raise MemoryError()
    try:
        if n:
            PyUnicode_AsUCS4(lowered, <Py_UCS4*>buf, n, 0)
        if PyUnicode_GET_LENGTH(word) <= 2 and _irregular(buf, n) < 0:
            return lowered   # nltk's two-letter rule looks at the word before lowercasing
        # lowercasing never shortens a word: n > 2 here
        with nogil:
            m = stem_word(buf, n)
        return PyUnicode_FromKindAndData(4, buf, m)
    finally:
        PyMem_RawFree(buf)
