"""Rule errors: a stable machine code, the rule it comes from, and words a player can read."""
from __future__ import annotations


class RuleError(Exception):
    """A command the rules refuse. Nothing changes when one is raised.

    `code` is stable (clients and the HTTP layer switch on it); `rule` names the rule, e.g.
    "RULES 5.3 being square"; `malformed` marks commands that are not even well formed.
    """

    def __init__(self, code: str, message: str, rule: str = "", malformed: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.malformed = malformed

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "rule": self.rule}


def malformed(message: str) -> RuleError:
    return RuleError("malformed_command", message, "command format", malformed=True)
