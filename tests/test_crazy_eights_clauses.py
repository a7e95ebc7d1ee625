"""One test (at least) per clause of seeds/crazy_eights.md, played through the public API.

Conventions (see crazy_eights_helpers): seats A, B, C, ... = 0, 1, 2, ...; unless stated the dealer is the
last seat, so A plays first and turns go A, B, C, ...  The first hand is stacked with
``crazy_eights_helpers.stack`` (deal one card at a time from the dealer's left, then the starter, then the
stock, top first); ``new_game`` asserts that the hands, the starter and the stock count came out as stacked.
Later positions are reached by real actions.  Expected legal lists come from ``legal_oracle`` (written from
the rules), expected scores from ``hand_points`` or from sums worked out by hand in the test.
"""

from __future__ import annotations

import pytest

import rulesdsl
from rulesdsl import IllegalAction

from crazy_eights_helpers import (A, ALL_CARDS, B, C, DEFAULTS, RANKS, VARIANT_PARAMS, VARIANTS, act,
                                  assert_illegal, dealing_order, eight_plays, hand_points, hand_size, hand_value,
                                  legal, legal_oracle, new_game, rank, rules, stack, stock_count, suit, top)


def params(variant: str = "base", overrides=None) -> dict:
    return dict(rules(variant, overrides).params)


def oracle_now(g, variant="base", overrides=None, in_force=None, owed=0, drawn=0) -> set:
    """The oracle's legal set for the player on turn, from the top card shown (and the suit in force)."""
    t = top(g)
    return legal_oracle(g.hand_of(g.current_player), rank(t), in_force or suit(t), params(variant, overrides),
                        owed=owed, drawn=drawn, stock=stock_count(g))


def score_deltas(g, fn) -> list:
    before = list(g.scores)
    fn()
    return [b - a for a, b in zip(before, g.scores)]


def dead(s: str) -> list:
    """The cards of suit ``s`` other than the 8 (never playable once the hearts and eights are gone)."""
    return [r + s for r in RANKS if r != "8"]


# ==================================================================================================
# Scripted hands that empty the stock, then run out of playable cards (C8-END-3, C8-SCORE-4/5)
# ==================================================================================================

# Starter 2H; then every other heart and every eight, each eight naming hearts.  Afterwards no heart and no
# eight is left in any hand, so with the stock empty nobody can play.
PLAYS15 = ["play 3H", "play 4H", "play 5H", "play 6H", "play 7H", "play 8H name H", "play 9H", "play 10H",
           "play JH", "play QH", "play KH", "play AH", "play 8C name H", "play 8D name H", "play 8S name H"]


def drained(n: int, finals: dict, plays=PLAYS15, extra: dict = None, variant="base", overrides=None):
    """A hand in which play ``i`` of ``plays`` is made by seat ``i % n`` and each seat keeps ``finals[s]``
    (plus ``extra[s]``, cards it still holds after ``plays``).  Every seat draws, on its first turn, the
    cards beyond its dealt hand, so the stock is empty after the first round.  Returns the game after the
    plays, and the cards each seat holds then."""
    extra = extra or {}
    size = hand_size(n)
    needed = {s: [p.split()[1] for p in plays[s::n]] for s in range(n)}
    holdings = {s: needed[s] + list(extra.get(s, [])) + list(finals[s]) for s in range(n)}
    assert all(len(h) >= size for h in holdings.values()), holdings
    hands = {s: holdings[s][:size] for s in range(n)}
    draws = {s: holdings[s][size:] for s in range(n)}
    after = ["2H"] + [c for s in range(n) for c in draws[s]]
    g = new_game(hands, n=n, after=after, variant=variant, overrides=overrides)
    assert stock_count(g) == sum(len(d) for d in draws.values())
    for i, p in enumerate(plays):
        s = i % n
        assert g.current_player == s, (i, p, g.current_player)
        if i < n:
            for c in draws[s]:
                g.apply("draw stock")
                assert g.current_player == s                      # C8-TURN-4: a draw keeps the turn
            assert sorted(g.hand_of(s)) == sorted(holdings[s])
        g.apply(p)
    assert stock_count(g) == 0 and g.hand_number == 1
    left = {s: list(extra.get(s, [])) + list(finals[s]) for s in range(n)}
    for s in range(n):
        assert sorted(g.hand_of(s)) == sorted(left[s])
    return g, left


def everyone_passes(g, n: int) -> None:
    for k in range(n):
        assert legal(g) == ["pass"], (g.current_player, legal(g))
        assert g.hand_number == 1, f"the hand ended after {k} passes of {n}"
        g.apply("pass")


# A scripted hand that somebody goes out of (3 players, dealer C, A first; starter from ``after``):
# A 3C, B 4C, C 4D, A 5D, B 5S, C 6S, A 6H, B 7H, C 7C, A 9C, B 9D, C 10D, A <last card>.
OUT_A = ["3C", "5D", "6H", "9C"]
OUT_B = ["4C", "5S", "7H", "9D", "KH"]
OUT_C = ["4D", "6S", "7C", "10D", "8S"]
OUT_SEQ = ["play 3C", "play 4C", "play 4D", "play 5D", "play 5S", "play 6S", "play 6H", "play 7H", "play 7C",
           "play 9C", "play 9D", "play 10D"]


def out_game(last: str = "10S", b_draws: int = 0, c_draws: int = 0, after=("2C", "QD", "JD", "9H", "KD", "AD"),
             variant="base", overrides=None):
    """The hand above: B draws ``b_draws`` cards and C ``c_draws`` on their first turns (from the stock top
    ``after[1:]``); returns the game just before A's last play."""
    g = new_game({A: OUT_A + [last], B: OUT_B, C: OUT_C}, n=3, after=list(after), variant=variant,
                 overrides=overrides)
    for i, p in enumerate(OUT_SEQ):
        if i == 1:
            for _ in range(b_draws):
                g.apply("draw stock")
        if i == 2:
            for _ in range(c_draws):
                g.apply("draw stock")
        g.apply(p)
    assert g.current_player == A and g.hand_of(A) == [last]
    return g


# ==================================================================================================
# 1. Setup / deal
# ==================================================================================================


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_C8_DEAL_1_two_to_seven_players_one_52_card_pack_no_jokers(n):
    g = rules().new_game(seed=4, players=n)
    assert g.cards_in_play == 52
    v = g.view(0)
    z = v["zones"]
    assert sum(h["count"] for h in z["hand"]) + z["stock"]["count"] + z["discard"]["count"] == 52
    deck = stack({}, n, n - 1)
    with pytest.raises(ValueError):                       # a joker is not a card of this pack
        rules().new_game(seed=1, dealer=0, players=n, deck=deck[:-1] + ["Jk"])
    with pytest.raises(ValueError):                       # nor is a 53rd card
        rules().new_game(seed=1, dealer=0, players=n, deck=deck + ["AS"])


@pytest.mark.parametrize("n", [1, 8])
def test_C8_DEAL_1_other_player_counts_rejected(n):
    with pytest.raises(ValueError):
        rules().new_game(seed=1, players=n)


def test_C8_DEAL_2_first_dealer_random_then_the_deal_passes_left():
    dealers = {rules().new_game(seed=s, players=4).view(0)["dealer"] for s in range(60)}
    assert dealers == {0, 1, 2, 3}
    # hand 1 dealt by C (seat 2); A goes out; hand 2 is dealt by the next seat, A, and B plays first
    g = out_game()
    g.apply("play 10S")
    v = g.view(0)
    assert v["hand_number"] == 2 and v["dealer"] == A
    assert g.current_player == B


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
@pytest.mark.parametrize("dealer_pick", ["first", "last", "middle"])
def test_C8_DEAL_3_seven_each_with_two_players_five_with_three_to_seven_one_at_a_time(n, dealer_pick):
    dealer = {"first": 0, "last": n - 1, "middle": n // 2}[dealer_pick]
    size = 7 if n == 2 else 5
    deck = [c for c in ALL_CARDS if rank(c) != "8"] + [c for c in ALL_CARDS if rank(c) == "8"]
    g = rules().new_game(seed=1, dealer=dealer, players=n, deck=deck)
    for k, s in enumerate(dealing_order(n, dealer)):     # one card at a time, from the dealer's left
        assert sorted(g.hand_of(s)) == sorted(deck[k:size * n:n]), (n, dealer, s)
        assert len(g.hand_of(s)) == size


@pytest.mark.parametrize("n", [2, 4])
def test_C8_DEAL_4_the_rest_is_a_face_down_stock_drawn_from_the_top(n):
    size = hand_size(n)
    g = new_game({}, n=n, after=["5D", "KS", "2H", "9C"])
    assert stock_count(g) == 52 - size * n - 1
    for s in range(n):
        z = g.view(s)["zones"]["stock"]
        assert set(z) == {"count"}                       # no card of the stock shows
    g.apply("draw stock")
    assert "KS" in g.hand_of(A)
    g.apply("draw stock")
    assert "2H" in g.hand_of(A) and stock_count(g) == 52 - size * n - 3


def test_C8_DEAL_5_the_next_card_is_turned_up_and_is_the_card_to_match():
    g = new_game({A: ["5H", "KD", "2D", "9C", "3C", "4C", "QS"]}, n=2, after=["5D"])
    assert top(g) == "5D"
    assert g.view(0)["zones"]["discard"] == {"count": 1, "top": "5D"}
    assert g.view(1)["zones"]["discard"] == {"count": 1, "top": "5D"}
    assert set(legal(g)) == {"play 5H", "play KD", "play 2D", "draw stock"} == oracle_now(g)


def test_C8_DEAL_6_a_turned_up_eight_is_buried_in_the_stock_at_random():
    """8D then 8S turned up: both go back into the stock, 5C becomes the starter.  A then draws the whole
    stock: each eight is found somewhere in it, not always at the same depth."""
    depth = {"8D": set(), "8S": set()}
    for seed in range(12):
        g = new_game({A: ["2H", "3H", "4H", "6H", "7H", "9H", "10H"], B: ["2S", "3S", "4S", "6S", "7S", "9S", "10S"]},
                     n=2, after=["8D", "8S", "5C"], seed=seed)
        assert top(g) == "5C" and g.view(0)["zones"]["discard"]["count"] == 1
        assert stock_count(g) == 37
        assert all(not any(rank(c) == "8" for c in g.hand_of(s)) for s in (A, B))
        found = {}
        k = 0
        while stock_count(g):
            g.apply("draw stock")
            k += 1
            for e in depth:
                if e in g.hand_of(A) and e not in found:
                    found[e] = k
        assert set(found) == {"8D", "8S"}
        for e, k in found.items():
            depth[e].add(k)
    for e in depth:
        assert len(depth[e]) > 1, (e, depth[e])          # buried at random, not at a fixed place


# ==================================================================================================
# 2. Turn
# ==================================================================================================


@pytest.mark.parametrize("n,dealer", [(2, 0), (2, 1), (4, 2), (5, 4), (7, 3)])
def test_C8_TURN_1_left_of_dealer_plays_first_then_clockwise(n, dealer):
    """Each seat holds one heart (the first player two); the starter is 2H; the hearts are played in seat
    order from the dealer's left, once round the table and back to the first player."""
    order = [(dealer + 1 + i) % n for i in range(n)]
    hearts = ["AH", "3H", "4H", "5H", "6H", "7H", "9H", "10H", "JH", "QH", "KH"]
    hands = {s: [] for s in range(n)}
    for i, s in enumerate(order):
        hands[s].append(hearts[i])
    hands[order[0]].append(hearts[n])
    g = new_game(hands, n=n, dealer=dealer, after=["2H"])
    for i in range(n + 1):
        assert g.current_player == order[i % n], i
        g.apply(f"play {hearts[i]}")
    assert g.current_player == order[1]


def test_C8_TURN_2_a_turn_is_a_matching_play_or_a_draw():
    g = new_game({A: ["5H", "KS", "2D", "9C", "3C", "4C", "JS"]}, n=2, after=["5D"])
    assert set(legal(g)) == {"play 5H", "play 2D", "draw stock"} == oracle_now(g)
    assert_illegal(g, "play KS")
    assert_illegal(g, "pass")
    assert_illegal(g, "take discard")


def test_C8_TURN_3_one_card_per_play_then_the_turn_passes():
    g = new_game({A: ["5H", "5S", "2D", "9C", "3C", "4C", "JS"], B: ["6H", "7H", "9H", "10H", "JH", "QH", "KH"]},
                 n=2, after=["5D"])
    assert_illegal(g, "play 5H 5S")
    g.apply("play 5H")
    assert g.current_player == B and top(g) == "5H"
    assert len(g.hand_of(A)) == 6


def test_C8_TURN_4_after_a_draw_the_same_player_may_play_any_legal_card_or_draw_again():
    g = new_game({A: ["5H", "KS", "2D", "9C", "3C", "4C", "JS"]}, n=2, after=["5D", "7D", "QC"])
    g.apply("draw stock")
    assert "7D" in g.hand_of(A) and g.current_player == A
    assert set(legal(g)) == {"play 5H", "play 2D", "play 7D", "draw stock"} == oracle_now(g)
    g.apply("play 2D")                                     # not the card just drawn
    assert g.current_player == B and "7D" in g.hand_of(A)
    g = new_game({A: ["5H", "KS", "2D", "9C", "3C", "4C", "JS"]}, n=2, after=["5D", "7D", "QC"])
    act(g, "draw stock", "draw stock")
    assert "QC" in g.hand_of(A) and g.current_player == A
    g.apply("play 7D")                                     # the card drawn first
    assert top(g) == "7D" and g.current_player == B


def test_C8_TURN_5_a_player_may_draw_while_holding_a_playable_card():
    g = new_game({A: ["5H", "KS", "2D", "9C", "3C", "4C", "JS"]}, n=2, after=["5D"])
    assert "draw stock" in legal(g) and any(a.startswith("play") for a in legal(g))
    g.apply("draw stock")
    assert g.current_player == A and len(g.hand_of(A)) == 8


def test_C8_TURN_6_unable_to_play_the_only_choice_is_to_draw_as_long_as_needed():
    """No playable card: draw, draw, ... (base: no limit, no pass while the stock lasts); once a playable
    card arrives the player may play it (or keep drawing)."""
    unplayable = ["2S", "3S", "4S", "6S", "7S", "9S"]
    g = new_game({A: ["KC", "QC", "JC", "10C", "9C", "7C", "6C"]}, n=2, after=["5H"] + unplayable + ["JH", "AC"])
    for k in range(len(unplayable)):
        assert legal(g) == ["draw stock"], k
        assert_illegal(g, "pass")
        g.apply("draw stock")
        assert g.current_player == A
    g.apply("draw stock")
    assert "JH" in g.hand_of(A)
    assert set(legal(g)) == {"play JH", "draw stock"} == oracle_now(g)
    g.apply("play JH")
    assert g.current_player == B


def test_C8_TURN_7_stock_empty_and_no_playable_card_pass_else_no_pass():
    g, _ = pass_reset_position()
    # C: stock empty, no heart and no eight: pass is the only action
    assert g.current_player == C and legal(g) == ["pass"] == sorted(oracle_now(g, in_force="H"))
    assert_illegal(g, "draw stock")
    g.apply("pass")
    # A holds 8S and the stock is empty: A must play it (any suit named); no pass, no draw
    assert g.current_player == A
    assert set(legal(g)) == set(eight_plays("8S")) == oracle_now(g, in_force="H")
    assert_illegal(g, "pass")
    assert_illegal(g, "draw stock")


# ==================================================================================================
# 3. Plays
# ==================================================================================================


def test_C8_PLAY_1_a_card_matching_suit_or_rank_is_legal_nothing_else():
    hand = ["5H", "KS", "2D", "9C", "3C", "QD", "JS"]
    g = new_game({A: hand}, n=2, after=["5D"])
    expected = {"play 5H", "play 2D", "play QD", "draw stock"}
    assert set(legal(g)) == expected == oracle_now(g)
    for c in ("KS", "9C", "3C", "JS"):
        assert_illegal(g, f"play {c}")
    assert_illegal(g, "play 7D")                           # a matching card not in hand
    assert_illegal(g, "play 5H name S")                    # only an eight names a suit


def test_C8_PLAY_2_an_eight_is_legal_on_any_card():
    for starter in ["5D", "KS", "AC", "10H"]:
        g = new_game({A: ["8H", "8C", "2D", "9C", "3C", "4C", "JS"]}, n=2, after=[starter],
                     fill=[c for c in ALL_CARDS if suit(c) != suit(starter)])
        plays = {a for a in legal(g) if a.startswith("play 8")}
        assert plays == set(eight_plays("8H")) | set(eight_plays("8C")), starter
        assert set(legal(g)) == oracle_now(g)


def test_C8_PLAY_3_an_eight_names_any_suit_which_replaces_its_own():
    g = new_game({A: ["8H", "KS", "2C", "9C", "3C", "4C", "JC"], B: ["6H", "7H", "9H", "KH", "2S", "3S", "QD"]},
                 n=2, after=["5D"])
    assert_illegal(g, "play 8H")                           # the suit must be named
    assert_illegal(g, "play 8H name X")
    assert_illegal(g, "play 8H name")
    g.apply("play 8H name S")
    assert g.history[-1] == "play 8H name S"
    t = g.view(B)["trick"]
    assert t["last_play"] == ["8H"] and t["named_suit"] == "S"
    assert set(legal(g)) == {"play 2S", "play 3S", "draw stock"} == oracle_now(g, in_force="S")
    for c in ("6H", "7H", "9H", "KH", "QD"):                # hearts no longer match: spades do
        assert_illegal(g, f"play {c}")
    # naming the eight's own suit is allowed, and then that suit is in force
    g = new_game({A: ["8H", "KS", "2C", "9C", "3C", "4C", "JC"], B: ["6H", "7H", "9H", "KH", "2S", "3S", "QD"]},
                 n=2, after=["5D"])
    g.apply("play 8h name h")                             # case does not matter
    assert g.history[-1] == "play 8H name H"
    assert set(legal(g)) == {"play 6H", "play 7H", "play 9H", "play KH", "draw stock"}


def test_C8_PLAY_4_on_an_eight_only_the_named_suit_or_another_eight():
    g = new_game({A: ["8H", "KS", "2C", "9C", "3C", "4C", "JC"], B: ["8D", "8C", "4S", "KH", "QH", "AS", "5D"]},
                 n=2, after=["5H"])
    g.apply("play 8H name S")
    expected = {"play 4S", "play AS", "draw stock"} | set(eight_plays("8D")) | set(eight_plays("8C"))
    assert set(legal(g)) == expected == oracle_now(g, in_force="S")
    for c in ("KH", "QH", "5D"):
        assert_illegal(g, f"play {c}")


def test_C8_PLAY_5_an_eight_on_an_eight_names_a_new_suit():
    g = new_game({A: ["8H", "KS", "2C", "9C", "3C", "4C", "JC"], B: ["8D", "6H", "4S", "KH", "QH", "AS", "5D"]},
                 n=2, after=["5H"])
    act(g, "play 8H name S", "play 8D name C")
    assert g.view(A)["trick"]["named_suit"] == "C"
    assert set(legal(g)) == {"play 2C", "play 9C", "play 3C", "play 4C", "play JC", "draw stock"}
    assert_illegal(g, "play KS")                           # spades are no longer in force


def test_C8_PLAY_6_the_named_suit_lasts_until_the_next_card_is_played():
    g = new_game({A: ["8H", "KD", "2C", "9C", "3C", "4C", "JC"], B: ["KS", "6H", "4S", "KH", "QH", "AS", "5D"]},
                 n=2, after=["5H"])
    act(g, "play 8H name S", "play KS")
    assert g.view(A)["trick"]["named_suit"] is None
    assert set(legal(g)) == {"play KD", "draw stock"} == oracle_now(g)     # the K, not the named suit


def test_C8_PLAY_7_playing_an_eight_is_never_compulsory():
    g = new_game({A: ["8H", "5C", "2C", "9C", "3C", "4C", "JC"], B: ["KS", "6H", "4S", "KH", "QH", "AS", "7D"]},
                 n=2, after=["5D"])
    assert "play 5C" in legal(g)
    g.apply("play 5C")
    assert "8H" in g.hand_of(A) and g.current_player == B


# ==================================================================================================
# 4. Going out / end of hand
# ==================================================================================================


def test_C8_END_1_the_first_player_out_ends_the_hand_at_once():
    g = out_game()
    assert g.hand_number == 1
    g.apply("play 10S")
    assert g.hand_number == 2 and len(g.hand_log) == 1
    rec = g.hand_log[0]
    assert rec["ending"] == "out" and rec["scorer"] == A


def test_C8_END_2_going_out_with_an_eight_still_names_a_suit():
    g = out_game(last="8D")
    assert set(legal(g)) == set(eight_plays("8D")) | {"draw stock"} == oracle_now(g)
    assert_illegal(g, "play 8D")
    d = score_deltas(g, lambda: g.apply("play 8D name S"))
    assert g.hand_log[0]["ending"] == "out"
    assert d == [10 + 50, 0, 0]                            # B holds KH, C holds 8S; A's 8 is on the pile


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_C8_END_3_blocked_when_everyone_passes_in_a_row(n):
    deads = [c for s in ("C", "D", "S") for c in dead(s)]
    finals = {s: deads[s::n] for s in range(n)}
    g, left = drained(n, finals)
    assert top(g) == "8S" and g.view(0)["trick"]["named_suit"] == "H"
    assert g.current_player == len(PLAYS15) % n
    before = list(g.scores)
    everyone_passes(g, n)
    assert g.hand_number == 2
    rec = g.hand_log[0]
    assert rec["ending"] == "blocked"
    want = hand_points(left, "blocked")
    assert [b - a for a, b in zip(before, g.scores)] == [want[s] for s in range(n)]


def pass_reset_position():
    """3 players.  After 14 plays (up to 8D naming hearts) the stock is empty; C has no heart and no eight,
    A holds 8S, B holds spades and 5C, C holds diamonds."""
    finals = {A: [c for c in dead("C") if c != "5C"], B: dead("S") + ["5C"], C: dead("D")}
    return drained(3, finals, plays=PLAYS15[:14], extra={A: ["8S"]})


def test_C8_END_3_a_play_between_passes_starts_the_count_again():
    g, _ = pass_reset_position()
    act(g, "pass", "play 8S name D", "pass", "play 5D")       # C passes, A plays, B passes, C plays
    assert g.current_player == A and legal(g) == ["pass"]
    g.apply("pass")                                           # C, B and A have each passed, but not in a row
    assert g.hand_number == 1 and not g.hand_log
    assert g.current_player == B
    assert set(legal(g)) == {"play 5C", "play 5S"} == oracle_now(g)


def test_C8_END_3_a_draw_between_passes_starts_the_count_again():
    """Draw three: with cards in the stock a player who cannot play draws three, then passes.  Three such
    turns are not a blocked hand (each draw comes between the passes)."""
    hands = {A: ["2C", "3C", "4C", "6C", "7C"], B: ["9C", "10C", "JC", "QC", "KC"], C: ["2D", "3D", "4D", "6D", "7D"]}
    after = ["5H", "9S", "10S", "JS", "QS", "KS", "AS", "2S", "3S", "4S", "AC"]
    g = new_game(hands, n=3, after=after, variant="draw_three")
    for s in (A, B, C):
        assert g.current_player == s
        act(g, "draw stock", "draw stock", "draw stock")
        assert legal(g) == ["pass"]
        g.apply("pass")
    assert g.hand_number == 1 and g.current_player == A
    assert legal(g) == ["draw stock"]


# ==================================================================================================
# 5. Scoring
# ==================================================================================================


def test_C8_SCORE_1_card_values():
    # the values of C8-SCORE-1, as the going-out score shows them: B holds one card, C holds the rest
    cases = {"8S": 50, "KH": 10, "QH": 10, "JH": 10, "10H": 10, "9H": 9, "2H": 2, "AH": 1}
    for card, val in cases.items():
        b = ["4C", "5S", "7H", "9D", "KS"] if card != "KS" else ["4C", "5S", "7H", "9D", "QS"]
        c = ["4D", "6S", "7C", "10D", card]
        g = new_game({A: OUT_A + ["10S"], B: b, C: c}, n=3, after=["2C"])
        act(g, *OUT_SEQ)
        d = score_deltas(g, lambda: g.apply("play 10S"))
        assert d == [hand_value([b[-1]]) + val, 0, 0], card
        assert d[A] == 10 + val


@pytest.mark.parametrize("b_draws,c_draws,points", [(0, 0, 60), (3, 1, 99), (3, 2, 100)])
def test_C8_SCORE_2_3_the_player_out_scores_every_other_hand(b_draws, c_draws, points):
    """B keeps KH (+ QD, JD, 9H drawn), C keeps 8S (+ KD, AD drawn): 10 [+ 10 + 10 + 9] and 50 [+ 10 + 1]."""
    g = out_game(b_draws=b_draws, c_draws=c_draws)
    d = score_deltas(g, lambda: g.apply("play 10S"))
    assert d == [points, 0, 0]
    rec = g.hand_log[0]
    assert rec["scorer"] == A and rec["points"] == points


def test_C8_SCORE_4_blocked_the_single_lowest_hand_scores_the_differences():
    # A keeps the clubs but KC (67), B the diamonds (77), C the spades and KC (87): A scores 10 + 20
    finals = {A: [c for c in dead("C") if c != "KC"], B: dead("D"), C: dead("S") + ["KC"]}
    g, left = drained(3, finals)
    assert [hand_value(left[s]) for s in range(3)] == [67, 77, 87]
    d = score_deltas(g, lambda: everyone_passes(g, 3))
    assert d == [30, 0, 0]
    # two players: A keeps clubs and diamonds (154), B the spades (77): B scores 77
    g, left = drained(2, {A: dead("C") + dead("D"), B: dead("S")})
    d = score_deltas(g, lambda: everyone_passes(g, 2))
    assert d == [0, 77]


def test_C8_SCORE_5_blocked_with_a_tie_for_lowest_nobody_scores():
    # A: clubs but KC (67), B: diamonds but KD (67), C: spades, KC, KD (97)
    finals = {A: [c for c in dead("C") if c != "KC"], B: [c for c in dead("D") if c != "KD"],
              C: dead("S") + ["KC", "KD"]}
    g, left = drained(3, finals)
    assert [hand_value(left[s]) for s in range(3)] == [67, 67, 97]
    d = score_deltas(g, lambda: everyone_passes(g, 3))
    assert d == [0, 0, 0]
    assert g.hand_log[0]["ending"] == "blocked"


# ==================================================================================================
# 6. Match end
# ==================================================================================================


@pytest.mark.parametrize("b_draws,c_draws,points,over", [(3, 1, 99, False), (3, 2, 100, True)])
def test_C8_MATCH_1_the_match_ends_after_the_hand_reaching_100(b_draws, c_draws, points, over):
    g = out_game(b_draws=b_draws, c_draws=c_draws)
    g.apply("play 10S")
    assert g.scores == [points, 0, 0]
    assert g.is_over == over
    if over:
        assert g.winner == A and g.current_player is None
        with pytest.raises(IllegalAction):
            g.apply("draw stock")
    else:
        assert g.hand_number == 2 and g.winner is None


def test_C8_MATCH_1_the_target_is_a_parameter():
    g = out_game(overrides={"target_score": 60})
    g.apply("play 10S")
    assert g.scores == [60, 0, 0] and g.is_over and g.winner == A


def test_C8_MATCH_2_a_tie_for_the_highest_total_plays_another_hand():
    """Target 0 (an override): a blocked hand with all three hands at 77 scores nothing, so the totals tie
    at 0 and another hand is dealt; with a single lowest hand the match ends at once."""
    finals = {A: dead("C"), B: dead("D"), C: dead("S")}
    g, left = drained(3, finals, overrides={"target_score": 0})
    everyone_passes(g, 3)
    assert g.scores == [0, 0, 0] and not g.is_over and g.hand_number == 2
    finals = {A: [c for c in dead("C") if c != "KC"], B: dead("D"), C: dead("S") + ["KC"]}
    g, left = drained(3, finals, overrides={"target_score": 0})
    everyone_passes(g, 3)
    assert g.scores == [30, 0, 0] and g.is_over and g.winner == A


# ==================================================================================================
# 7. Edge cases
# ==================================================================================================


def test_C8_EDGE_1_no_reshuffle_the_stock_stays_empty():
    g, _ = pass_reset_position()
    pile = g.view(0)["zones"]["discard"]["count"]
    assert pile == 15 and stock_count(g) == 0
    act(g, "pass", "play 8S name D", "pass", "play 5D", "pass", "play 5S")
    assert stock_count(g) == 0 and g.view(0)["zones"]["discard"]["count"] == pile + 3
    assert "draw stock" not in legal(g)


def test_C8_EDGE_2_the_starter_is_never_an_eight():
    for seed in range(150):
        g = rules().new_game(seed=seed, players=2 + seed % 6)
        assert rank(top(g)) != "8", seed
        assert g.view(0)["trick"]["named_suit"] is None


def test_C8_EDGE_3_a_drawn_card_may_be_played_at_once():
    g = new_game({A: ["KC", "QC", "JC", "10C", "9C", "7C", "6C"]}, n=2, after=["5H", "5S"])
    g.apply("draw stock")
    assert set(legal(g)) == {"play 5S", "draw stock"}
    g.apply("play 5S")
    assert top(g) == "5S" and g.current_player == B


def test_C8_EDGE_4_with_the_stock_empty_a_playable_card_must_be_played():
    g, _ = pass_reset_position()
    act(g, "pass")
    assert set(legal(g)) == set(eight_plays("8S"))
    assert_illegal(g, "pass")


def test_C8_EDGE_5_going_out_with_an_eight_the_eight_scores_nothing():
    g = out_game(last="8D")
    d = score_deltas(g, lambda: g.apply("play 8D name C"))
    assert d == [60, 0, 0]                                 # B: KH 10, C: 8S 50; A's own 8D is not counted


def test_C8_EDGE_6_seven_players_leave_a_starter_and_sixteen_in_the_stock():
    g = rules().new_game(seed=2, players=7)
    v = g.view(0)["zones"]
    assert [h["count"] for h in v["hand"]] == [5] * 7
    assert v["discard"]["count"] == 1 and v["stock"]["count"] == 16


@pytest.mark.parametrize("last", ["2D", "QD"])
def test_C8_EDGE_7_going_out_on_a_two_or_a_queen_ends_the_hand_no_draw_no_skip(last):
    g = out_game(last=last, after=("AC", "QS", "JS", "9S", "KD", "AD"), variant="twos_and_queens")
    d = score_deltas(g, lambda: g.apply(f"play {last}"))
    assert d == [60, 0, 0] and g.hand_log[0]["ending"] == "out"
    assert g.hand_number == 2 and g.view(0)["dealer"] == A and g.current_player == B   # a fresh hand


@pytest.mark.parametrize("starter", ["2C", "QC"])
def test_C8_EDGE_9_a_two_or_queen_turned_up_does_nothing(starter):
    g = new_game({A: ["3C", "3D", "4D", "5D", "6D"]}, n=3, after=[starter], variant="twos_and_queens")
    v = g.view(A)["trick"]
    assert v["draws_owed"] == 0
    assert g.current_player == A                           # not skipped
    assert set(legal(g)) == oracle_now(g, "twos_and_queens")
    g.apply("play 3C")
    assert g.current_player == B                           # and no debt carried


# ==================================================================================================
# 8. Variants
# ==================================================================================================


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_C8_VAR_files_set_their_parameters(name):
    r = rulesdsl.load(VARIANTS[name])
    want = dict(DEFAULTS, **VARIANT_PARAMS[name])
    assert dict(r.params) == want
    assert r.name  # loads


def test_C8_VAR_1_draw_three_then_pass():
    hands = {A: ["2C", "3C", "4C", "6C", "7C"]}
    g = new_game(hands, n=3, after=["5H", "9S", "10S", "JS", "QS"], variant="draw_three")
    for k in range(3):
        assert legal(g) == ["draw stock"], k
        assert_illegal(g, "pass")
        g.apply("draw stock")
        assert g.current_player == A
    assert legal(g) == ["pass"] == sorted(oracle_now(g, "draw_three", drawn=3))
    assert_illegal(g, "draw stock")
    g.apply("pass")
    assert g.current_player == B and len(g.hand_of(A)) == 8


def test_C8_VAR_1_draw_three_a_playable_card_drawn_may_be_played_or_drawing_go_on():
    g = new_game({A: ["2C", "3C", "4C", "6C", "7C"]}, n=3, after=["5H", "9S", "6H", "JS", "QS"],
                 variant="draw_three")
    act(g, "draw stock", "draw stock")
    assert set(legal(g)) == {"play 6H", "draw stock"} == oracle_now(g, "draw_three", drawn=2)
    g.apply("draw stock")
    assert legal(g) == ["play 6H"]                        # the limit is reached: play it (no pass)
    assert_illegal(g, "pass")
    # drawing while able to play is allowed, up to the limit
    g = new_game({A: ["2H", "3C", "4C", "6C", "7C"]}, n=3, after=["5H", "9S", "10S", "JS", "QS"],
                 variant="draw_three")
    assert set(legal(g)) == {"play 2H", "draw stock"}
    act(g, "draw stock", "draw stock", "draw stock")
    assert legal(g) == ["play 2H"]


def test_C8_VAR_2_draw_one_play_it_if_you_can_else_pass():
    # holding a playable card: no draw
    g = new_game({A: ["2H", "3C", "4C", "6C", "7C"]}, n=3, after=["5H", "9S"], variant="draw_one")
    assert legal(g) == ["play 2H"]
    assert_illegal(g, "draw stock")
    # no playable card: draw one; unplayable: pass
    g = new_game({A: ["2C", "3C", "4C", "6C", "7C"]}, n=3, after=["5H", "9S", "6H"], variant="draw_one")
    assert legal(g) == ["draw stock"]
    g.apply("draw stock")
    assert legal(g) == ["pass"] == sorted(oracle_now(g, "draw_one", drawn=1))
    assert_illegal(g, "draw stock")
    g.apply("pass")
    assert g.current_player == B and "9S" in g.hand_of(A)
    # the card drawn is playable: it must be played
    g = new_game({A: ["2C", "3C", "4C", "6C", "7C"]}, n=3, after=["5H", "6H", "9S"], variant="draw_one")
    g.apply("draw stock")
    assert legal(g) == ["play 6H"]
    assert_illegal(g, "pass")


def test_C8_VAR_3_no_voluntary_draw_with_the_parameter():
    ov = {"draw_when_able": False}
    g = new_game({A: ["2H", "3C", "4C", "6C", "7C"]}, n=3, after=["5H", "9S"], overrides=ov)
    assert legal(g) == ["play 2H"]
    g = new_game({A: ["2C", "3C", "4C", "6C", "7C"]}, n=3, after=["5H", "9S", "10S", "6H"], overrides=ov)
    act(g, "draw stock", "draw stock")
    assert legal(g) == ["draw stock"]                      # no limit: draw until able
    g.apply("draw stock")
    assert legal(g) == ["play 6H"]


def test_C8_VAR_5_eights_must_match_like_any_card():
    g = new_game({A: ["8D", "8C", "6C", "9H", "2S"], B: ["8S", "2H", "3S", "QD", "KD"]}, n=3, after=["5C"],
                 variant="eights_on_match")
    assert set(legal(g)) == {"play 6C", "draw stock"} | set(eight_plays("8C")) == oracle_now(g, "eights_on_match")
    assert_illegal(g, "play 8D name C")
    g.apply("play 8C name H")
    # on an eight, another eight matches by rank; the named suit matches by suit
    assert set(legal(g)) == {"play 2H", "draw stock"} | set(eight_plays("8S"))
    assert_illegal(g, "play 3S")


def twos_game(n=3, **kw):
    hands = {A: ["2C", "QC", "3D", "4D", "5D"], B: ["2D", "8H", "JC", "9S", "10S"], C: ["6H", "7H", "9D", "10H", "JH"]}
    if n == 2:
        hands = {A: ["2C", "QC", "3D", "4D", "5D", "6D", "7D"], B: ["2D", "8H", "JC", "9S", "10S", "JS", "QS"]}
    return new_game(hands, n=n, after=["5C", "KS", "KH", "KD", "AS", "6S"], variant="twos_and_queens", **kw)


def test_C8_VAR_7_a_two_makes_the_next_player_answer_with_a_two_or_draw():
    g = twos_game()
    g.apply("play 2C")
    assert g.current_player == B and g.view(B)["trick"]["draws_owed"] == 2
    assert set(legal(g)) == {"play 2D", "draw stock"} == oracle_now(g, "twos_and_queens", owed=2)
    assert_illegal(g, "play JC")                           # a club would match, but a debt is owed
    assert_illegal(g, "play 8H name C")                    # nor does an eight answer it
    assert_illegal(g, "pass")


def test_C8_VAR_7_drawing_takes_the_owed_cards_and_ends_the_turn():
    g = twos_game()
    g.apply("play 2C")
    g.apply("draw stock")
    assert sorted(g.hand_of(B)) == sorted(["2D", "8H", "JC", "9S", "10S", "KS", "KH"])
    assert g.current_player == C and stock_count(g) == 52 - 15 - 1 - 2
    assert g.view(C)["trick"]["draws_owed"] == 0
    assert set(legal(g)) == oracle_now(g, "twos_and_queens")          # C plays on the 2C as usual


def test_C8_VAR_8_twos_stack_two_plus_two_is_four():
    g = twos_game()
    act(g, "play 2C", "play 2D")
    assert g.current_player == C and g.view(C)["trick"]["draws_owed"] == 4
    assert legal(g) == ["draw stock"]
    g.apply("draw stock")
    assert sorted(g.hand_of(C)) == sorted(["6H", "7H", "9D", "10H", "JH", "KS", "KH", "KD", "AS"])
    assert g.current_player == A and g.view(A)["trick"]["draws_owed"] == 0
    assert set(legal(g)) == {"play 3D", "play 4D", "play 5D", "draw stock"} == oracle_now(g, "twos_and_queens")


def test_C8_VAR_7_owed_cards_beyond_the_stock_are_forgiven():
    g = twos_game(n=2)
    while stock_count(g) > 1:
        g.apply("draw stock")
    g.apply("play 2C")
    assert g.view(B)["trick"]["draws_owed"] == 2
    g.apply("draw stock")
    assert stock_count(g) == 0 and len(g.hand_of(B)) == 8 and g.current_player == A


def test_C8_VAR_9_a_queen_skips_the_next_player():
    g = twos_game()
    g.apply("play QC")
    assert g.current_player == C
    g = twos_game(n=2)
    g.apply("play QC")
    assert g.current_player == A                           # two players: the turn comes back
    assert set(legal(g)) == oracle_now(g, "twos_and_queens")


def test_C8_VAR_9_queens_do_not_skip_in_the_base_game():
    hands = {A: ["2C", "QC", "3D", "4D", "5D"]}
    g = new_game(hands, n=3, after=["5C"])
    g.apply("play QC")
    assert g.current_player == B
    g = new_game(hands, n=3, after=["5C"])
    g.apply("play 2C")
    assert g.current_player == B and g.view(B)["trick"]["draws_owed"] == 0
    assert "pass" not in legal(g)
