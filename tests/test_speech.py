"""Speech says cards in words (issue 15, finding 9): "king of hearts", never "K♥" read out as
"kay heart suit"; cup names and straights are said as ranks in words."""

from __future__ import annotations

import re

import pytest

from companion.referee import GAME_MODULES, find_simulator, replay_dicts
from ui.speech import Speaker, speech_text

SUITS = re.compile(r"[♣♦♥♠]")


def test_cards_and_rank_runs_are_said_in_words() -> None:
    assert speech_text("Next: K♥") == "Next: king of hearts"
    assert speech_text("Cy wins 10♦: 4 chips. Sequence stopped at 7♣.") == (
        "Cy wins ten of diamonds: 4 chips. Sequence stopped at seven of clubs.")
    assert speech_text("Ann wins 8-9-10 any one suit: 4 chips") == (
        "Ann wins eight nine ten any one suit: 4 chips")
    assert speech_text("Wanagan, 4-6-8-10-Q (10♦ as 6)") == (
        "Wanagan, four six eight ten queen (ten of diamonds as 6)")
    assert speech_text("Straight (A♠ K♠ Q♦)") == (
        "Straight (ace of spades, king of spades, queen of diamonds)")
    # words, numbers and names that are not cards are left alone
    assert speech_text("Round 2 of 5: Bob deals, Jackpot 5 chips.") == (
        "Round 2 of 5: Bob deals, Jackpot 5 chips.")
    assert speech_text("Ace-2 and 6 Lead") == "Ace-2 and 6 Lead"


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
def test_no_announcement_of_a_whole_game_is_said_with_a_suit_symbol(game: str) -> None:
    events = find_simulator(game)(players=["Ann", "Bob", "Cy"], rounds=None, seed=3,
                                  hidden=False, mistakes=0.1, chips=None, game=game)
    said = [speech_text(a["text"]) for a in replay_dicts(events).report()["announcements"]]
    assert said and [s for s in said if SUITS.search(s)] == []


def test_the_speaker_says_and_records_words() -> None:
    speaker = Speaker(enabled=True, allow_qt=False)
    speaker._backend = "silent"  # record what would be said, make no sound in tests
    speaker.say("Next: K♥")
    assert speaker.spoken == ["Next: king of hearts"]
