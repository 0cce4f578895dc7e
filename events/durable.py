"""Writing a file whole and synced: to a temporary file (mode 0600) beside it, then into place."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_file(path: Path, data: bytes, *, replace: bool = True) -> None:
    """Write `data` to a temporary file in `path`'s directory, fsync it, then put it at `path`:
    renamed over any file there (`replace`), or linked so an existing file is kept as it is
    (FileExistsError is swallowed: someone else wrote it first). The directory is not synced."""
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        if replace:
            os.replace(temp, path)
        else:
            try:
                os.link(temp, path)
            except FileExistsError:
                pass
    finally:
        if not replace or os.path.exists(temp):
            os.unlink(temp)
