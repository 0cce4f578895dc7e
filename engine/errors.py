"""Rule errors: a stable machine code, the rule it comes from, and words a player can read.

ERROR_CODES is the catalogue of every code the engine raises, each with when it is raised; the
HTTP layer publishes it (the OpenAPI document, GET /vocabulary) and a test holds the engine's
`RuleError(...)` calls to it, so a client can switch on any code it may meet.
"""
from __future__ import annotations

from typing import Any

ERROR_CODES: dict[str, str] = {
    # a command or game options that are not even well formed
    "malformed_command": "the command (or the game's options) is not well formed: a field is missing or of the wrong kind",
    "unknown_form": "the form is not one of the forms",
    "wrong_player_count": "the form is not played by that many players",
    "teams_not_available": "team play was asked for a form without teams",
    "unknown_school": "a seat names no school",
    "school_not_available": "a seat names a school this server does not offer",
    "duplicate_school": "two seats name the same school",
    "mixed_school_choice": "some seats but not all ask for school bans or mutual selection (or each for another)",
    "too_many_players_for_bans": "with bans, too few schools would be left for every player (four players)",
    # whose move it is
    "game_over": "the game has ended",
    "not_your_turn": "another seat is to act",
    "not_your_decision": "another seat must answer the pending decision",
    "decision_pending": "a pending decision must be answered first",
    "no_decision_pending": "an answer was sent but no decision is pending",
    "not_an_option": "the answer is not one of the pending decision's options",
    "step_not_optional": "'skip' was sent for a mandatory step",
    "places_only": "on a teammate's turn only place actions may be taken",
    # actions
    "no_actions_left": "no action is left this turn",
    "actions_left": "the turn cannot end while actions are left",
    "square_occupied": "the place action needs an empty square",
    "card_not_in_hand": "the card is not in the seat's hand",
    "not_a_being": "only beings and legends are summoned",
    "being_square_blocked": "the being square holds a piece of higher rank than the being",
    "pattern_not_matched": "the being's pattern does not fit there",
    "piece_shortage": "no piece of the needed kind is in supply and none can be picked up",
    "improvisation_not_available": "improvised summoning exists only in a melee",
    "improvisation_used": "the improvised summoning with that colour was used",
    "discard_used": "the discard action was used this turn",
    "not_a_school_being": "only a being of the school deck can be discarded",
    "not_a_flare": "the card is not a flare",
    "flare_criteria_not_met": "neither criterion of the flare is met",
    "flares_closed": "no flare may be invoked now (control was passed)",
    "choose_opponent": "a melee flare needs the opponent it compares with ('against')",
    "no_tasks": "tasks are claimed only in High Form",
    "task_not_current": "the task is not one of the current tasks",
    "task_not_met": "the task's criterion is not met",
    "resign_not_allowed": "players may not resign in a melee",
    # team play
    "no_teammate": "only a team game has a teammate to pass control to",
    "cannot_pass_control": "control may be passed once, on one's own turn, before the actions are spent",
    # the expansions
    "nothing_frozen": "no frozen effect is in play (Everfrost)",
    "thaw_closed": "the frozen effect cannot be thawed now (Everfrost)",
    "no_warp_effect": "the card has no warp effect (Etherweave)",
    "warp_first_round": "no warp may be played in the first round (Etherweave)",
    "warps_closed": "no warp may be played now (control was passed) (Etherweave)",
    "pending_being_exists": "a pending being is already waiting (Etherweave)",
    "pending_being": "the pending being can be neither discarded nor returned (Etherweave)",
    # undo and redo within a turn
    "no_undo": "nothing can be taken back now: only the seat deciding, within its turn, never past a draw, a shuffle "
               "or another seat's decision",
    "no_redo": "there is no step taken back to play again",
    # the clock
    "not_timed_out": "only the seat the game waits for can time out",
    "no_abandoned_opponent": "the win may be claimed only when the other side has abandoned",
}


# Said when a command names a card id the game does not know (a client bug or a stale page).
NO_SUCH_CARD = "That is not a card of this game; choose one of the cards you hold."


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

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "rule": self.rule}


def malformed(message: str) -> RuleError:
    return RuleError("malformed_command", message, "command format", malformed=True)
