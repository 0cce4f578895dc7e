"""axe-core (through axe-playwright-python) on the page as it is now: a serious or critical
violation fails the test with axe's own report; every check's counts by impact are written to
tests/web/screenshots/axe-<name>.txt beside the screenshots, for review."""
from __future__ import annotations

from collections import Counter

from axe_playwright_python.sync_playwright import Axe

from .conftest import SCREENSHOTS

BLOCKING = ("serious", "critical")
_AXE = Axe()


def no_serious_violations(page, name: str) -> Counter:
    """Run axe on `page` once no command is settling; fail on any serious or critical violation;
    return the counts by impact."""
    page.wait_for_function("() => !document.querySelector('[aria-busy=true]')")
    results = _AXE.run(page)
    violations = results.response["violations"]
    counts = Counter(v["impact"] for v in violations)
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / f"axe-{name}.txt").write_text(results.generate_snapshot() + "\n")
    blocking = [v for v in violations if v["impact"] in BLOCKING]
    assert not blocking, f"axe on {name} ({page.url}):\n" + "\n".join(
        results.generate_report(v["id"]) for v in blocking)
    return counts
