"""A compact text notation of the board, like chess FEN, used by tests, logs and error messages.

Nine rows from top (row 1) to bottom (row 9), separated by '/'. Each row lists its squares left to
right: a digit is a run of empty squares; a piece is its colour's letter (a = colour 0, b, c, d),
lower case for common, upper case for heroic, upper case followed by '*' for legendary.
Example: the duel start position is "5/7/9/9/2a3b2/9/9/7/5".
"""
from __future__ import annotations

from .geometry import COORD, SQUARES
from .shapes import Board
from .state import COMMON, HEROIC, LEGENDARY

LETTERS = "abcd"
ROWS = [[sq for sq in SQUARES if COORD[sq][1] == y] for y in range(1, 10)]


def _token(color: int, rank: int) -> str:
    letter = LETTERS[color]
    return {COMMON: letter, HEROIC: letter.upper(), LEGENDARY: letter.upper() + "*"}[rank]


def to_text(board: Board) -> str:
    """Notation of a board {square: [piece id, colour, rank]}."""
    rows = []
    for row in ROWS:
        out, empty = "", 0
        for sq in row:
            if sq in board:
                if empty:
                    out += str(empty)
                    empty = 0
                out += _token(board[sq][1], board[sq][2])
            else:
                empty += 1
        rows.append(out + (str(empty) if empty else ""))
    return "/".join(rows)


def from_text(text: str) -> dict[str, tuple[int, int]]:
    """{square: (colour, rank)} from the notation; ValueError names what is wrong."""
    rows = text.strip().split("/")
    if len(rows) != 9:
        raise ValueError("board notation needs 9 rows separated by '/'")
    out: dict[str, tuple[int, int]] = {}
    for y, (row, squares) in enumerate(zip(rows, ROWS), start=1):
        i, k = 0, 0
        while k < len(row):
            ch = row[k]
            if ch.isdigit():
                i += int(ch)
                k += 1
                continue
            if ch.lower() not in LETTERS:
                raise ValueError(f"row {y}: unexpected {ch!r}")
            legendary = ch.isupper() and row[k + 1:k + 2] == "*"
            rank = LEGENDARY if legendary else HEROIC if ch.isupper() else COMMON
            if i >= len(squares):
                raise ValueError(f"row {y} is longer than its {len(squares)} squares")
            out[squares[i]] = (LETTERS.index(ch.lower()), rank)
            i += 1
            k += 2 if legendary else 1
        if i != len(squares):
            raise ValueError(f"row {y} describes {i} squares, it has {len(squares)}")
    return out
