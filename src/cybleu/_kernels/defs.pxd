# Shared declarations of the compiled modules (the bottom floor: everything cimports it, it cimports
# nothing of ours). The data's path: text (code points) -> tokens -> interned IDs -> n-gram table
# -> integer statistics (hyp_len, ref_len, correct_1..N, total_1..N).
from libc.stdint cimport uint16_t, uint32_t, uint64_t, int32_t, int64_t

ctypedef uint32_t token_id_t
ctypedef uint64_t hash_t

cdef enum:
    # A hypothesis token that no reference contains gets this ID: it can never match, so the
    # hypothesis side only looks tokens up and the vocabulary stays bounded by the references.
    OOV_ID = 0xFFFFFFFF

# Error codes returned from nogil code; turned into exceptions once the GIL is back
# (_workspace.raise_for and the callers that know what a failed segment means).
cdef enum:
    ERR_NOMEM = -1
    ERR_NO_REFS = -2

# The tokenizers the compiled core runs itself (_tokenize.TOKENIZER_MODES maps names to these).
cdef enum:
    TOK_NONE = 0
    TOK_13A = 1
    TOK_INTL = 2
    TOK_ZH = 3
    TOK_CHAR = 4

# sacreBLEU's smoothing methods (_bleu.SMOOTH_MODES maps names to these).
cdef enum:
    SMOOTH_NONE = 0
    SMOOTH_FLOOR = 1
    SMOOTH_ADDK = 2
    SMOOTH_EXP = 3

# The largest max_order the core accepts: statistics rows are 2 + 2 * max_order wide, and a
# bound keeps every size computed from it far from overflow (the API's own, lower limit is
# checked before the core is called).
cdef enum:
    CORE_MAX_ORDER = 1 << 16

# Growable arrays owned by whoever embeds them (freed with PyMem_RawFree); the raw allocator is
# usable without the GIL and still seen by tracemalloc.
cdef struct U32Buf:
    uint32_t* data
    Py_ssize_t size
    Py_ssize_t cap

cdef struct I64Buf:
    int64_t* data
    Py_ssize_t size
    Py_ssize_t cap

# A str's own storage, read in place without the GIL (1, 2 or 4 bytes per code point, as CPython
# stores it): no copy, no widening. Whoever fills a TextRefs keeps the strs alive meanwhile.
cdef struct TextRef:
    const void* data
    Py_ssize_t length
    int kind

cdef struct TextRefs:
    TextRef* data
    Py_ssize_t size
    Py_ssize_t cap
    Py_ssize_t longest        # the longest line's length (giant lines take another path)

# Token interning (_intern), one segment at a time: the segment's reference tokens get IDs 0, 1,
# ...; a hypothesis token is looked up (OOV_ID when absent). The table stays small enough for L1
# cache, whatever the corpus. A slot holds an entry index and 32 bits of the hash, so most probes
# never touch the entries; keys are the exact code point sequences, compared in full on every
# hash match.
cdef struct VocabSlot:
    uint32_t tag
    int32_t entry

cdef struct VocabEntry:
    hash_t h
    const uint32_t* chars
    Py_ssize_t length
    Py_ssize_t slot

cdef struct Vocab:
    VocabSlot* slots
    Py_ssize_t mask
    int shift                 # 64 - log2(number of slots)
    VocabEntry* entries
    Py_ssize_t n
    Py_ssize_t ecap

# N-gram tables (_ngrams). Every n-gram gets a dense ID, and its exact key is the pair (ID of its
# (n-1)-gram prefix, last token): by induction equal keys mean equal n-grams, and a probe compares
# one 64-bit word in the slot instead of reading the n-gram back from the token array. The slot
# is chosen by a hash of the tokens themselves, so the probes of a 1..N-gram chain do not wait for
# each other's IDs.
cdef enum:
    NO_PREFIX = 0xFFFFFFFF    # the "prefix ID" of a unigram (IDs are below 2**31)

cdef struct NgramSlot:
    uint64_t key              # prefix ID << 32 | last token
    uint32_t id
    uint32_t gen              # the table's generation that wrote it; any other value: empty

# Counts of one n-gram ID. A reference count saturates at the hypothesis count: clipping only
# needs min(hyp_count, max over references), and the counts can then never overflow.
# NgramIndex reuses hyp_count (the last sentence that had it) and ref_max (where its pair is).
cdef struct NgramEntry:
    uint32_t hyp_count
    uint32_t ref_count
    uint32_t ref_max
    int32_t order

# Per-segment table of hypothesis n-grams, emptied between segments by moving to the next
# generation (no clearing pass). Also interns every n-gram of a batch for pairwise scoring
# (_ngrams.NgramIndex). A usual segment's table has room for every n-gram it may have; a giant
# segment's (and a batch's index) starts smaller and grows, rehashed, as distinct n-grams arrive,
# so that a giant line costs memory by its distinct n-grams.
cdef struct NgramTable:
    NgramSlot* slots
    Py_ssize_t mask
    int shift                 # 64 - log2(number of slots)
    uint32_t gen
    NgramEntry* entries       # by ID
    Py_ssize_t n
    Py_ssize_t ecap
    Py_ssize_t limit          # n-grams it holds before it must grow: half its slots, at most ecap
    uint32_t* touched         # IDs whose ref_count the current reference raised (several
    Py_ssize_t ntouched       # references only; room for tcap of them)
    Py_ssize_t tcap

# A cached reference set's segments as frozen n-gram tables (RefSet, once it is scored a second
# time): each segment's distinct reference n-grams once, with the most any one reference has, so a
# hypothesis only looks its n-grams up. Keys are exact, as in NgramTable: (the prefix's entry in
# the same segment, last token). 12 bytes an n-gram and 2 a slot; a segment too large for 16-bit
# numbers (ngrams.FREEZE_POSSIBLE) is not frozen and keeps the per-call tables.
cdef enum:
    NO_PREFIX16 = 0xFFFF

cdef struct RefGram:
    uint32_t token
    uint16_t prefix           # the prefix's entry in the segment; NO_PREFIX16 for a unigram
    uint32_t ref_max          # (a lookup knows the order from how far it has extended)

cdef struct RefTables:
    RefGram* grams            # segment s: grams[gram_off[s]:gram_off[s + 1]]
    uint16_t* slots           # and slots[slot_off[s]:slot_off[s + 1]] (0 empty, else entry + 1;
    int64_t* gram_off         # no slots: the segment is not frozen)
    int64_t* slot_off
    Py_ssize_t gcap, scap, nseg
