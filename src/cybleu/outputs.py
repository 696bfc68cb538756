"""Where cybleu writes: the one way every command (`report -o`, `best-of -o/--scores`, `filter
--kept/--dropped/--scores`, `--demo`) and `Report.save` open a file for writing, and the checks
that keep an output from destroying an input.

- `check_outputs`: before anything is opened for writing, an output that is one of the inputs
  (the same file by `os.path.samefile`: a hard link or a symbolic link counts), two outputs that
  are the same file, or an input inside a folder whose files a run replaces, is an OutputError
  naming both paths.
- `Output`: a file opened for writing. A symbolic link is written through to its target; a path
  that is not a regular file (a FIFO, /dev/null, /dev/stdout, a terminal) is written directly,
  never replaced; a regular file is replaced atomically when asked (a temporary file beside the
  target, renamed over it when complete, with the target's permissions), so a failed run leaves
  the old file as it was; "-" is standard output when the caller allows it. Every error is an
  OSError of the usual class and errno whose `filename` is the path and whose `strerror` says
  what is wrong there (the folder does not exist, a filesystem that allows no new file, a
  read-only filesystem, permission, no space left).
"""
import errno
import os
import stat
import sys

__all__ = ["Output", "OutputError", "check_outputs", "reason", "same_path"]


class OutputError(ValueError):
    """An output that would destroy an input (or another output): the message names both."""


def _key(path):
    """(device, inode) of an existing path (followed through links), else None."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def _norm(path):
    return os.path.normcase(os.path.realpath(os.fspath(path)))


def same_path(a, b):
    """True when two paths name the same file or folder (by device and inode when it exists,
    else by the path with links resolved)."""
    key = _key(a)
    return (key is not None and key == _key(b)) or _norm(a) == _norm(b)


def _is_stdio(path):
    return path is None or path == "-"


def check_outputs(outputs, inputs=(), folders=()):
    """Refuse outputs that would destroy an input or each other, before anything is written.

    :param outputs: [(label, path)] of the files to be written (None or "-": standard output,
        not checked). `label` names the option in messages (e.g. "-o", "--kept").
    :param inputs: the paths read (None or "-": standard input, not checked).
    :param folders: [(label, folder)] of folders whose files a run replaces or removes: no input
        may lie in one.
    :raises OutputError: an output that is an input (the same file, by path or by device and
        inode), two outputs that are the same file, or an input inside one of `folders`.
    """
    inputs = [os.fspath(p) for p in inputs if not _is_stdio(p)]
    in_keys = [(p, _key(p), _norm(p)) for p in inputs]
    seen = []
    for label, path in outputs:
        if _is_stdio(path):
            continue
        path = os.fspath(path)
        if _special(path):      # /dev/null, a FIFO: written in place, destroying nothing
            continue
        key, norm = _key(path), _norm(path)
        for src, src_key, src_norm in in_keys:
            if (key is not None and key == src_key) or norm == src_norm:
                raise OutputError(f"the output {path} ({label}) is the input {src}: writing "
                                  "it would destroy the input; choose another output")
        for other_label, other, other_key, other_norm in seen:
            if (key is not None and key == other_key) or norm == other_norm:
                raise OutputError(f"the outputs {other} ({other_label}) and {path} ({label}) "
                                  "are the same file: one would overwrite the other")
        seen.append((label, path, key, norm))
    for label, folder in folders:
        folder = os.fspath(folder)
        folder_key, folder_norm = _key(folder), _norm(folder)
        for src, src_key, src_norm in in_keys:
            if src_norm == folder_norm or (src_key is not None and src_key == folder_key):
                raise OutputError(f"{label} {folder} is the input {src}: choose another folder")
            parent = os.path.dirname(os.path.abspath(src))
            if _norm(parent) == folder_norm or (folder_key is not None
                                                and _key(parent) == folder_key):
                raise OutputError(f"{label} {folder} holds the input {src}, and a run replaces "
                                  "the files there: choose another folder")


def _special(path):
    """True for an existing path that is not a regular file or folder (/dev/null, a FIFO): two
    outputs may both go there."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def reason(path, err, creating=True):
    """What an OSError while opening or writing `path` means, in words (no path)."""
    code = getattr(err, "errno", None)
    if code == errno.ENOENT and creating:
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            return f"the folder {parent} does not exist"
        return (f"cannot create a file in {parent}: its filesystem allows no new files "
                "there")
    if code == errno.EROFS:
        return "cannot write there: a read-only filesystem"
    if code in (errno.EACCES, errno.EPERM):
        return "cannot write there: permission denied"
    if code in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return "no space left on the device"
    if code == errno.EISDIR:
        return "is a folder, not a file"
    if code == errno.ENOTDIR:
        return "a part of the path is a file, not a folder"
    if code == errno.EPIPE:
        return "the reader closed the pipe (broken pipe)"
    if code == errno.EFBIG:
        return "the file is larger than its filesystem allows"
    return getattr(err, "strerror", None) or str(err) or type(err).__name__


def _named(err, label, creating=True):
    """`err` as an OSError of the same class and errno, naming `label` and saying why."""
    if not isinstance(err, OSError) or err.errno is None:
        return err
    new = OSError(err.errno, reason(label, err, creating), label)
    new.__cause__ = err
    return new


class Output:
    """A file opened for writing, as the module says. Use it as a context manager:

        with Output("report.html", binary=True, atomic=True) as out:
            out.write(data)

    Leaving the block normally finishes the file (for an atomic output: flushed, synced and
    renamed over the target); an exception removes an atomic output's temporary file and leaves
    the target untouched.

    :param path: the file (str or path-like), or "-" for standard output when `stdout` is True.
    :param binary: write bytes (else str, with `encoding` and "\\n" line ends).
    :param encoding: the text encoding.
    :param atomic: replace a regular file only when complete (a temporary file and a rename).
    :param compress: gzip the bytes (True), not (False), or by the name: a ".gz" path (None).
    :param stdout: "-" means standard output (else a file named "-").
    :param label: the name in messages (default: the path as given).
    """

    def __init__(self, path, binary=False, encoding="utf-8", atomic=False, compress=False,
                 stdout=False, label=None):
        self.path = os.fspath(path) if path is not None else "-"
        self.is_stdout = path is None or (stdout and self.path == "-")
        self.label = label or ("standard output" if self.is_stdout else self.path)
        self.binary, self.encoding, self.atomic = binary, encoding, atomic
        self.compress = self.path.endswith(".gz") if compress is None else compress
        self.target = None       # the file really written (a link's target)
        self.special = False     # not a regular file: written in place
        self._tmp = self._raw = self._file = None
        self._closed = False

    # -- opening --------------------------------------------------------------------------------

    def __enter__(self):
        try:
            self._open()
        except OSError as err:
            self._discard()
            raise _named(err, self.label) from err
        return self

    def _open(self):
        if self.is_stdout:
            buffer = getattr(sys.stdout, "buffer", None)
            if self.binary or self.compress:
                if buffer is None:       # a text-only stream in its place (a notebook, a test)
                    if self.compress:
                        raise ValueError("standard output takes no bytes here: name a file")
                    self._file = _BytesAsText(sys.stdout, self.encoding)
                    return
                self._raw = _Unclosed(buffer)
            else:
                self._file = _Unclosed(sys.stdout)
                return
        else:
            # through a symbolic link (or several) to the file it names
            self.target = os.path.realpath(self.path) if os.path.islink(self.path) \
                else self.path
            try:
                mode = os.stat(self.target).st_mode
            except FileNotFoundError:
                mode = None
            if mode is not None and stat.S_ISDIR(mode):
                raise IsADirectoryError(errno.EISDIR, "is a folder", self.target)
            self.special = mode is not None and not stat.S_ISREG(mode)
            if self.atomic and not self.special:
                self._raw = self._temporary(mode)
            else:
                # a FIFO, a device, a terminal: written in place, never replaced
                self._raw = open(self.target, "wb")
        raw = self._raw
        if self.compress:
            import gzip
            raw = gzip.GzipFile(fileobj=raw, mode="wb",
                                filename=os.path.basename(self.path)[:-3]
                                if self.path.endswith(".gz") else "")
            self._gzip = raw
        if self.binary:
            self._file = raw
        else:
            import io
            self._file = io.TextIOWrapper(raw, encoding=self.encoding, newline="\n",
                                          write_through=False)

    def _temporary(self, mode):
        import secrets
        directory = os.path.dirname(os.path.abspath(self.target))
        name = f".{os.path.basename(self.target)}.{secrets.token_hex(6)}.tmp"
        self._tmp = os.path.join(directory, name)
        try:
            fd = os.open(self._tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                         | getattr(os, "O_BINARY", 0), 0o666)
        except OSError as err:
            self._tmp = None
            # say it of the file asked for: the temporary name means nothing to the user
            raise OSError(err.errno, err.strerror, self.target) from None
        if mode is not None:
            try:
                os.chmod(fd if os.chmod in os.supports_fd else self._tmp, stat.S_IMODE(mode))
            except OSError:
                pass
        return os.fdopen(fd, "wb")

    # -- writing --------------------------------------------------------------------------------

    def write(self, data):
        """Write str (or bytes for a binary output); errors name the output."""
        try:
            self._file.write(data)
        except OSError as err:
            raise _named(err, self.label, creating=False) from err

    def writelines(self, lines):
        """Write lines, each followed by a newline (nothing for an empty list)."""
        if lines:
            self.write("\n".join(lines) + "\n")

    def close(self):
        """Finish the file: flushed and closed (an atomic one also synced and renamed over the
        target). Returns the path written (the link's target for a link)."""
        if self._closed:
            return self.target
        self._closed = True
        try:
            if self._file is not None:
                self._file.flush()
            if self.compress and getattr(self, "_gzip", None) is not None:
                self._gzip.close()
            if self._tmp is not None:
                self._raw.flush()
                os.fsync(self._raw.fileno())
            if self._file is not None:
                self._file.close()
            if self._raw is not None:
                self._raw.close()
            if self._tmp is not None:
                os.replace(self._tmp, self.target)
                self._tmp = None
        except OSError as err:
            self._discard()
            raise _named(err, self.label, creating=False) from err
        return self.target

    def _discard(self):
        """Close without finishing: an atomic output's temporary file is removed."""
        self._closed = True
        for f in (self._file, self._raw):
            if f is not None:
                try:
                    f.close()
                except (OSError, ValueError):
                    pass
        if self._tmp is not None:
            try:
                os.unlink(self._tmp)
            except OSError:
                pass
            self._tmp = None

    def __exit__(self, kind, err, tb):
        if kind is None:
            self.close()
        else:
            self._discard()
        return False


class _Unclosed:
    """A stream that `close` only flushes (standard output stays open for later writes)."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, data):
        return self._stream.write(data)

    def flush(self):
        self._stream.flush()

    def close(self):
        self._stream.flush()

    def writable(self):
        return True

    def __getattr__(self, name):
        return getattr(self._stream, name)


class _BytesAsText(_Unclosed):
    """Bytes written to a text-only stream, decoded (its encoding's undecodable bytes kept as
    surrogate escapes)."""

    def __init__(self, stream, encoding):
        super().__init__(stream)
        self._encoding = encoding

    def write(self, data):
        return self._stream.write(bytes(data).decode(self._encoding, "surrogateescape"))
