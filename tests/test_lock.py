"""requirements.lock pins every dependency setup.cfg and pyproject.toml name, each with its hashes,
so `make` installs exactly what the lock says (README, "Dependencies"): a dependency added without
running `make lock` fails here, not on a fresh machine."""
from __future__ import annotations

import configparser
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~;\[ ]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-").replace(".", "-")


def test_every_declared_dependency_is_pinned_with_hashes():
    setup = configparser.ConfigParser()
    setup.read(ROOT / "setup.cfg")
    declared = [line for key in ("install_requires",) for line in setup["options"][key].splitlines() if line.strip()]
    declared += [line for line in setup["options.extras_require"]["test"].splitlines() if line.strip()]
    declared += tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    lock = (ROOT / "requirements.lock").read_text()
    pinned = {_name(m.group(1)): m.group(2) for m in re.finditer(r"^([A-Za-z0-9_.-]+)==(\S+) \\$", lock, re.M)}
    assert [_name(r) for r in declared if _name(r) not in pinned] == []
    blocks = re.split(r"\n(?=[A-Za-z0-9_.-]+==)", lock.split("\n", 6)[-1])
    assert all("--hash=sha256:" in block for block in blocks if "==" in block)
