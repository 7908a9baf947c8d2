"""Which turn in line takes the next free guest place: a turn whose own guest process is idle goes
first, spare places go to the first turn with no home, a turn whose home is busy waits for it
while places are held and at most 32 turns pass it, and with no homes the line is first come,
first served. A turn waits 50 ms at most for its own busy guest. Whenever a place is free and no
place is held, some turn is seated."""

from __future__ import annotations

import itertools

from gg.agents.seats import Places, Waiting, seat


def test_with_no_homes_the_first_in_line_takes_the_place() -> None:
    assert seat([Waiting(), Waiting()], Places(free=1, slots=4)) == 0


def test_no_turn_is_seated_without_a_free_place() -> None:
    assert seat([Waiting(), Waiting("p")], Places(free=0, slots=4, idle={"p"})) is None


def test_a_turn_whose_home_is_idle_goes_ahead_of_turns_before_it() -> None:
    line = [Waiting(), Waiting("q"), Waiting("p")]
    assert seat(line, Places(free=1, slots=4, idle={"p"})) == 2


def test_of_the_turns_sharing_an_idle_home_the_first_goes() -> None:
    assert seat([Waiting("q"), Waiting("p"), Waiting("p")], Places(free=1, slots=4, idle={"p"})) == 1


def test_a_place_beyond_the_idle_homes_goes_to_the_first_turn_with_no_home() -> None:
    line = [Waiting("q"), Waiting(), Waiting("p")]
    assert seat(line, Places(free=1, slots=4, idle={"p"})) == 2  # the one place is p's
    assert seat(line, Places(free=2, slots=4, idle={"p"})) == 1  # one to spare


def test_a_turn_whose_home_is_busy_waits_while_places_are_held() -> None:
    assert seat([Waiting("q")], Places(free=3, slots=4, idle={"p"})) is None


def test_with_no_place_held_the_first_turn_goes_whatever_its_home() -> None:
    assert seat([Waiting("q"), Waiting("r")], Places(free=4, slots=4, idle={"p"})) == 0


def test_a_turn_passed_32_times_takes_the_next_place() -> None:
    places = Places(free=1, slots=4, idle={"p"})
    assert seat([Waiting("q", passed=31), Waiting("r")], places) is None
    assert seat([Waiting("q", passed=32), Waiting("r")], places) == 0
    assert seat([Waiting("q", passed=32), Waiting("p")], places) == 0  # ahead of an idle home too


def test_a_turn_that_waited_50_ms_for_its_own_guest_takes_the_next_place() -> None:
    line = [Waiting("q", since=10.0), Waiting("r", since=10.0)]
    assert seat(line, Places(free=1, slots=4, idle={"p"}, now=10.049)) is None
    assert seat(line, Places(free=1, slots=4, idle={"p"}, now=10.05)) == 0


def test_some_turn_is_seated_whenever_no_place_is_held() -> None:
    homes = [None, "p", "q"]
    for length in range(1, 4):
        for line_homes in itertools.product(homes, repeat=length):
            for idle in ({"p"}, {"q"}, {"p", "q"}, set()):
                line = [Waiting(home) for home in line_homes]
                assert seat(line, Places(free=2, slots=2, idle=idle)) is not None, (line_homes, idle)
