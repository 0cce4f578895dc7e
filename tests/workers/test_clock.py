"""The clock is a pure fold over one Mark per batch: deadlines and banks from recorded times only."""
from __future__ import annotations

from events.clocks import Clock, Mark, TimeControl, deadline, fold, format_epoch, parse_time, reminder, view

T0 = parse_time("2030-01-01T12:00:00.000000Z")
MOVE = TimeControl("move", 60)
BANK = TimeControl("bank", 100, increment=10)


def mark(first: int, at: float, seat: int | None, turn: int, over: bool = False, last: int | None = None) -> Mark:
    return Mark(first, last or first, format_epoch(T0 + at), seat, turn, 2, over)


def test_a_per_move_deadline_is_the_recorded_start_of_the_wait_plus_the_limit():
    clock = fold(Clock(), [mark(1, 0, 1, 0, last=12)], MOVE)
    assert (clock.seat, clock.wait, clock.since) == (1, 1, T0)
    assert deadline(clock, MOVE) == T0 + 60


def test_a_new_wait_begins_when_another_seat_is_waited_for_and_is_named_by_its_first_version():
    clock = fold(Clock(), [mark(1, 0, 1, 0, last=12), mark(13, 5, 0, 1, last=19)], MOVE)
    assert (clock.seat, clock.wait, deadline(clock, MOVE)) == (0, 13, T0 + 65)


def test_more_commands_by_the_same_seat_in_the_same_turn_keep_the_wait():
    clock = fold(Clock(), [mark(1, 0, 0, 1), mark(2, 30, 0, 1), mark(3, 50, 0, 1)], MOVE)
    assert (clock.wait, deadline(clock, MOVE)) == (1, T0 + 60)


def test_an_extra_turn_of_the_same_seat_is_a_new_wait():
    clock = fold(Clock(), [mark(1, 0, 0, 1), mark(2, 30, 0, 2)], MOVE)
    assert (clock.wait, deadline(clock, MOVE)) == (2, T0 + 90)


def test_a_bank_loses_the_time_used_and_gains_the_increment_when_the_wait_ends():
    clock = fold(Clock(), [mark(1, 0, 0, 1), mark(2, 30, 1, 2), mark(3, 35, 0, 3)], BANK)
    assert clock.banks == [80.0, 100.0]              # 100 - 30 + 10; 100 - 5 + 10 capped at 100
    assert deadline(clock, BANK) == T0 + 35 + 80


def test_a_bank_that_ran_out_holds_only_the_increment():
    clock = fold(Clock(), [mark(1, 0, 0, 1), mark(2, 130, 1, 2)], BANK)
    assert clock.banks[0] == 10.0


def test_once_over_nobody_is_waited_for_and_there_is_no_deadline():
    clock = fold(Clock(), [mark(1, 0, 0, 1), mark(2, 10, None, 1, over=True)], MOVE)
    assert clock.over and clock.seat is None and deadline(clock, MOVE) is None


def test_no_time_control_means_no_deadline_but_the_waits_are_still_followed():
    none = TimeControl.from_info({"kind": "none"})
    clock = fold(Clock(), [mark(1, 0, 1, 0), mark(5, 3, 0, 1)], none)
    assert (clock.seat, clock.wait, deadline(clock, none), view(clock, none, T0)) == (0, 5, None, None)


def test_folding_in_steps_gives_the_clock_folded_at_once():
    marks = [mark(1, 0, 1, 0), mark(4, 7, 0, 1), mark(6, 9, 0, 1), mark(8, 40, 1, 2), mark(9, 41, 0, 3)]
    step = Clock()
    for m in marks:
        step = Clock.from_json(fold(step, [m], BANK).to_json())          # cached as JSON between steps
    assert step == fold(Clock(), marks, BANK)
    assert fold(step, marks, BANK) == step                             # folding again changes nothing


def test_the_reminder_comes_at_eighty_percent_of_the_time_the_wait_had():
    clock = fold(Clock(), [mark(1, 0, 0, 1)], MOVE)
    assert reminder(clock, MOVE) == T0 + 48


def test_the_view_shows_the_deadline_and_each_seats_time_left():
    clock = fold(Clock(), [mark(1, 0, 0, 1), mark(2, 30, 1, 2)], BANK)
    shown = view(clock, BANK, T0 + 50)
    assert shown["waiting_for"] == 1 and shown["deadline"] == format_epoch(T0 + 130)
    assert [s["remaining"] for s in shown["seats"]] == [80.0, 80.0]


def test_time_controls_are_read_from_the_roster():
    assert TimeControl.from_info(None) == TimeControl()
    assert TimeControl.from_info({"kind": "bank", "seconds": 600, "increment": 30, "zombie_after": 2}) == \
        TimeControl("bank", 600, 30, 2)
