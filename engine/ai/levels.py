"""The computer's levels, from a beginner who makes natural mistakes to the strongest this machine
affords: each is a move policy's style and, from the third up, a search budget in simulations.
The master's budget also caps the positions it judges (search.Budget.steps, about 1.5 times its
median decision's), so its dearest decisions stay near its typical ones whatever the clock says."""
from __future__ import annotations

from dataclasses import dataclass

from .policy import Style
from .search import Budget


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    about: str
    style: Style
    budget: Budget | None = None            # None: the policy plays alone, without search

    def describe(self) -> dict[str, object]:
        """The level as GET /vocabulary lists it."""
        return {"level": self.number, "name": self.name, "about": self.about,
                "simulations": self.budget.simulations if self.budget else 0}


LEVELS: dict[int, Level] = {level.number: level for level in (
    Level(1, "beginner", "plays the first idea that looks good, and often misses a summoning",
          Style(width=3, places=2, noise=0.35, blur=0.08, ready=False)),
    Level(2, "casual", "looks one command ahead, with the odd slip", Style(width=6, places=4, noise=0.08, blur=0.03)),
    Level(3, "club", "plans whole turns and looks at the reply", Style(), Budget(simulations=12)),
    Level(4, "expert", "searches whole turns against many guesses of the hidden cards", Style(), Budget(simulations=48)),
    Level(5, "master", "the strongest search this server affords", Style(), Budget(simulations=128, steps=4500)),
)}
CHEAPEST = min(LEVELS)
STRONGEST = max(LEVELS)


def described_levels() -> list[dict[str, object]]:
    """Every level as GET /vocabulary lists it, cheapest first."""
    return [LEVELS[number].describe() for number in sorted(LEVELS)]
