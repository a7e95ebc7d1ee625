"""The 14 worked examples of shared/spec/president.md, played through the engine.

Names: A, B, C, ... = seats 0, 1, 2, ...; in example 1 Ann = A, Ben = B, Cat = C, Dan = D.  Unless stated the
first dealer is the last seat, so the first-deal turn order is A, B, C, ... and A leads.  The described plays
happen as real actions on stacked first deals (``president_helpers.stack``).  Finishing orders and later
deals are reached with ``steer_deal`` (legal actions only, on the engine's own seeded shuffles).  Every
figure asserted is the spec's own number.
"""

from __future__ import annotations

import pytest

from president_helpers import (A, TWO_LEFT, B, C, D, E, F, G, act, assert_illegal, b_holds_only_2s, do_exchange, dump, legal,
                               legal_kinds, new_game, options, plays, rank, role_names, rules, steer_deal,
                               strength, to_deal2, trick)

ANN, BEN, CAT, DAN = A, B, C, D


def deltas_of(g, fn):
    before = list(g.scores)
    fn()
    return [b - a for a, b in zip(before, g.scores)]


# --------------------------------------------------------------------------------------------------
# 1-4: roles and points per player count
# --------------------------------------------------------------------------------------------------

TABLE = [
    # (example, finishing order, role per position, points per position)
    (1, [CAT, ANN, DAN, BEN], ["President", "Vice-President", "Vice-scum", "Scum"], [2, 1, -1, -2]),
    (2, [E, C, A, D, B], ["President", "Vice-President", "Neutral", "Vice-scum", "Scum"], [2, 1, 0, -1, -2]),
    (3, [F, B, D, A, E, C], ["President", "Vice-President", "Upper neutral", "Lower neutral", "Vice-scum", "Scum"],
     [2, 1, 0, 0, -1, -2]),
    (4, [G, A, C, E, B, F, D], ["President", "Vice-President", "Upper neutral", "Neutral", "Lower neutral",
                                "Vice-scum", "Super-scum"], [2, 1, 0, 0, 0, -1, -2]),
]


@pytest.mark.parametrize("ex, order, roles, points", TABLE, ids=[f"example_{t[0]}" for t in TABLE])
def test_examples_1_to_4_roles_and_points(ex, order, roles, points):
    n = len(order)
    g = new_game({}, n=n, seed=ex)
    d = deltas_of(g, lambda: steer_deal(g, order))
    rec = g.hand_log[0]
    assert rec["order"] == order
    assert rec["roles"] == roles
    assert [d[s] for s in order] == points
    assert sum(d) == 0
    do_exchange(g)
    assert g.view(0)["roles"] == dict(zip(order, roles))       # the roles hold for the next deal


@pytest.mark.parametrize("vp", [False, True])
def test_example_4_exchange_super_scum_to_president_and_vice_scum_to_vp(vp):
    order = [G, A, C, E, B, F, D]
    g = new_game({}, n=7, seed=4, overrides={"vp_exchange": vp})
    steer_deal(g, order)
    # D (Super-scum) gives G (President) their highest card
    assert g.current_player == D and g.view(D)["exchange"]["receiver"] == G
    hand = g.hand_of(D)
    top = max(strength(rank(c)) for c in hand)
    assert {a.split()[1] for a in legal(g)} == {c for c in hand if strength(rank(c)) == top}
    card = legal(g)[0].split()[1]
    g.apply(f"give {card}")
    assert card in g.hand_of(G)
    # G returns one card
    assert g.current_player == G and g.view(G)["exchange"]["receiver"] == D
    back = min(g.hand_of(G), key=lambda c: strength(rank(c)))
    g.apply(f"give {back}")
    assert back in g.hand_of(D)
    if not vp:
        assert g.view(0)["phase"] == "climb"
        return
    # with vp_exchange: F (Vice-scum) gives A (Vice-President) one card and A returns one
    assert g.view(0)["phase"] == "exchange" and g.current_player == F
    assert g.view(F)["exchange"]["receiver"] == A
    card = legal(g)[0].split()[1]
    g.apply(f"give {card}")
    assert card in g.hand_of(A) and g.current_player == A
    g.apply(legal(g)[-1])
    assert g.view(0)["phase"] == "climb" and g.current_player == G


# --------------------------------------------------------------------------------------------------
# 5: running totals to target 5
# --------------------------------------------------------------------------------------------------


def test_example_5_running_totals_to_target_5():
    g = new_game({}, n=4, overrides={"target_score": 5})
    steer_deal(g, [A, B, C, D])
    assert g.scores == [2, 1, -1, -2] and not g.is_over
    steer_deal(g, [A, C, B, D])
    assert g.scores == [4, 0, 0, -4] and not g.is_over
    steer_deal(g, [B, A, D, C])
    assert g.scores == [5, 2, -2, -5]
    assert g.is_over and g.winner == A and g.hand_number == 3
    assert sum(g.scores) == 0
    assert [rec["order"] for rec in g.hand_log] == [[A, B, C, D], [A, C, B, D], [B, A, D, C]]


# --------------------------------------------------------------------------------------------------
# 6-7: passing and leading
# --------------------------------------------------------------------------------------------------


def test_example_6_passing_does_not_lock_out():
    g = new_game({A: ["5S", "5H"], B: ["KS", "KH"], C: ["9S", "9H"]}, n=4)
    assert g.view(0)["turn_order"] == [A, B, C, D] and g.current_player == A
    act(g, "play 5S 5H")
    act(g, "pass")                                        # B
    act(g, "play 9S 9H")                                  # C
    act(g, "pass", "pass")                                # D, A
    assert g.current_player == B and "play KS KH" in legal(g)
    act(g, "play KS KH")                                  # legal despite B's earlier pass
    act(g, "pass", "pass", "pass")                        # C, D, A
    assert not trick(g)["last_play"]
    assert g.current_player == B                          # the trick ends and B leads
    assert g.view(0)["zones"]["played"]["count"] == 6


def test_example_7_lead_after_going_out():
    g = b_holds_only_2s()
    assert trick(g)["last_play"] == ["JS"] and trick(g)["last_player"] == A     # A led a single J
    act(g, "play 2S")                                     # B's last card
    assert g.view(0)["finished"] == [B]                   # B is out, 1st
    act(g, "pass", "pass", "pass")                        # C, D, A
    assert not trick(g)["last_play"]
    assert g.current_player == C                          # B has no cards: C leads


# --------------------------------------------------------------------------------------------------
# 8, 10: deal sizes in later deals, and the exchange with 5 players
# --------------------------------------------------------------------------------------------------


def test_example_8_deal_sizes_and_exchange_with_5_players():
    want = [A, B, C, D, E]                                # A President, B VP, C Neutral, D Vice-scum, E Scum
    for seed in range(1000):
        g = to_deal2(5, want=want, seed=seed)
        scum, pres = g.hand_of(E), g.hand_of(A)
        if {c for c in scum if rank(c) == "2"} == {"2C", "2D"} and any(rank(c) == "4" for c in pres):
            break
    else:
        raise AssertionError("no seed gives the example's second deal")
    v = g.view(0)
    assert v["hand_number"] == 2 and v["dealer"] == A     # the President deals
    counts = {s: h["count"] for s, h in enumerate(v["zones"]["hand"])}
    assert [counts[s] for s in (B, C, D, E, A)] == [11, 11, 10, 10, 10]
    # the Scum's highest rank is 2 (2C, 2D): they give one 2
    assert g.current_player == E
    assert sorted(legal(g)) == ["give 2C", "give 2D"]
    g.apply("give 2D")
    assert "2D" in g.hand_of(A)
    # the President returns a 4
    four = next(c for c in g.hand_of(A) if rank(c) == "4")
    g.apply(f"give {four}")
    assert four in g.hand_of(E)
    assert [len(g.hand_of(s)) for s in (B, C, D, E, A)] == [11, 11, 10, 10, 10]   # sizes unchanged
    assert g.view(0)["phase"] == "climb" and g.current_player == A


@pytest.mark.parametrize("n, sizes", [(6, [9, 9, 9, 9, 8, 8]), (7, [8, 8, 8, 7, 7, 7, 7])])
def test_example_10_deal_sizes_6_and_7_players(n, sizes):
    want = list(range(n))                                 # A President, B VP, ...
    g = to_deal2(n, want=want, seed=3)
    v = g.view(0)
    assert v["dealer"] == A
    counts = [h["count"] for h in v["zones"]["hand"]]
    dealt_order = want[1:] + want[:1]                     # from the VP round to the President
    assert [counts[s] for s in dealt_order] == sizes
    assert sum(sizes) == 52
    do_exchange(g)
    roles = g.view(0)["roles"]
    assert [roles[s] for s in dealt_order] == role_names(n)[1:] + ["President"]


# --------------------------------------------------------------------------------------------------
# 9, 11, 12, 13, 14: variants
# --------------------------------------------------------------------------------------------------


def test_example_9_clear_threes():
    c = ["3D", "3C", "4S", "JS", "JH", "QS", "QH", "KS", "KH", "AS", "AH", "2S", "2H"]
    g = new_game({A: ["QD", "QC"], B: ["3S", "3H"], C: c}, n=4, variant="variants/president_clear_threes")
    act(g, "play QD QC", "play 3S 3H")
    assert trick(g)["to_beat_rank"] == "Q"                # the 3s now count as Queens
    assert g.current_player == C
    assert plays(g) == {("K", 2), ("A", 2), ("2", 2), ("3", 2)}
    assert "pass" in legal(g)
    for bad in ("play JS JH", "play QS QH", "play KS", "play 4S"):
        assert_illegal(g, bad)
    g.apply("play KS KH")
    assert trick(g)["to_beat_rank"] == "K"


def test_example_9_led_threes_keep_rank_three():
    g = new_game({A: ["3S"], B: ["3H", "4H", "KH"]}, n=4, variant="variants/president_clear_threes")
    g.apply("play 3S")
    assert trick(g)["to_beat_rank"] == "3"
    singles = {r for r, size in plays(g) if size == 1}
    assert {"4", "K", "3"} <= singles


@pytest.mark.parametrize("mode", ["higher_rank", "any_rank"])
def test_example_11_bigger_sets(mode):
    variant = {"higher_rank": "variants/president_bigger_sets_higher", "any_rank": "variants/president_bigger_sets_any"}
    hands = {A: ["7S"], B: ["9S", "9H"], C: ["10S", "10H", "10D", "KS"], D: ["8S", "8H", "8D", "8C"]}
    g = new_game(hands, n=4, variant=variant[mode])
    act(g, "play 7S", "play 9S 9H")                       # A leads a single 7; B plays 9-9
    assert g.current_player == C
    assert ("10", 3) in plays(g)                          # more cards, higher rank
    assert ("K", 1) not in plays(g)                       # fewer cards
    assert_illegal(g, "play KS")
    g.apply("play 10S 10H 10D")
    assert g.current_player == D
    if mode == "higher_rank":
        assert ("8", 4) not in plays(g)                   # 8 is lower than 10
        assert_illegal(g, "play 8S 8H 8D 8C")
    else:
        assert ("8", 4) in plays(g)                       # bigger beats smaller regardless of rank
        g.apply("play 8S 8H 8D 8C")
        assert trick(g)["last_play"] == ["8S", "8H", "8D", "8C"]


def test_example_12_equal_rank_with_skip_four_players():
    g = new_game({A: ["8S"], B: ["8H"]}, n=4, variant="variants/president_equal_rank_skip")
    act(g, "play 8S")                                     # A leads a single 8
    assert ("8", 1) in plays(g)
    act(g, "play 8H")                                     # B plays an 8
    assert g.current_player == D                          # C is skipped, D plays next


def test_example_12_equal_rank_with_skip_two_active_players():
    g = new_game(TWO_LEFT, n=4, variant="variants/president_equal_rank_skip")
    dump(g, A)
    dump(g, B)
    Y, X = C, D                                           # only X and Y are active
    assert g.view(0)["finished"] == [A, B] and g.current_player == Y
    six_y = next(c for c in g.hand_of(Y) if rank(c) == "6")
    six_x = next(c for c in g.hand_of(X) if rank(c) == "6")
    act(g, f"play {six_y}")                               # Y leads a 6
    act(g, f"play {six_x}")                               # X plays a 6
    assert g.current_player == X                          # Y is skipped, X plays again
    p = rules({}, "variants/president_equal_rank_skip").params
    assert legal_kinds(g) == options(g.hand_of(X), ("6", 1), p)
    singles = {r for r, size in plays(g) if size == 1}
    assert singles == {rank(c) for c in g.hand_of(X) if strength(rank(c)) >= strength("6")}
    assert "pass" in legal(g)
    act(g, "pass")                                        # X passes
    assert g.current_player == Y and trick(g)["last_play"] == [six_x]   # Y was skipped, has not passed
    act(g, "pass")
    assert not trick(g)["last_play"] and g.current_player == X


def test_example_13_twos_high_and_low():
    d = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH", "2H"]
    g = new_game({A: ["KS"], B: ["2S"], C: ["4S"], D: d}, n=4, variant="variants/president_twos_high_and_low")
    act(g, "play KS", "play 2S")                          # B beats the K with a 2
    act(g, "play 4S")                                     # C beats the 2 with a 4
    assert g.current_player == D
    singles = {r for r, size in plays(g) if size == 1}
    assert singles == {"5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"}
    assert all(size == 1 for _, size in plays(g))


def test_example_14_revolution_reverses_order_and_direction():
    d = ["8S", "8H", "8D", "8C", "10S", "10H", "10D", "10C"]
    g = new_game({A: ["9S", "9H", "9D", "9C"], D: d}, n=4, variant="variants/president_revolution")
    assert g.view(0)["turn_order"] == [A, B, C, D]
    act(g, "play 9S 9H 9D 9C")                            # A leads 9-9-9-9: order and direction flip
    v = g.view(0)
    assert v["state"]["revolution"] is True
    assert g.current_player == D                          # play now runs A, D, C, B
    assert v["turn_order"][v["turn_order"].index(A):] + v["turn_order"][:v["turn_order"].index(A)] == [A, D, C, B]
    assert ("8", 4) in plays(g)                           # 8 ranks above 9 in the inverse order
    assert ("10", 4) not in plays(g)
    assert_illegal(g, "play 10S 10H 10D 10C")
    act(g, "play 8S 8H 8D 8C")                            # another four of a kind: back to normal
    v = g.view(0)
    assert v["state"]["revolution"] is False
    assert g.current_player == A                          # normal direction again: after D comes A
    assert v["turn_order"] == [A, B, C, D]


def test_example_14_revolution_lasts_across_tricks_lower_ranks_win():
    g = new_game({A: ["9S", "9H", "9D", "9C", "KS"], D: ["3S", "QS", "AS", "2S"]}, n=4,
                 variant="variants/president_revolution")
    act(g, "play 9S 9H 9D 9C", "pass", "pass", "pass")     # D, C, B pass: the trick ends, A leads
    assert g.current_player == A and g.view(0)["state"]["revolution"] is True
    act(g, "play KS")
    assert g.current_player == D
    singles = {r for r, size in plays(g) if size == 1}
    assert singles == {rank(c) for c in g.hand_of(D) if strength(rank(c)) < strength("K")}
    assert "A" not in singles and "2" not in singles and {"3", "Q"} <= singles
    act(g, "pass")
    assert g.current_player == C                          # the reversed direction holds


def test_example_14_revolution_ends_with_the_deal():
    g = new_game({A: ["9S", "9H", "9D", "9C"]}, n=4, variant="variants/president_revolution")
    act(g, "play 9S 9H 9D 9C", "pass", "pass", "pass")
    assert g.view(0)["state"]["revolution"] is True
    steer_deal(g, [A, B, C])
    do_exchange(g)
    v = g.view(0)
    assert v["state"]["revolution"] is False
    assert v["turn_order"] == g.hand_log[0]["order"]      # normal direction in the new deal


# --------------------------------------------------------------------------------------------------
# Variants 4 alternatives (parameters of the revolution)
# --------------------------------------------------------------------------------------------------


def test_variant_4_rank_order_only_when_direction_does_not_reverse():
    g = new_game({A: ["9S", "9H", "9D", "9C"], B: ["8S", "8H", "8D", "8C"]}, n=4,
                 overrides={"revolution": True, "revolution_reverses_direction": False})
    act(g, "play 9S 9H 9D 9C")
    assert g.view(0)["state"]["revolution"] is True
    assert g.current_player == B                          # direction unchanged
    assert ("8", 4) in plays(g)                           # but lower ranks win


def test_variant_4_four_singles_in_a_row_trigger():
    ov = {"revolution": True, "equal_rank_beats": True, "revolution_triggers": "four_of_a_kind_or_singles"}
    g = new_game({A: ["8S", "KS"], B: ["8H"], C: ["8D"], D: ["8C"]}, n=4, overrides=ov)
    act(g, "play 8S", "play 8H", "play 8D")
    assert g.view(0)["state"]["revolution"] is False
    act(g, "play 8C")                                     # the fourth single 8 in a row
    assert g.view(0)["state"]["revolution"] is True
    assert g.current_player == C                          # direction reversed: after D comes C
    # the default trigger (four of a kind only) ignores four singles
    g = new_game({A: ["8S"], B: ["8H"], C: ["8D"], D: ["8C"]}, n=4,
                 overrides={"revolution": True, "equal_rank_beats": True})
    act(g, "play 8S", "play 8H", "play 8D", "play 8C")
    assert g.view(0)["state"]["revolution"] is False and g.current_player == A


def test_variant_4_revolution_carries_into_next_deal_when_not_reset():
    ov = {"revolution": True, "revolution_resets_each_deal": False}
    g = new_game({A: ["9S", "9H", "9D", "9C"]}, n=4, overrides=ov)
    act(g, "play 9S 9H 9D 9C", "pass", "pass", "pass")
    steer_deal(g, [A, B, C])
    do_exchange(g)
    assert g.view(0)["state"]["revolution"] is True
