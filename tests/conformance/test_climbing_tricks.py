"""Conformance: climbing play, tricks and hooks (docs/language.md, "`climbing`: beat (or match) the last
play, draw, or pass" and "Trick state, opening play and going-out hooks").

Each test plays a tiny ruleset (ranks 3..6, suits S and H unless said) on a stacked deal and checks the
exact legal plays, who is on turn, where the cards went and the finishing order.  Cards are dealt one at
a time from the dealer's left, so with dealer 0 and two players seat 1 gets deck[0], deck[2], ...
"""

from __future__ import annotations

import textwrap
from string import Template

import pytest

from conformance.keys import documents
from conformance.play import dealt, game, legal, refusal

BASE = Template("""
name: climb
players: $players
deck: {ranks: [$ranks], suits: [$suits]$deck_extra}
zones:
  stock: {visible: none}
  hand: {per: player, visible: owner}
  trick: {visible: all}
  played: {visible: all}
$zones_extra
deal: [{deal: $per, to: $deal_to}]
climbing:
$climbing
$extra
scoring: {each_player: '$scoring'}
match: {ends_when: deal.number >= $deals, on_tie: shared, next_dealer: dealer}
""")


def text(climbing: str, players: int = 2, ranks: str = "3, 4, 5, 6", suits: str = "S, H", per: int = 3,
         extra: str = "", zones_extra: str = "", deck_extra: str = "", deal_to: str = "hand",
         scoring: str = "0", deals: int = 1) -> str:
    body = textwrap.indent(textwrap.dedent(climbing).strip("\n"), "  ")
    return BASE.substitute(players=players, ranks=ranks, suits=suits, per=per, climbing=body, extra=extra,
                           zones_extra=zones_extra, deck_extra=deck_extra, deal_to=deal_to, scoring=scoring,
                           deals=deals)


def cl(*parts: str) -> str:
    """A `climbing:` body from pieces, each dedented on its own."""
    return "".join(textwrap.dedent(p).strip("\n") + "\n" for p in parts)


def stack(hands: dict, deck: list, dealer: int = 0, rest_first: tuple = ()) -> list:
    """A deck (top first) dealing ``hands[seat]`` one card at a time from the dealer's left; the cards
    ``rest_first`` then top the stock, and the rest of ``deck`` follows."""
    return dealt(hands, deck, dealer, rest_first)


DECK = [r + s for s in "SH" for r in "3456"]
DECK3 = [r + s for s in "SHC" for r in "3456"]


def ranks_of(g) -> list:
    """The legal actions with each play written as its ranks ("play 4S 4H" -> "4 4"): where no rule
    reads a suit, one play per choice of ranks is listed (docs: "Which plays are listed")."""
    out = []
    for a in legal(g):
        if a.startswith("play "):
            out.append(" ".join(sorted(c[:-1] for c in a.split()[1:])))
        else:
            out.append(a)
    return sorted(out)


def plays(g) -> list:
    """The legal actions, sorted, each play's cards sorted (the order cards are named in is no part of a play)."""
    return sorted(" ".join(a.split()[:1] + sorted(a.split()[1:])) for a in legal(g))


PLAIN = """
sizes: [1, 2]
beats: play.size == last.size and play.rank > last.rank
first_leader: dealer
"""


@documents("climbing", "climbing.sizes", "climbing.beats", "climbing.first_leader")
def test_a_trick_beats_the_last_play_until_the_others_pass_and_its_last_player_leads():
    """`first_leader` leads; leading, any combination may be played (a lead is never passed); `sizes: [1, 2]`
    is one or two cards of one rank; otherwise `beats` decides.  A trick ends when every other active
    player has passed since the last play; its last player leads.  The hand ends when one player still
    holds cards."""
    g = game(text(PLAIN, scoring="if count(player.hand) == 0 then 1 else 0"),
             stack({0: ["3S", "3H", "5S"], 1: ["4S", "4H", "6S"]}, DECK), dealer=0)
    assert g.current_player == 0                                  # first_leader: dealer
    assert ranks_of(g) == ["3", "3 3", "5"]                       # no pass on a lead
    g.apply("play 3S")
    assert g.current_player == 1
    assert ranks_of(g) == ["4", "6", "pass"]                      # the pair 4 4 is not the same size
    g.apply("play 4S")
    assert ranks_of(g) == ["5", "pass"]                           # 3H is no higher than 4
    g.apply("play 5S")
    assert ranks_of(g) == ["6", "pass"]
    g.apply("pass")                                               # the only other player passed
    assert g.current_player == 0 and ranks_of(g) == ["3"]         # seat 0 made the last play: it leads
    v = g.view(0)["zones"]
    assert v["trick"]["cards"] == [] and sorted(v["played"]["cards"]) == ["3S", "4S", "5S"]
    g.apply("play 3H")                                            # seat 0 is out: one player holds cards
    assert g.is_over and g.scores == [1, 0]


@documents("climbing.sizes")
def test_sizes_bounds_the_cards_of_one_rank_in_a_play():
    """`sizes: [1, 4]` is shorthand for one set pattern of 1..4 cards of one rank; `[1, 1]` allows singles only."""
    hands = {0: ["3S", "3H", "5S"], 1: ["4S", "4H", "6S"]}
    g = game(text(PLAIN.replace("[1, 2]", "[1, 1]")), stack(hands, DECK), dealer=0)
    assert ranks_of(g) == ["3", "5"]
    assert "E-CLIMB-SIZES" in refusal(text(PLAIN.replace("[1, 2]", "[1, 3]")))   # 3 of a rank: the deck has 2


@documents("climbing.sizes")
@pytest.mark.parametrize("bad", ["copies: 1.5", "jokers: 1.5"])
def test_sizes_are_not_checked_against_a_deck_that_is_itself_wrong(bad):
    """A deck whose size is refused is reported once: no `sizes` error is built on a count it never has."""
    out = refusal(text(PLAIN.replace("[1, 2]", "[1, 4]"), deck_extra=", " + bad))
    assert "E-DECK" in out and "E-CLIMB-SIZES" not in out, out


@documents("climbing.order")
def test_order_ranks_low_to_high_for_beating():
    """`order` lists the ranks low to high for beating (default: the deck's ranks)."""
    rules = PLAIN + "order: [4, 5, 6, 3]\n"                       # the 3 is now the highest
    g = game(text(rules), stack({0: ["6S", "3H", "5S"], 1: ["4S", "3S", "6H"]}, DECK), dealer=0)
    g.apply("play 6S")
    assert ranks_of(g) == ["3", "pass"]
    g = game(text(PLAIN), stack({0: ["6S", "3H", "5S"], 1: ["4S", "3S", "6H"]}, DECK), dealer=0)
    g.apply("play 5S")
    assert ranks_of(g) == ["6", "pass"]                           # default order: 3 is lowest


ZONES = """
  pile: {visible: all}
  done: {visible: all}
  tableau: {per: player, visible: all}
"""


@documents("climbing.to", "climbing.cleared_to", "climbing.play_from")
def test_plays_come_from_play_from_go_to_to_and_a_finished_trick_to_cleared_to():
    """A play comes from the per-player zone `play_from` (default `hand`) onto the table zone `to`; a
    finished trick's cards go to the table zone `cleared_to` (default `played`)."""
    rules = PLAIN + "to: pile\ncleared_to: done\nplay_from: tableau\n"
    g = game(text(rules, zones_extra=ZONES, deal_to="tableau"),
             stack({0: ["3S", "5H", "6H"], 1: ["4S", "5S", "6S"]}, DECK), dealer=0)
    assert g.hand_of(0) == [] and sorted(g.view(0)["zones"]["tableau"][0]["cards"]) == ["3S", "5H", "6H"]
    assert ranks_of(g) == ["3", "5", "6"]
    g.apply("play 3S")
    g.apply("play 5S")
    v = g.view(0)["zones"]
    assert v["pile"]["cards"] == ["3S", "5S"] and v["trick"]["cards"] == [] and v["done"]["cards"] == []
    g.apply("pass")                                               # seat 1 leads the next trick
    v = g.view(0)["zones"]
    assert v["pile"]["cards"] == [] and sorted(v["done"]["cards"]) == ["3S", "5S"]
    assert v["played"]["cards"] == []
    assert g.current_player == 1


@documents("climbing.takes_last_rank")
def test_takes_last_rank_makes_the_play_hold_the_rank_it_beat():
    """`takes_last_rank`: the play then holds the rank it beat (a 3 that beats a 5 counts as a 5)."""
    rules = """
    sizes: [1, 1]
    beats: play.rank > last.rank or play.rank_name == "3"
    takes_last_rank: play.rank_name == "3"
    first_leader: dealer
    """
    g = game(text(rules), stack({0: ["5S", "4H", "6H"], 1: ["3S", "4S", "6S"]}, DECK), dealer=0)
    g.apply("play 5S")
    assert ranks_of(g) == ["3", "6", "pass"]
    g.apply("play 3S")                                            # now counts as a 5
    assert ranks_of(g) == ["6", "pass"]                           # 4H no longer beats it
    assert g.view(0)["trick"]["to_beat_rank"] == "5"


@documents("climbing.skip_next")
def test_skip_next_skips_the_next_active_player():
    """`skip_next`: after this play the next active player is skipped."""
    rules = """
    sizes: [1, 1]
    beats: play.rank > last.rank
    skip_next: play.rank_name == "4"
    first_leader: dealer
    """
    hands = {0: ["3S", "6C", "5H"], 1: ["4S", "6S", "5S"], 2: ["3H", "6H", "5C"]}
    g = game(text(rules, players=3, suits="S, H, C"), stack(hands, DECK3), dealer=0)
    g.apply("play 3S")
    assert g.current_player == 1
    g.apply("play 4S")                                            # seat 2 is skipped
    assert g.current_player == 0
    g.apply("play 5H")                                            # a 5 skips no one
    assert g.current_player == 1


@documents("climbing.clears_trick")
def test_clears_trick_ends_the_trick_at_once_and_its_player_leads():
    """`clears_trick`: the trick ends at once (the player who made it leads the next)."""
    rules = """
    sizes: [1, 1]
    beats: play.rank > last.rank
    clears_trick: play.rank_name == "5"
    first_leader: dealer
    """
    g = game(text(rules), stack({0: ["3S", "4H", "6H"], 1: ["5S", "4S", "6S"]}, DECK), dealer=0)
    g.apply("play 3S")
    g.apply("play 5S")
    assert g.current_player == 1 and ranks_of(g) == ["4", "6"]    # a new lead: no pass
    v = g.view(1)["zones"]
    assert v["trick"]["cards"] == [] and sorted(v["played"]["cards"]) == ["3S", "5S"]


ROLES3 = "roles:\n  3: [[First, 2], [Second, 1], [Third, 0]]"


@documents("climbing.goes_last")
def test_going_out_on_a_goes_last_play_finishes_below_the_players_left():
    """`goes_last`: going out with this play finishes last -- below the players left."""
    rules = """
    sizes: [1, 1]
    beats: play.rank > last.rank
    goes_last: play.rank_name == "6"
    first_leader: dealer
    """
    hands = {0: ["6S"], 1: ["3S"], 2: ["4S"]}
    g = game(text(rules, players=3, suits="S, H, C", per=1, extra=ROLES3, scoring="role_points(player)"),
             stack(hands, DECK3), dealer=0)
    g.apply("play 6S")                                            # seat 0 is out, but on a 6
    assert not g.is_over
    g.apply("pass")
    g.apply("pass")
    g.apply("play 3S")                                            # seat 1 out next; seat 2 holds cards
    assert g.is_over and g.scores == [0, 2, 1]                    # order 1, 2, then 0 last
    g = game(text(rules.replace('"6"', '"5"'), players=3, suits="S, H, C", per=1, extra=ROLES3,
                  scoring="role_points(player)"), stack(hands, DECK3), dealer=0)
    g.apply("play 6S")
    g.apply("pass")
    g.apply("pass")
    g.apply("play 3S")
    assert g.is_over and g.scores == [2, 1, 0]


@documents("climbing.pass_locks_out")
def test_a_pass_locks_the_player_out_of_the_trick():
    """`pass_locks_out`: a pass ends your part in the trick (without it a player who passed may play again)."""
    rules = """
    sizes: [1, 1]
    beats: play.rank > last.rank
    first_leader: dealer
    pass_locks_out: %s
    """
    hands = {0: ["3S", "6C", "3C"], 1: ["4S", "6S", "4C"], 2: ["5H", "6H", "5C"]}
    g = game(text(rules % "true", players=3, suits="S, H, C"), stack(hands, DECK3), dealer=0)
    g.apply("play 3S")
    g.apply("pass")                                               # seat 1 is out of this trick
    g.apply("play 5H")
    assert g.current_player == 0
    g.apply("pass")                                               # seat 1 is skipped: the trick ends
    assert g.current_player == 2 and "pass" not in legal(g)
    g = game(text(rules % "false", players=3, suits="S, H, C"), stack(hands, DECK3), dealer=0)
    g.apply("play 3S")
    g.apply("pass")
    g.apply("play 5H")
    g.apply("pass")
    assert g.current_player == 1 and ranks_of(g) == ["6", "pass"]


@documents("climbing.opening_play_includes")
def test_the_first_play_of_the_deal_must_include_the_opening_card():
    """`opening_play_includes`: the first play of the deal must include this card (or `none`: any)."""
    rules = """
    sizes: [1, 2]
    beats: play.size == last.size and play.rank > last.rank
    first_leader: holder("4H")
    opening_play_includes: %s
    """
    hands = {0: ["3S", "4H", "4S"], 1: ["3H", "5S", "6S"]}
    g = game(text(rules % "'\"4H\"'"), stack(hands, DECK, dealer=1), dealer=1)
    assert g.current_player == 0
    assert plays(g) == ["play 4H", "play 4H 4S"]
    refused = g.refusal("play 3S")                                # the refusal names the rule
    assert refused.rule == "opening_play_includes" and "must include 4H" in str(refused)
    g.apply("play 4H 4S")
    g.apply("pass")
    assert sorted(legal(g)) == ["play 3S"]                        # later leads are free
    g = game(text(rules % "none"), stack(hands, DECK, dealer=1), dealer=1)
    assert ranks_of(g) == ["3", "4", "4 4"]


@documents("climbing.ends_when")
def test_the_hand_ends_after_a_play_that_makes_ends_when_true():
    """`ends_when: finished_players >= 1`: the hand ends after a play that makes this true (default: when
    one player is left holding cards)."""
    rules = PLAIN.replace("[1, 2]", "[1, 1]")
    hands = {0: ["3S"], 1: ["4S"], 2: ["5S"]}
    g = game(text(rules + "ends_when: finished_players >= 1\n", players=3, suits="S, H, C", per=1),
             stack(hands, DECK3), dealer=0)
    g.apply("play 3S")
    assert g.is_over
    g = game(text(rules, players=3, suits="S, H, C", per=1), stack(hands, DECK3), dealer=0)
    g.apply("play 3S")
    assert not g.is_over and g.current_player == 1


@documents("climbing.ends_when", "climbing.on_going_out[].when")
def test_ends_when_and_going_out_hooks_read_the_play_just_made():
    """`ends_when` and the `on_going_out` hooks are judged after a play and read it as `play` (the play it
    followed as `last`): here the hand ends only when the one who goes out does so with a 3, and a seat
    going out on a pair drops seat 1 to last."""
    rules = PLAIN.replace("[1, 2]", "[1, 1]") + 'ends_when: finished_players >= 1 and play.rank_name == "3"\n'
    hands = {0: ["3S"], 1: ["4S"], 2: ["5S"]}
    g = game(text(rules, players=3, suits="S, H, C", per=1), stack(hands, DECK3), dealer=0)
    g.apply("play 3S")
    assert g.is_over                                              # out with a 3
    g = game(text(rules, players=3, suits="S, H, C", per=1), stack({0: ["4S"], 1: ["5S"], 2: ["6S"]}, DECK3),
             dealer=0)
    g.apply("play 4S")
    assert not g.is_over and g.current_player == 1                # out with a 4: play on
    hook = """
    on_going_out:
      - {when: 'play.size == 2 and last.size == 0', drops_to_last: 1}
    """
    hands = {0: ["3S", "3H"], 1: ["4S", "6S"], 2: ["5S", "6H"]}
    for when, dropped in (("play.size == 2 and last.size == 0", True), ("play.size == 1", False)):
        g = game(text(cl(PLAIN, hook.replace("play.size == 2 and last.size == 0", when)), players=3,
                      suits="S, H, C", per=2, extra=ROLES3, scoring="role_points(player)"), stack(hands, DECK3),
                 dealer=0)
        g.apply("play 3S 3H")                                     # out on a pair, on a lead
        if dropped:                                               # seat 1 below seat 2: the hand is over
            assert g.is_over and g.scores == [2, 0, 1]
        else:
            assert not g.is_over and g.current_player == 1
    # a hook that reads the suit of the play makes every suit choice a play of its own ("Which plays are listed")
    suits = hook.replace("play.size == 2 and last.size == 0", 'play.suit == "H"')
    g = game(text(cl(PLAIN.replace("[1, 2]", "[1, 1]"), suits), players=3, suits="S, H, C", per=2, extra=ROLES3,
                  scoring="role_points(player)"), stack(hands, DECK3), dealer=0)
    assert legal(g) == ["play 3S", "play 3H"]


@documents("climbing.suit_order")
def test_suit_order_ranks_suits_for_play_high():
    """`suit_order` gives suits low to high; `high` is rank position x number of suits + position in
    `suit_order`, so of two cards of one rank the later suit is higher."""
    rules = """
    sizes: [1, 1]
    beats: play.high > last.high
    first_leader: dealer
    suit_order: [%s]
    """
    hands = {0: ["4S", "6S", "6H"], 1: ["4H", "5S", "3S"]}
    g = game(text(rules % "H, S"), stack(hands, DECK), dealer=0)
    g.apply("play 4S")                                            # S above H: 4H does not beat it
    assert sorted(legal(g)) == ["pass", "play 5S"]
    g = game(text(rules % "S, H"), stack(hands, DECK), dealer=0)
    g.apply("play 4S")
    assert sorted(legal(g)) == ["pass", "play 4H", "play 5S"]


@documents("climbing.on_going_out", "climbing.on_going_out[].when", "climbing.on_going_out[].drops_to_last")
def test_a_going_out_hook_drops_a_seat_to_last():
    """`on_going_out`: when a player goes out (`player`), while `when` holds the seat `drops_to_last`
    gives stops playing and finishes below everyone still playing."""
    hook = """
    on_going_out:
      - {when: 'finished_players == 1 and player != 1', drops_to_last: 1}
    """
    hands = {0: ["3S", "3H"], 1: ["4S", "6S"], 2: ["5S", "6H"]}

    def start(rules):
        g = game(text(rules, players=3, suits="S, H, C", per=2, extra=ROLES3, scoring="role_points(player)"),
                 stack(hands, DECK3), dealer=0)
        g.apply("play 3S")
        g.apply("pass")
        g.apply("pass")
        g.apply("play 3H")                                        # seat 0 goes out first
        return g

    g = start(cl(PLAIN.replace("[1, 2]", "[1, 1]"), hook))
    assert g.is_over and g.scores == [2, 0, 1]                    # seat 1 dropped below seat 2
    g = start(cl(PLAIN.replace("[1, 2]", "[1, 1]"), hook.replace("player != 1", "player == 1")))
    assert not g.is_over and g.current_player == 1                # `when` false: nobody drops
    g.apply("play 4S")
    g.apply("play 5S")
    g.apply("play 6S")
    assert g.is_over and g.scores == [2, 1, 0]


@documents("climbing.beats")
@pytest.mark.parametrize("beats", [
    "params.strict and play.size == last.size and play.rank > last.rank",
    "(not params.strict or play.size == last.size) and play.rank > last.rank",
    "if params.strict then play.size == last.size and play.rank > last.rank else false",
])
def test_beats_reading_a_parameter_judges_every_play_as_written(beats):
    """A `beats` that reads a parameter (folded at load) beside `play`/`last` judges each play by the
    rest of the rule: the plays listed are those a plain `beats` lists (the engine's memo of judged
    plays keys on everything the rule reads)."""
    hands = {0: ["5S", "3H", "3S"], 1: ["4S", "4H", "6S"]}             # seat 1 holds one play above 5
    for strict in (True, False):
        body = PLAIN.replace("beats: play.size == last.size and play.rank > last.rank", f"beats: {beats}")
        g = game(text(body, extra=f"params: {{strict: {str(strict).lower()}}}"), stack(hands, DECK), dealer=0)
        g.apply("play 5S")
        want = ["6", "pass"] if strict or "not params" in beats else ["pass"]
        assert ranks_of(g) == sorted(want), (beats, strict)


@documents("climbing.on_going_out")
def test_last_on_a_lead_is_no_play_below_every_play():
    """docs/language.md: while there is no play to beat, `last.size` is 0, its `rank`, `tier`, `high` and
    `low` are -1 (below every play), `wilds` and `naturals` 0, and `kind`, `rank_name` and `suit` none.  A
    hook that reads all of them on a lead holds (seat 0 goes out on a pair, seat 1 drops to last, and the
    hand is over).  Catches "no play" read with another tier or rank."""
    when = ("play.size == 2 and last.size == 0 and last.rank == -1 and last.tier == -1 and last.high == -1"
            " and last.low == -1 and last.wilds == 0 and last.naturals == 0 and last.kind == none"
            " and last.rank_name == none and last.suit == none")
    hook = "on_going_out:\n  - {when: '%s', drops_to_last: 1}\n" % when
    hands = {0: ["3S", "3H"], 1: ["4S", "6S"], 2: ["5S", "6H"]}
    g = game(text(cl(PLAIN, hook), players=3, suits="S, H, C", per=2, extra=ROLES3, scoring="role_points(player)"),
             stack(hands, DECK3), dealer=0)
    g.apply("play 3S 3H")
    assert g.is_over and g.scores == [2, 0, 1]


@documents("climbing.beats")
def test_a_suit_read_only_in_a_branch_the_parameters_switch_off_lists_one_play_per_rank():
    """docs/language.md, "Which plays are listed": where no rule reads a suit, one play per choice of ranks
    is listed.  A `beats` that reads `play.suit` only when `params.strict == 1` reads none with strict 0
    (the comparison folds on the parameter), so 4S and 4H are one play; with strict 1 each is listed."""
    rules = cl("""
    sizes: [1, 2]
    first_leader: dealer
    beats: 'if params.strict == 1 then play.suit == last.suit and play.rank > last.rank else play.size == last.size and play.rank > last.rank'
    """)
    hands = {0: ["3S", "4S", "4H"], 1: ["3H", "5S", "5H"]}
    g = game(text(rules, extra="params:\n  strict: 0"), stack(hands, DECK), dealer=0)
    assert legal(g) == ["play 3S", "play 4S", "play 4S 4H"]
    g = game(text(rules, extra="params:\n  strict: 1"), stack(hands, DECK), dealer=0)
    assert legal(g) == ["play 3S", "play 4S", "play 4H", "play 4S 4H"]
