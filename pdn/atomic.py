"""Writing output files atomically: all of the new file or none of it, never half.

The text goes to a temporary file in the target's own folder (so the final rename stays on one
file system) and replaces the target only once it is complete and flushed to disk.

>>> import tempfile, pathlib
>>> target = pathlib.Path(tempfile.mkdtemp()) / "out.pdn"
>>> with atomic_writer(target) as out:
...     _ = out.write("[Event \\"x\\"]\\n*\\n")
>>> target.read_text()
'[Event "x"]\\n*\\n'
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike[str], *, encoding: str = "utf-8") -> Iterator[TextIO]:
    """Open ``path`` for writing text; it is replaced only when the block ends without error.

    On an exception the temporary file is removed and an existing ``path`` is left untouched.
    """
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            # Keep the permissions of the file being replaced.
            os.chmod(temp_name, target.stat().st_mode & 0o777)
        else:
            os.chmod(temp_name, 0o666 & ~_umask())
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
