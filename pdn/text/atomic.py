"""Writing output files atomically: all of the new file or none of it, never half.

The text goes to a temporary file in the target's own folder (so the final rename stays on one
file system) and replaces the target only once it is complete and flushed to disk.

Only regular files (and paths that do not exist yet) are replaced that way. Anything else is
written straight into, because replacing it would destroy it: a character device such as
``/dev/null`` or a terminal, a FIFO, and the streams the process was given, ``/dev/stdout``,
``/dev/stderr`` and ``/dev/fd/N``. Those last ones are written through a duplicate of the
inherited descriptor, so ``-o /dev/stdout >> log`` appends to ``log`` as the shell promised;
the file is compared, not its name, so a symbolic link to ``/dev/stdout`` or
``/proc/thread-self/fd/1`` does the same. A replaced file keeps its owner, group and
permissions (as ``sed -i`` does), and an error while writing (``No space left on device``)
names the file.

A temporary file never outlives the process: it is removed when the block raises (``Ctrl-C``
included) and when the process is killed by ``SIGTERM`` or ``SIGHUP`` while writing.

>>> import tempfile, pathlib
>>> target = pathlib.Path(tempfile.mkdtemp()) / "out.pdn"
>>> with atomic_writer(target) as out:
...     _ = out.write("[Event \\"x\\"]\\n*\\n")
>>> target.read_text()
'[Event "x"]\\n*\\n'
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import stat
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import FrameType
from typing import TextIO

__all__ = ["Terminated", "atomic_writer", "reserve_closed_standard_descriptors", "signals_as_exit"]

# Names that stand for a descriptor the process inherited; opening them anew would give a new
# file description (losing O_APPEND and the offset), so they are duplicated instead.
_STANDARD_STREAMS = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
_FD_PATH = re.compile(r"/(?:dev|proc/(?:self|thread-self))/fd/([0-9]{1,9})")


@contextlib.contextmanager
def atomic_writer(
    path: str | os.PathLike[str],
    *,
    encoding: str = "utf-8",
    errors: str = "strict",
    newline: str = "",
    check: Callable[[str], None] | None = None,
) -> Iterator[TextIO]:
    """Open ``path`` for writing text; a regular file is replaced only when the block ends
    without error.

    On an exception the temporary file is removed and an existing ``path`` is left untouched.
    Devices, FIFOs and inherited descriptors (``/dev/stdout``, ``/dev/fd/3``, or a path that
    is the same file as standard output) are written straight into (see the module
    docstring). Errors name ``path`` as given, never the temporary file. ``errors`` and
    ``newline`` are those of :func:`open` (``"\\r\\n"`` writes CRLF line ends). ``check``,
    when given, is called with the path of the complete temporary file before it replaces
    ``path``: an exception it raises leaves ``path`` as it was (it is not called for what
    is written straight into).
    """
    name = os.fspath(path)
    inherited = _inherited_descriptor(name)
    found: os.stat_result | None = None
    if inherited is None:
        with contextlib.suppress(FileNotFoundError):
            found = os.stat(name)
        if found is not None:
            inherited = _standard_stream_of(found)
    if inherited is not None:
        try:
            fd = os.dup(inherited)
        except OSError as exc:
            raise OSError(exc.errno, "no such stream is open", name) from None
        with _direct(fd, name, encoding, errors, newline) as handle:
            yield handle
        return
    if found is not None and not stat.S_ISREG(found.st_mode):
        # O_NOCTTY: writing to a terminal device must not make it our controlling terminal.
        fd = os.open(name, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
        with _direct(fd, name, encoding, errors, newline) as handle:
            yield handle
        return
    with _replacing(name, encoding, errors, newline, check) as handle:
        yield handle


def _standard_stream_of(found: os.stat_result) -> int | None:
    """1 or 2 when ``found`` is the file standard output or standard error writes to (a
    link to ``/dev/stdout``, ``/proc/thread-self/fd/1``, the log of ``>> log``), else None."""
    for number in (1, 2):
        if number in _reserved:
            continue
        try:
            stream = os.fstat(number)
        except OSError:
            continue
        if (stream.st_dev, stream.st_ino) == (found.st_dev, found.st_ino):
            return number
    return None


def _inherited_descriptor(name: str) -> int | None:
    """The descriptor number ``name`` stands for (``/dev/stdout`` -> 1), or ``None``."""
    absolute = os.path.abspath(name)
    if absolute in _STANDARD_STREAMS:
        number: int | None = _STANDARD_STREAMS[absolute]
    else:
        match = _FD_PATH.fullmatch(absolute)
        number = int(match.group(1)) if match else None
    if number is not None and number in _reserved:
        # A placeholder, not what the user's shell gave us: writing there would lose the text.
        raise OSError(errno.EBADF, "it was closed when pdn started", name)
    return number


# Standard descriptors that were closed when the process started and now hold /dev/null.
_reserved: set[int] = set()


def reserve_closed_standard_descriptors() -> frozenset[int]:
    """Put ``/dev/null`` on each of the descriptors 0, 1 and 2 that is closed, and return them.

    Otherwise the next file opened would get that number and be taken for a standard stream
    (by this process, ``/dev/stdout``, or a child). :func:`atomic_writer` refuses the
    reserved ones, so ``-o /dev/stdout`` with standard output closed is an error, not a
    silent loss. Calling it again reserves nothing more.
    """
    for number in (0, 1, 2):
        if number in _reserved:
            continue
        try:
            os.fstat(number)
        except OSError:
            fd = os.open(os.devnull, os.O_RDWR)
            if fd != number:  # a lower closed number was filled first; keep ``number`` free
                os.dup2(fd, number)
                os.close(fd)
            _reserved.add(number)
    return frozenset(_reserved)


# Errors of writing that carry no file name; they are given the target's (the user must learn
# which file could not be written).
_WRITE_ERRORS = frozenset(
    getattr(errno, code) for code in ("ENOSPC", "EDQUOT", "EFBIG", "EIO") if hasattr(errno, code)
)


def _named(exc: OSError, name: str) -> OSError:
    """``exc`` as raised, or a copy naming ``name`` when it is a write error naming nothing."""
    if exc.filename is None and exc.errno in _WRITE_ERRORS:
        return OSError(exc.errno, exc.strerror, name)
    return exc


@contextlib.contextmanager
def _direct(fd: int, name: str, encoding: str, errors: str, newline: str) -> Iterator[TextIO]:
    try:
        with os.fdopen(fd, "w", encoding=encoding, errors=errors, newline=newline) as handle:
            yield handle
    except OSError as exc:
        named = _named(exc, name)
        if named is exc:
            raise
        raise named from exc


@contextlib.contextmanager
def _replacing(
    name: str,
    encoding: str,
    errors: str,
    newline: str,
    check: Callable[[str], None] | None,
) -> Iterator[TextIO]:
    import tempfile  # here: it costs every command's start-up, and many write no file

    # Through a symbolic link the file it points to is replaced, and the link is kept.
    target = Path(os.path.realpath(name))
    folder = target.parent
    # A signal between creating the file and tracking it would leave the file behind: the two
    # happen with the cleanup signals held, which are delivered (and clean up) right after.
    with _signals_held():
        try:
            fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        except OSError as exc:
            why = exc.strerror or str(exc)
            if exc.errno == errno.ENOENT:
                why = f"the folder {folder} does not exist"
            raise OSError(exc.errno, why, name) from None
        _track(temp_name)
    try:
        with os.fdopen(fd, "w", encoding=encoding, errors=errors, newline=newline) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if check is not None:
            check(temp_name)
        try:
            old: os.stat_result | None = target.stat()
        except FileNotFoundError:
            old = None
        if old is not None:
            # Keep the owner, group and permissions of the file being replaced, as sed -i does
            # (as root, the new file would otherwise be root's). A user who may not give the
            # file its group (not a member of it) still gets the file written.
            with contextlib.suppress(PermissionError):
                os.chown(temp_name, old.st_uid, old.st_gid)
            os.chmod(temp_name, old.st_mode & 0o777)
        else:
            os.chmod(temp_name, 0o666 & ~_umask())
        os.replace(temp_name, target)
    except OSError as exc:
        _discard(temp_name)
        if exc.filename == temp_name or exc.filename2 == temp_name:
            # The user never heard of the temporary file: name the path they gave.
            raise OSError(exc.errno, exc.strerror, name) from exc
        named = _named(exc, name)
        if named is not exc:
            raise named from exc
        raise
    except BaseException:
        _discard(temp_name)
        raise
    finally:
        _untrack(temp_name)


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def _discard(temp_name: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(temp_name)


# ------------------------------------------------------------------ cleaning up on a signal

# SIGINT raises KeyboardInterrupt, which the ``except`` above handles; SIGTERM and SIGHUP kill
# the process without running any ``finally``, so a handler removes the temporary files first.
_CLEANUP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)

# Temporary file -> the process that created it. A worker forked while a file was pending
# inherits this table; the pid keeps it from deleting its parent's file.
_pending: dict[str, int] = {}
_lock = threading.Lock()


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold back the cleanup signals for the block (POSIX; elsewhere a no-op)."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None or not _CLEANUP_SIGNALS:
        yield
        return
    previous = mask(signal.SIG_BLOCK, _CLEANUP_SIGNALS)
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, previous)


def _track(temp_name: str) -> None:
    with _lock:
        _pending[temp_name] = os.getpid()
        # Handlers can only be installed from the main thread; elsewhere the file is still
        # removed on errors, just not on a signal.
        if threading.current_thread() is threading.main_thread():
            for signum in _CLEANUP_SIGNALS:
                # A program that set its own handler keeps it: it is responsible for cleanup.
                if signal.getsignal(signum) is signal.SIG_DFL:
                    signal.signal(signum, _on_signal)


def _untrack(temp_name: str) -> None:
    with _lock:
        _pending.pop(temp_name, None)
        # Back to the default once nothing is pending, so the handler is active only while
        # a file is being written.
        if not _pending and threading.current_thread() is threading.main_thread():
            for signum in _CLEANUP_SIGNALS:
                if signal.getsignal(signum) is _on_signal:
                    signal.signal(signum, signal.SIG_DFL)


def _on_signal(signum: int, frame: FrameType | None) -> None:
    """Remove this process's pending temporary files, then die of the same signal."""
    me = os.getpid()
    for temp_name, owner in list(_pending.items()):
        if owner == me:
            with contextlib.suppress(OSError):
                os.unlink(temp_name)
    # Re-raise with the default action, so the parent sees "killed by SIGTERM" as it would
    # have without us; the exit is a fallback should the signal somehow not be delivered.
    signal.signal(signum, signal.SIG_DFL)
    os.kill(me, signum)
    os._exit(128 + signum)


class Terminated(SystemExit):
    """``SIGTERM`` or ``SIGHUP`` arrived inside :func:`signals_as_exit`; exits 128 + signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)
        self.signum = signum


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def signals_as_exit() -> Iterator[None]:
    """Within the block, ``SIGTERM`` and ``SIGHUP`` raise :class:`Terminated`, so that every
    ``finally`` and ``with`` runs (a scratch folder is removed); once out of the block the
    process dies of the same signal, as it would have. An atomic write under way outside the
    block (its handler installed) is cleaned up then, by that handler. Outside the main
    thread, or where a program set its own handlers, this changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # Ours to take over: the default, and the atomic writer's cleanup (which would end the
    # process at once, skipping the block's own cleanup); a program's own handler is kept.
    saved = {
        signum: handler
        for signum in _CLEANUP_SIGNALS
        if (handler := signal.getsignal(signum)) is signal.SIG_DFL or handler is _on_signal
    }
    for signum in saved:
        signal.signal(signum, _raise_terminated)
    try:
        yield
    except Terminated as stop:
        _restore(saved)
        saved = {}
        if stop.signum in _CLEANUP_SIGNALS:
            os.kill(os.getpid(), stop.signum)
        raise
    finally:
        _restore(saved)


def _restore(saved: Mapping[signal.Signals, object]) -> None:
    """Put back the handlers :func:`signals_as_exit` replaced; the atomic writer's only while
    a temporary file is still pending."""
    with _lock:
        for signum, handler in saved.items():
            if handler is _on_signal and not _pending:
                handler = signal.SIG_DFL
            signal.signal(signum, handler)  # type: ignore[arg-type]
