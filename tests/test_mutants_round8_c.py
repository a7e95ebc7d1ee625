"""Tests that kill survivors of the eighth mutation-testing round (helper c: mechanics, partnership,
encoding, table, web): internal promises, each stated in the module that makes it, and each docstring
names the code mistake it catches."""

from __future__ import annotations

import pytest

from conformance.play import rules
from conformance.test_climbing_tricks import cl, text


def _climbing(beats: str, params: str = "{}"):
    """The compiled `climbing` section of a two-player game of singles and pairs with this `beats`."""
    r = rules(text(cl("sizes: [1, 2]\nfirst_leader: dealer", "beats: " + beats), extra="params: " + params))
    return r.new_game(seed=0).prog.climbing


@pytest.mark.parametrize("beats,params,same", [
    ("play.size == last.size and play.rank > last.rank", "{}", True),
    ("play.rank > last.rank and play.size == last.size", "{}", True),
    ("play.rank > last.rank and play.rank > 0", "{}", False),
    ("play.size == last.size or play.rank > last.rank", "{}", False),
    ("play.size == last.size and play.rank > last.rank or last.size == play.size", "{}", True),
    ("params.any or play.size == last.size and play.rank > last.rank", "{any: false}", True),
    ("params.any or play.size == last.size and play.rank > last.rank", "{any: true}", False),
    ("if params.strict then play.size == last.size and play.rank > last.rank else play.rank > last.rank",
     "{strict: true}", True),
    ("if params.strict then play.size == last.size and play.rank > last.rank else play.rank > last.rank",
     "{strict: false}", False),
    ("if params.strict then play.rank > last.rank else play.size == last.size", "{strict: true}", False),
    ("if params.strict then play.rank > last.rank else play.size == last.size", "{strict: false}", True),
    ("if last.rank > 2 then play.size == last.size else last.size == play.size and play.rank > 0", "{}", True),
    ("if last.rank > 2 then play.size == last.size else play.rank > 0", "{}", False),
])
def test_beats_that_needs_the_same_size_lists_only_that_size(beats, params, same):
    """mechanics/climbing/compile.py: ``same_size`` says whether `beats` can hold only when `play.size ==
    last.size` with the parameters in force (then the phase lists only plays of the last play's size, the
    hot loop's shortcut, and a hand past the 4,000-candidate cap is enumerated for that size alone).  An
    `and` needs it of either side, an `or` of both, an `if` of the branch a parameter picks (else of both);
    a parameter folds its branch away.  Catches `_same_size` reading the wrong side of an `and` (`a[0]` ->
    `a[-1]`): `play.size == last.size and ...` then loses the shortcut; and the wrong branch of an `if` a
    parameter decides (`a[1] if cond else a[2]` -> `a[2] if ...`)."""
    assert _climbing(beats, params).same_size is same


NAMING = """
name: naming a suit
players: 2
deck: {ranks: [3, 4, 5, 6, 8], suits: [S, H, D]}
zones:
  stock: {visible: none}
  hand: {per: player, visible: owner}
  discard: {visible: top}
  played: {visible: all}
deal: [{deal: 4, to: hand}, {turn_up: discard}]
climbing:
  to: discard
  plays: {single: {kind: set, min: 1, max: 1}}
  beats: 'play.suit == last.suit or play.rank_name == last.rank_name or play.rank_name == "8"'
  names_suit: play.rank_name == "8"
  first_leader: next_seat(dealer)
  pass_when: not can_play
scoring: {each_player: count(player.hand)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


def test_the_greedy_bot_names_the_suit_it_holds_most_of_apart_from_the_play():
    """mechanics/climbing/greedy.py: "a play that names a suit names the one the seat holds most of".
    Seat 1 holds 8H 3S 4S 5H against a 6D: only the 8 plays, and of the other cards two are spades and
    one a heart, so every seed names spades.  Catches `_named` counting the card being played too
    (`not in played and` -> `or`): hearts then tie with spades and some seeds name hearts."""
    from conformance.play import dealt, game
    from rulesdsl.bots import make_bot

    deck = [r + s for s in "SHD" for r in ("3", "4", "5", "6", "8")]
    stacked = dealt({1: ["8H", "3S", "4S", "5H"], 0: ["3H", "4H", "3D", "4D"]}, deck, then=["6D"])
    named = set()
    for seed in range(12):
        g = game(NAMING, stacked, dealer=0)
        assert g.current_player == 1 and sorted(str(a) for a in g.legal_actions()) == [
            "play 8H name D", "play 8H name H", "play 8H name S"]
        named.add(str(make_bot("greedy", seed=seed).choose(g)))
    assert named == {"play 8H name S"}


def _rulebook(name: str, **overrides) -> str:
    import rulesdsl
    from rulesdsl.rulebook import base_of, render

    r = rulesdsl.load(name, overrides or None)
    return render(r, "md", base_of(r))


def test_a_trick_games_rulebook_says_how_play_goes():
    """`rulesdsl rulebook` (docs/authoring.md): the Tricks section of a trick game lists its rules: one
    card each from the hand to the trick, following suit (Hearts follows, the default), and who takes
    the trick.  Catches mechanics/tricks/rulebook.py leaving the list out (`blocks.append(bullets(...))`
    dropped): the section says only "How play goes:"."""
    md = _rulebook("hearts")
    tricks = md.split("## Tricks", 1)[1].split("\n## ", 1)[0]
    assert "- Each player in turn plays one card from their `hand` to the `trick`." in tricks
    assert "- A player who can follow the suit led must do so." in tricks
    assert "takes the trick" in tricks


def test_a_climbing_rulebook_tells_of_draws_owed_only_when_a_play_can_owe_them():
    """`rulesdsl rulebook`: "a clause the parameters switch off is left out".  Crazy Eights' `next_draws` is
    0 unless `twos_draw_two` is on, so the rule that the next player must draw is written only then.
    Catches mechanics/climbing/rulebook.py testing the constant the wrong way (`!= 0` -> `== 0`)."""
    assert "must draw" not in _rulebook("crazy_eights")
    assert "the next player must draw 2" in _rulebook("crazy_eights", twos_draw_two=True)


def test_the_web_lobby_keeps_at_most_200_games():
    """docs/web.md, limits: "at most 200 games (the oldest finished one is forgotten first)".
    201 games made from the start page: 200 are kept, and the first one's links open nothing.  Catches
    rulesdsl/web/lobby.py `MAX_GAMES` off by one (200 -> 201)."""
    from rulesdsl.web.lobby import Lobby

    lobby = Lobby()
    made = [lobby.create("gin_rummy", ["human", "human"], seed=i) for i in range(201)]
    assert len(lobby.games) == 200
    assert made[0].id not in lobby.games and lobby.seat_of(made[0].token_of(0)) is None
    assert all(r.id in lobby.games for r in made[1:])


def test_a_long_list_of_moves_fills_each_row_as_far_as_the_width_allows():
    """rulesdsl/table/terminal.py `actions_list`: past 12 moves the numbered moves are laid out in columns,
    each as wide as the widest item and three spaces, after a two-space indent, as many to a row as fit
    the terminal's width.  13 moves whose widest item is 14 characters (`13. discard 2H`: cells of 17) on a
    width of exactly 2 + 3 x 17 = 53 sit three to a row (five rows), no row wider than 53.  Catches the columns counted
    against one character less (`(width - 2) // cell` -> `(width - 3)`): two to a row."""
    from rulesdsl.table.terminal import actions_list, to_text

    moves = [f"discard {c}" for c in ("2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "JS", "QS", "KS", "AS", "2H")]
    assert max(len(f"{i}. {m}") for i, m in enumerate(moves, 1)) == 14
    lines = to_text(actions_list(moves, width=53), width=200).splitlines()
    assert lines[0] == "Your move:"
    rows = lines[1:]
    assert len(rows) == 5 and all(len(r) <= 53 for r in rows)
    assert rows[0].split() == ["1.", "discard", "2S", "2.", "discard", "3S", "3.", "discard", "4S"]
    assert rows[-1].split() == ["13.", "discard", "2H"]


def test_run_bots_stops_when_a_person_is_on_turn_and_returns_only_the_moves_made():
    """docs/api.md: `table.run_bots()` -- "bots move until a person is on turn (or the match ends)"; it returns
    the moves made, one event each.  With a person on turn at once it returns nothing; in a Gin game of a
    bot and a person, every event is a bot's move, numbered as the game's history, and then the person is
    on turn.  Catches rulesdsl/table/session.py `run_bots` not stopping when no bot is on turn (the `break`
    dropped): it then returns its whole limit of empty entries."""
    import rulesdsl
    from rulesdsl.table import Table

    people = Table.new(rulesdsl.load("gin_rummy"), ["human", "human"], seed=1)
    assert people.run_bots() == []
    table = Table.new(rulesdsl.load("gin_rummy"), ["greedy", "human"], seed=0)
    assert table.to_move == 0                      # with this seed the bot is on turn first
    before = len(table.game.history)
    done = table.run_bots()
    assert done and all(e is not None and e.seat == 0 for e in done)
    assert [e.index for e in done] == list(range(before, len(table.game.history)))
    assert table.to_move == 1
