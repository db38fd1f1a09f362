"""pdn.text.atomic against what is not a plain file: devices, FIFOs, inherited streams, signals."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pdn.text.atomic import atomic_writer


def _private_null(folder: Path) -> Path:
    """A character device with /dev/null's numbers in a scratch folder, so that a writer that
    wrongly replaces devices destroys only this copy, never the real /dev/null."""
    node = folder / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, AttributeError, OSError) as exc:
        pytest.skip(f"cannot create a device node here: {exc}")
    return node


def test_character_device_is_written_into_not_replaced(tmp_path: Path) -> None:
    node = _private_null(tmp_path)
    with atomic_writer(node) as out:
        out.write("discarded\n")
    assert stat.S_ISCHR(os.stat(node).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["null"]  # no temporary file left


def test_dev_null_stays_a_device(tmp_path: Path) -> None:
    # Only once a private device survived is the real one used (a regression must not break
    # the machine the tests run on).
    test_character_device_is_written_into_not_replaced(tmp_path)
    with atomic_writer("/dev/null") as out:
        out.write("discarded\n")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_is_written_into_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    # A reader opened first (non-blocking) lets the writer's open succeed at once.
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with atomic_writer(fifo) as out:
            out.write("through the pipe\n")
        assert os.read(reader, 1000) == b"through the pipe\n"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.skipif(not Path("/dev/fd").is_dir(), reason="no /dev/fd here")
def test_dev_fd_shares_the_inherited_descriptor(tmp_path: Path) -> None:
    log = tmp_path / "log"
    log.write_text("earlier\n")
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    try:
        with atomic_writer(f"/dev/fd/{fd}") as out:
            out.write("appended\n")
    finally:
        os.close(fd)
    assert log.read_text() == "earlier\nappended\n"


def test_closed_descriptor_is_an_error_naming_the_path() -> None:
    fd = os.open(os.devnull, os.O_RDONLY)
    os.close(fd)  # now surely not open
    with pytest.raises(OSError) as caught, atomic_writer(f"/dev/fd/{fd}"):
        pass
    assert caught.value.filename == f"/dev/fd/{fd}"


def test_missing_folder_error_names_the_given_path(tmp_path: Path) -> None:
    given = tmp_path / "no-such-folder" / "x.pdn"
    with pytest.raises(OSError) as caught, atomic_writer(given):
        pass
    assert caught.value.filename == os.fspath(given)
    assert ".tmp" not in str(caught.value)
    assert "does not exist" in str(caught.value)


def test_symbolic_link_is_kept_and_its_file_replaced(tmp_path: Path) -> None:
    real = tmp_path / "real.pdn"
    real.write_text("old\n")
    link = tmp_path / "link.pdn"
    link.symlink_to(real)
    with atomic_writer(link) as out:
        out.write("new\n")
    assert link.is_symlink()
    assert real.read_text() == "new\n"


_SLOW_WRITER = textwrap.dedent(
    """
    import sys, time
    from pdn.text.atomic import atomic_writer
    with atomic_writer(sys.argv[1]) as out:
        out.write("partial\\n")
        out.flush()
        print("writing", flush=True)
        time.sleep(30)
    """
)


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_killed_while_writing_leaves_no_temporary_file(tmp_path: Path, signame: str) -> None:
    if not hasattr(signal, signame):
        pytest.skip(f"no {signame} here")
    signum = getattr(signal, signame)
    target = tmp_path / "out.pdn"
    child = subprocess.Popen(
        [sys.executable, "-c", _SLOW_WRITER, str(target)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "writing\n"
        assert len(list(tmp_path.glob(".out.pdn.*.tmp"))) == 1
        child.send_signal(signum)
        child.wait(timeout=10)
    finally:
        child.kill()
        child.wait()
    assert child.returncode == -signum  # died of the signal, as without the handler
    assert list(tmp_path.iterdir()) == []


def test_handler_is_only_installed_while_writing(tmp_path: Path) -> None:
    if not hasattr(signal, "SIGHUP"):
        pytest.skip("no SIGHUP here")
    before = signal.getsignal(signal.SIGHUP)
    with atomic_writer(tmp_path / "x") as out:
        out.write("x")
        during = signal.getsignal(signal.SIGHUP)
    assert signal.getsignal(signal.SIGHUP) == before
    if before is signal.SIG_DFL:
        assert during is not signal.SIG_DFL
