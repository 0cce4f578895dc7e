"""engine/data/cards.json reads like the card: it is exactly what tools/build_card_data.py writes, and
every pattern cell (and marked square) stands on a line of its own, so a diff names the cell."""
import importlib.util
import itertools
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "engine" / "data" / "cards.json"


def _build_script():
    spec = importlib.util.spec_from_file_location("build_card_data", ROOT / "tools" / "build_card_data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_data_file_is_laid_out_as_the_build_script_writes_it():
    text = DATA.read_text()
    assert text == _build_script().dumps(json.loads(text)) + "\n"


def test_every_pattern_cell_of_the_data_file_is_on_one_line():
    lines = DATA.read_text().splitlines()
    on_their_own_line = []
    for i, line in enumerate(lines):
        if line.strip() in ('"pattern": [', '"marked": ['):
            cells = itertools.takewhile(lambda cell: not cell.strip().startswith("]"), lines[i + 1:])
            on_their_own_line.extend(json.loads(cell.strip().rstrip(",")) for cell in cells)
    beings = [c for deck in json.loads(DATA.read_text())["decks"] for c in deck["cards"] if c["kind"] == "being"]
    every_cell = [cell for being in beings for cell in being["pattern"] + being["marked"]]
    assert len(every_cell) > 500
    assert on_their_own_line == every_cell
