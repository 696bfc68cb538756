"""What every `cybleu` command shares (the scoring command line, `report`, `best-of`, `filter`):
its messages on stderr, and one way from an error to an exit status.

`run(body, quiet)` calls `body()` with sacreBLEU's logging set up and turns what it raises into
`cybleu: ` lines and a status, the same for every command:

- `Exit(code)` (from `fail(...)`): the status, its messages already logged;
- `streams.InputError`: its lines, its status (1, or 17 for sacreBLEU's malformed
  tab-separated input);
- KeyboardInterrupt: "Interrupted.", 130;
- MemoryError: one line, 1;
- OSError (a write to a full disk or /dev/full, a closed pipe, a missing file): the path and what
  is wrong there, 1;
- UnicodeError: the encoding and the bad byte or character, 1;
- ValueError, TypeError, LookupError, ImportError from bad input: the message, 1.

Anything else is a bug and keeps its traceback. Standard output is flushed inside the same
handling, so an error while flushing it (a full disk, a closed pipe) is reported the same way.
"""
import argparse
import io
import logging
import sys

logger = logging.getLogger("cybleu.cli")


class Parser(argparse.ArgumentParser):
    """argparse's parser, asking for the terminal's width only when it prints: while arguments
    are added, argparse formats each one to check its metavar, and the width query imports
    shutil (with bz2, lzma and more), a few ms of every run."""

    _adding = True  # until build_parser has added every argument

    def _get_formatter(self):
        if self._adding:
            return self.formatter_class(prog=self.prog, width=80)
        return super()._get_formatter()


class Exit(Exception):
    """Stop with an exit status (the CLI's sys.exit, without leaving main())."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


def fail(*messages, code=1):
    """Log each message as an error and stop with `code`."""
    for message in messages:
        logger.error(message)
    raise Exit(code)


class LogToStderr:
    """sacreBLEU's logging setup, scoped to one command: INFO and up on stderr with a
    prefix, or (quiet) warnings and errors only, bare."""

    def __init__(self, quiet):
        self.quiet = quiet

    def __enter__(self):
        self.lib = logging.getLogger("cybleu")
        self.saved = (self.lib.level, self.lib.propagate)
        self.handler = logging.StreamHandler(sys.stderr)
        self.handler.setFormatter(logging.Formatter("%(message)s" if self.quiet
                                                    else "cybleu: %(message)s"))
        self.handler.setLevel(logging.WARNING if self.quiet else logging.INFO)
        self.lib.addHandler(self.handler)
        self.lib.setLevel(logging.INFO)
        self.lib.propagate = False
        return self

    def __exit__(self, *exc):
        try:
            self.handler.flush()
        except (OSError, ValueError):
            pass
        self.lib.removeHandler(self.handler)
        self.lib.setLevel(self.saved[0])
        self.lib.propagate = self.saved[1]
        return False


def setup_process_streams():
    """For a real command-line run: UTF-8 stdout and default SIGPIPE handling, as sacreBLEU."""
    try:
        from signal import SIG_DFL, SIGPIPE, signal
        signal(SIGPIPE, SIG_DFL)
    except (ImportError, ValueError):  # no SIGPIPE (Windows), or not the main thread
        pass
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(encoding="utf-8")
        except (ValueError, OSError, io.UnsupportedOperation):
            pass


def run(body, quiet=False):
    """Run a command's `body()` with its messages on stderr; returns the exit status (0 when
    it returns, else as the module says)."""
    with LogToStderr(quiet):
        try:
            body()
            sys.stdout.flush()
        except BaseException as err:     # sorted by exit_status; a bug is re-raised
            code = exit_status(err)
            if code is None:
                raise
            return code
    return 0


def exit_status(err):
    """Log `err` as the commands report it and return the exit status, or None for an error
    that is a bug (the caller re-raises it)."""
    from . import streams
    if isinstance(err, Exit):
        return err.code
    if isinstance(err, streams.InputError):
        for message in err.messages:
            logger.error(message)
        return err.code
    if isinstance(err, KeyboardInterrupt):
        logger.error("Interrupted.")
        return 130
    if isinstance(err, MemoryError):
        logger.error("out of memory while preparing or computing the results")
        return 1
    if isinstance(err, OSError):
        logger.error(os_error_text(err))
        return 1
    if isinstance(err, UnicodeError):
        logger.error(unicode_error_text(err))
        return 1
    if type(err).__name__ == "TestSetError":
        for line in str(err).split("\n"):
            logger.error(line)
        return 1
    if isinstance(err, (ValueError, TypeError, LookupError, ImportError)):
        own = type(err).__module__.split(".")[0] == "cybleu"
        logger.error(str(err) if own and str(err) else f"{type(err).__name__}: {err}")
        return 1
    return None


def os_error_text(err):
    """One line for an OSError: the file (standard output for a failed write there) and what
    is wrong."""
    import errno

    from .outputs import reason
    from .streams import os_error_message
    name = err.filename
    if name is None:
        # a write or flush of standard output (the files cybleu opens name themselves)
        if err.errno == errno.EPIPE:
            return "standard output: the reader closed the pipe (broken pipe)"
        if err.errno is not None:
            return f"standard output: {reason('-', err, creating=False)}"
        return f"{type(err).__name__}: {err}"
    return os_error_message(str(name), err)


def unicode_error_text(err):
    if isinstance(err, UnicodeDecodeError):
        byte = err.object[err.start:err.start + 1]
        shown = f" (byte 0x{byte[0]:02x})" if byte else ""
        return f"cannot decode as {err.encoding}: {err.reason}{shown}"
    if isinstance(err, UnicodeEncodeError):
        bad = err.object[err.start:err.end]
        return (f"cannot encode {bad!r} as {err.encoding}: {err.reason} (a name or text with "
                "characters this output cannot hold)")
    return f"{type(err).__name__}: {err}"
