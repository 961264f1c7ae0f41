"""Writing output files atomically: a file appears complete, or not at all.

>>> import pathlib, tempfile
>>> from symrow.outfile import write_atomic
>>> path = pathlib.Path(tempfile.mkdtemp()) / "c.tex"
>>> write_atomic(path, "x = 1\\n")
>>> path.read_text()
'x = 1\\n'
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import OutputError

__all__ = ["write_atomic"]


def write_atomic(path: str | os.PathLike, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder,
    then rename it into place; on any failure nothing is left behind."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise OutputError(f"cannot write {target}: folder {folder} does not exist")
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException as err:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(err, OSError):
            raise OutputError(f"cannot write {target}: {err.strerror or err}") from None
        raise
