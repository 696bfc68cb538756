# The Porter stemmer (floor 1): nltk 3.10.4's PorterStemmer() (NLTK_EXTENSIONS) on a lowercased
# word's code points, in place. The twin porter_py.py is the specification.
from libc.stdint cimport uint32_t


cdef Py_ssize_t stem_word(uint32_t* w, Py_ssize_t n) noexcept nogil
