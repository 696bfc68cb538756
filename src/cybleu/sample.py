"""The sample that ships with cybleu: the first 500 segments of WMT17's English-German news test
set (newstest2017), its reference and five systems' translations, from sacreBLEU's test fixtures
(Apache-2.0; see data/README.md beside this file). `cybleu --demo` scores it, and the
documentation's examples read it.
"""
import os

__all__ = ["SAMPLE_SYSTEMS", "sample_path"]

PREFIX = "wmt17-en-de."
REFERENCE = PREFIX + "ref.txt"
# the systems' short names, as in their file names (wmt17-en-de.<name>.txt)
SAMPLE_SYSTEMS = ("KIT", "LIUM-NMT", "PROMT-Rule-based", "online-B", "uedin-nmt")


def _folder():
    from importlib import resources
    root = resources.files("cybleu") / "data"
    # cybleu is installed as files (it has compiled modules: never from a zip)
    return os.fspath(root)


def sample_path(name=None):
    """Where the bundled sample is: its folder, or one of its files.

    :param name: None for the folder; "ref" (or "reference") for the reference; a system's short
        name ("online-B", "KIT", "uedin-nmt", "LIUM-NMT", "PROMT-Rule-based"); or a file name
        ("wmt17-en-de.ref.txt").
    :returns: The path, a str (the files are UTF-8 text, one segment per line).
    :raises ValueError: An unknown name (the message lists the names).
    :raises FileNotFoundError: The sample is missing from this install.

    >>> import os
    >>> import cybleu
    >>> path = cybleu.sample_path("ref")
    >>> os.path.basename(path)
    'wmt17-en-de.ref.txt'
    >>> with open(cybleu.sample_path("online-B"), encoding="utf-8") as f:
    ...     print(sum(1 for _ in f), "lines")
    500 lines
    >>> sorted(os.listdir(cybleu.sample_path()))[-1]
    'wmt17-en-de.uedin-nmt.txt'
    """
    folder = _folder()
    if name is None:
        path = folder
    else:
        name = os.fspath(name)
        if name in ("ref", "reference", REFERENCE):
            file = REFERENCE
        elif name in SAMPLE_SYSTEMS:
            file = f"{PREFIX}{name}.txt"
        elif name.startswith(PREFIX) and name.endswith(".txt") \
                and name[len(PREFIX):-4] in SAMPLE_SYSTEMS:
            file = name
        else:
            raise ValueError(f"the sample has no file {name!r}: give 'ref' or a system: "
                             f"{', '.join(SAMPLE_SYSTEMS)} (or a file name such as "
                             f"{REFERENCE!r})")
        path = os.path.join(folder, file)
    if not os.path.exists(path):
        raise FileNotFoundError(f"the bundled sample ({path}) is missing from this install")
    return path
