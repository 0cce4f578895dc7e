"""Writing a file whole and synced: to a temporary file (mode 0600) beside it, then into place; and
the secret key files made that way on first use (the record signing key, the Web Push key)."""

from __future__ import annotations

import logging
import os
import stat
import tempfile
from pathlib import Path
from typing import Callable

log = logging.getLogger(__name__)


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


def key_file(path: Path, make: Callable[[], bytes]) -> bytes:
    """The secret kept at `path`, made by `make()` on first use: written whole to a 0600 temporary
    file, then linked into place (a link never replaces a file, so two processes starting at once
    end up with the same secret). A file readable by others is used, with a warning."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_file(path, make(), replace=False)
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        log.warning("secret key %s is readable by others (mode %o): chmod 600 it", path, mode)
    return path.read_bytes()
