"""The engine is pure: standard library only, no clock, no I/O, no global randomness."""
import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = {"time", "datetime", "os", "socket", "subprocess", "logging", "threading", "asyncio", "io", "shutil"}


def _imports(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0], node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module.split(".")[0], node.lineno


def test_engine_imports_only_the_standard_library_and_no_clock_or_io():
    offenders = []
    for path in ENGINE.rglob("*.py"):
        for module, line in _imports(path):
            if module not in sys.stdlib_module_names or module in FORBIDDEN:
                offenders.append(f"{path.relative_to(ENGINE.parent)}:{line} imports {module}")
    assert offenders == []


def test_engine_never_uses_the_global_random_generator():
    offenders = []
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random" \
                    and node.attr != "Random":
                offenders.append(f"{path.name}:{node.lineno} random.{node.attr}")
    assert offenders == []
