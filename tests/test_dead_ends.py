"""Dead ends of the open-meld and partnership look-aheads (issue 8, section 1).

The engine guarantees that it never offers an action after which a player who must act has no legal action:
its look-aheads are exact, or err on the side of not offering, and a search that runs out of budget never
answers yes.  Each test reproduces a position where that failed (a stacked deck, or a small partnership-family
ruleset written here), checks that the dangerous action is no longer offered -- or that the one offered moves
the card it was judged with -- and that the safe action is still offered, and then explores every placement the
engine offers from the position (``explore``), asserting at every position reached that the game is over or
some action is legal.
"""

from __future__ import annotations

import copy
from collections import Counter

import rulesdsl
from rulesdsl.engine.phases.partnership import can_meld_down

import hand_and_foot_helpers as hf
import rummy500_helpers as rh
from hand_and_foot_helpers import E, N, S, W

# --------------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------------

PLACING = ("meld", "layoff", "take", "ask", "yes", "no")


def legal(game) -> list:
    return [str(a) for a in game.legal_actions()]


def explore(game, limit: int = 400) -> int:
    """Every sequence of placements (melds, layoffs, takes, asking and answering) the engine offers from
    ``game``, depth first on copies: at every position reached the game is over or some action is legal.
    Discards and draws end the exploration of a line (they end the turn).  Returns the positions seen."""
    seen = 0
    todo = [game]
    while todo and seen < limit:
        g = todo.pop()
        seen += 1
        if g.is_over:
            continue
        acts = legal(g)
        assert acts, f"dead end after {g.history[-6:]}"
        for a in acts:
            if a.startswith(PLACING):
                h = copy.deepcopy(g)
                h.apply(a)
                todo.append(h)
    return seen


def after(game, action: str):
    """A copy of ``game`` after ``action``."""
    h = copy.deepcopy(game)
    h.apply(action)
    return h


def hand_of(game, seat: int) -> list:
    return sorted(game.view(seat)["zones"]["hand"][seat]["cards"])


# --------------------------------------------------------------------------------------------------
# 1. Rummy 500 with two decks: the copy of a card an action moves is the copy it was judged with
# --------------------------------------------------------------------------------------------------


def _r500_two_decks(hand: list, upcard: str):
    """Five players (two decks, R500-DEAL-2): seat 0 holds ``hand`` and the upcard is ``upcard``."""
    return rh.deal({0: hand}, upcard, players=5)


def test_r500_layoff_of_a_card_held_twice_moves_the_copy_just_taken():
    """Seat 0 holds 5D 6D 7D 8D 4S 4H 4C and takes the other 8D from the pile.  With 5D-7D and the fours
    melded, `layoff 8D on 1` is offered; it must lay off the taken 8D (which may not be discarded,
    R500-TURN-7), so that the held 8D can be discarded.  Laying off the held copy left the taken one with no
    meld to go to and no discard: nothing was legal."""
    g = _r500_two_decks(["5D", "6D", "7D", "8D", "4S", "4H", "4C"], "8D")
    g.apply("take discard")
    g.apply("meld 5D 6D 7D")
    g.apply("meld 4S 4H 4C")
    assert hand_of(g, 0) == ["8D", "8D"]
    assert "layoff 8D on 1" in legal(g)                       # safe: it is still offered
    h = after(g, "layoff 8D on 1")
    assert hand_of(h, 0) == ["8D"]
    assert legal(h) == ["discard 8D"]                         # the held copy: it may be discarded
    explore(g)


def test_r500_meld_of_a_card_held_twice_uses_the_copy_just_taken():
    """Seat 0 holds 4S 4D 4C (and junk) and takes the other 4C: `meld 4S 4D 4C` melds the taken 4C, and the
    held one may be discarded (random play of two-deck matches once ended here with nothing legal)."""
    g = _r500_two_decks(["4S", "4D", "4C", "9H", "JS", "KD", "QC"], "4C")
    g.apply("take discard")
    assert "meld 4S 4D 4C" in legal(g)
    h = after(g, "meld 4S 4D 4C")
    assert hand_of(h, 0) == sorted(["4C", "9H", "JS", "KD", "QC"])
    assert "discard 4C" in legal(h)
    explore(g)


def test_r500_only_the_held_copy_left_is_discardable_after_melding_both_ways():
    """The same position, with nothing but the four fours: after the meld only the held 4C is left, and it
    may be discarded (going out), where melding the held copy would have left the taken one stuck."""
    g = rh.deal({0: ["4S", "4D", "4C", "9H", "JS", "KD", "QC"]}, "4C", players=8)
    g.apply("take discard")
    explore(g)


# --------------------------------------------------------------------------------------------------
# 2, 5, 6. Hand and Foot: the initial-minimum bound respects the closing size, the wild ratio and the
#          cards the hand must keep
# --------------------------------------------------------------------------------------------------


def _hf_first_turn(keep: list, minimum: int, stock: list):
    g = hf.deal({N: keep}, stock=list(stock), overrides={"min_meld": [minimum, 90, 120, 150]})
    g.apply("draw stock")
    return g


EIGHT_EIGHTS_FOUR_ACES = ["8S", "8H", "8D", "8C", "8S", "8H", "8D", "8C", "AS", "AH", "AD", "AC", "4C"]


def test_hf_minimum_bound_knows_a_book_closes_at_seven():
    """Eight eights and four aces: one meld of eights closes at seven cards (HF-MELD-4), so the eighth eight
    cannot be placed: 7 x 10 + 4 x 20 = 150 at most.  With a minimum of 155 (the fourth deal's 150 with 5
    more) nothing may be placed; the bound that counted the eighth eight (160) offered melds after which,
    at 140 with two eights beside a six-card meld, nothing was legal."""
    g = _hf_first_turn(EIGHT_EIGHTS_FOUR_ACES, 155, ["9S", "10S"])
    assert [a for a in legal(g) if a.startswith(("meld", "layoff"))] == []
    assert "discard 4C" in legal(g)


def test_hf_minimum_bound_at_exactly_the_most_still_offers_the_melds():
    """With a minimum of 150 the same hand can reach it (7 eights and 4 aces): the melds are offered, and every
    line of placements the engine offers ends somewhere with a legal action."""
    g = _hf_first_turn(EIGHT_EIGHTS_FOUR_ACES, 150, ["9S", "10S"])
    assert "meld 8S 8H 8D" in legal(g)
    assert "meld AS AH AD" in legal(g)
    for a in ["meld 8S 8H 8D", "layoff 8C on 1", "layoff 8S on 1", "layoff 8H on 1", "meld AS AH AD"]:
        g.apply(a)
    assert "layoff 8D on 1" in legal(g)                       # the seventh eight: 130 placed
    g.apply("layoff 8D on 1")                                 # 140: the book is closed
    assert legal(g) == ["layoff AC on 2"] or "layoff AC on 2" in legal(g)
    assert "layoff 8C on 1" not in legal(g)                    # the eighth eight fits nowhere
    g.apply("layoff AC on 2")                                 # 160 >= 150
    assert g.view(0)["team_melded"][0]
    assert any(a.startswith("discard") for a in legal(g))


def test_hf_two_eights_beside_a_six_card_meld_below_the_minimum():
    """The position of the issue: a six-card meld of eights, two eights in hand, below the minimum: either
    layoff closes the book and leaves the other eight with nowhere to go and no discard (below the minimum).
    Eight eights (7 placeable: 70) and three aces (60) make 130 at most; with a minimum of 140 such a
    position is never reached: nothing is offered (the bound that counted the eighth eight said 140)."""
    keep = ["8S", "8H", "8D", "8C", "8S", "8H", "8C", "8H", "AS", "AH", "AD", "4C", "6D"]
    g = _hf_first_turn(keep, 140, ["9S", "10S"])
    assert [a for a in legal(g) if a.startswith(("meld", "layoff"))] == []
    g = _hf_first_turn(keep, 130, ["9S", "10S"])
    assert "meld AS AH AD" in legal(g)                       # at 130 the same hand may meld
    explore(g, limit=150)


def test_hf_a_held_card_counts_beside_pile_cards_of_its_rank():
    """HF-MELD-9: of the cards taken with the pile only the top card counts; a card held before counts.  West
    holds 9H 9D, 5S 5H 5D and a king; the pile is KC KD KH 9S: 9 9 9 (30) + 5 5 5 (15) + K(held) K K (10) = 55
    >= 50, so the pile may be taken, and the minimum is then met with the held king melded."""
    g = hf.pile_deal(["KC", "KD", "KH", "9S"], hands={W: ["9H", "9D", "5S", "5H", "5D", "KS", "4C", "6C", "7C",
                                                          "8C", "10C", "JC", "QC"]})
    assert "take discard" in legal(g)
    g.apply("take discard")
    g.apply("meld 9S 9H 9D")
    g.apply("meld 5S 5H 5D")
    assert not g.view(0)["team_melded"][1]
    g.apply("meld KS KD KH")                                  # the held KS counts: 55
    assert g.view(0)["team_melded"][1]
    assert any(a.startswith("discard") for a in legal(g))


# --------------------------------------------------------------------------------------------------
# 3. Hand and Foot, wild cards may not be discarded to the foot: only the player's own melds are places
# --------------------------------------------------------------------------------------------------


def test_hf_wild_discard_forbidden_no_layoff_leaves_a_lone_wild_card_with_no_own_meld_for_it():
    """variants/hand_and_foot_wild_discard_forbidden: North ends with KS and 2H in hand, their own melds full
    of wild cards (K 4+2, A 3+1, Q 2+1: naturals >= 2 x wilds, HF-MELD-2) while East's meld of jacks could take
    2H.  `layoff KS on <K>` would leave a lone 2H that may neither be discarded to the foot (HF-WILD-3) nor
    laid off on East's meld (HF-TURN-4): it is not offered; discarding KS (or 2H) is."""
    hands = {E: ["JS", "JH", "JD", "JC", "JS"],
             N: ["KH", "KD", "KC", "KS", "2C", "2D", "AS", "AH", "2S", "QS", "QH", "2C", "KS"]}
    g = hf.deal(hands, stock=[None, None, None, None, None, None, "2H", "AD"], dealer=N,
                variant="wild_discard_forbidden")
    assert g.current_player == E
    g.apply("draw stock")
    g.apply("meld JS JH JD")
    g.apply("layoff JC on 1")
    g.apply("layoff JS on 1")                                 # 50: East's team has melded
    g.apply(next(a for a in legal(g) if a.startswith("discard")))
    hf.junk_turn(g, S)
    hf.junk_turn(g, W)
    assert g.current_player == N
    g.apply("draw stock")                                     # 2H, AD
    kings = hf.build(g, "KH", "KD", "KC", "KS", "2C", "2D")
    hf.build(g, "AS", "AH", "2S", "AD")
    hf.build(g, "QS", "QH", "2C")
    assert hand_of(g, N) == ["2H", "KS"]
    acts = legal(g)
    assert f"layoff KS on {kings}" not in acts
    assert "discard KS" in acts and "discard 2H" in acts
    explore(g)


# --------------------------------------------------------------------------------------------------
# 4. Hand and Foot: asking to go out only when going out is possible; a search never answers yes on a guess
# --------------------------------------------------------------------------------------------------


def _north_in_the_foot(foot: list):
    """North melds the whole hand in the first turn (A, K, Q, J, 10 sets: 180 >= 50), picks up ``foot`` and
    discards its last card; East, South and West play junk turns; North is then on turn in the foot, South
    has not played from the foot."""
    hand = ["AS", "AH", "AD", "KS", "KH", "KD", "QS", "QH", "QD", "JS", "JH", "JD", "10S"]
    g = hf.deal({N: hand}, {N: foot}, stock=["10H", "10D"])
    g.apply("draw stock")
    for m in ["AS AH AD", "KS KH KD", "QS QH QD", "JS JH JD", "10S 10H 10D"]:
        g.apply("meld " + m)
    assert g.view(N)["zones"]["foot"][N]["count"] == 0 or hand_of(g, N) == sorted(foot)
    g.apply(f"discard {foot[-1]}")
    hf.junk_turn(g, E)
    hf.junk_turn(g, S)
    hf.junk_turn(g, W)
    g.apply("draw stock")
    return g


FOOT = ["AC", "KC", "QC", "JC", "10C", "AS", "KS", "QS", "JS", "2C", "2D", "Jk", "9C"]


def test_hf_ask_is_not_offered_while_the_partner_has_not_played_from_the_foot():
    """HF-OUT-3: going out needs the partner to have played a turn from the foot (and books).  North can meld
    almost the whole foot onto five open melds with three wild cards to spread -- a large search -- but
    going out is impossible: `ask` is not offered."""
    g = _north_in_the_foot(FOOT)
    g._legal = None
    acts = legal(g)                      # its speed is measured in benchmarks/bench_legal.py, not here
    assert "ask" not in acts
    assert any(a.startswith("discard") for a in acts)


def test_hf_a_search_out_of_budget_never_answers_yes():
    """The going-out search answers no when its budget runs out, whatever the position (here: North in the
    foot, a budget of one position)."""
    g = _north_in_the_foot(FOOT)
    assert can_meld_down(g, keep=1, budget=1) is False
    assert can_meld_down(g, keep=1, budget=1, then_out=True) is False


def test_hf_meld_down_search_finds_a_way_when_one_exists():
    """Without the going-out condition, North's foot (14 cards after the draw) can be melded down to one card:
    every natural lays off on the five open melds, the wild cards spread under the ratio."""
    g = _north_in_the_foot(FOOT)
    assert can_meld_down(g, keep=1) is True


# --------------------------------------------------------------------------------------------------
# 5. New partnership-family rulesets: takes, closing layoffs and the keep-cards rule
# --------------------------------------------------------------------------------------------------

FAMILY = """
name: Partnership books
players: 4
teams: {{count: 2}}
params:
  hand_size: {hand_size}
  take_count: 1
deck:
  ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]
  suits: [S, H, D, C]
  copies: 2
  jokers: 2
  values: {{joker: 50, 2: 20, A: 20, K: 10, Q: 10, J: 10, 10: 10, 9: 10, 8: 10, 7: 5, 6: 5, 5: 5, 4: 5, 3: 5}}
classes:
  wild: rank(card) == "2" or is_joker(card)
  natural: not wild(card)
wild: wild(card)
melds:
  group: {{kind: group, min: 3, max: 7, ranks: [3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A],
          wild_ratio: naturals >= 2 * wilds}}
  wilds: {{kind: wild, min: 3, max: 7}}
table:
  owner: team
  closes_at: {closes_at}
  one_open_per_rank: true
  books: {{clean: wilds == 0, dirty: wilds > 0 and naturals > 0, wild: naturals == 0}}
  {minimum}
  going_out:
    needs_discard: true
    keep_when_not_out: 2
    when: team_books(team_of(player), "clean") >= 5
zones:
  stock: {{visible: none}}
  discard: {{visible: top}}
  hand: {{per: player, visible: owner}}
deal:
  - {{deal: params.hand_size, to: hand}}
  - {{turn_up: discard}}
turn:
  - step: draw
    actions:
      - draw: stock
      - take: discard
        count: params.take_count
        when: count(discard) > 0
        meld_with:
          count: 2
          matching: >-
            if natural(top(discard)) then natural(card) and rank(card) == rank(top(discard)) else wild(card)
  - step: play
    repeat: true
    actions:
      - meld: any
      - layoff: own
      - discard: discard
scoring:
  each_team: melded_value(team)
match:
  first_dealer: random
  ends_when: deal.number >= 1
  next_dealer: next_seat(dealer)
"""


def family(tmp_path, hand_size: int = 7, closes_at: int = 7, minimum: str = ""):
    path = tmp_path / "family.yaml"
    path.write_text(FAMILY.format(hand_size=hand_size, closes_at=closes_at,
                                  minimum=f"initial_minimum: {minimum}" if minimum else ""))
    return rulesdsl.load(str(path))


def family_game(rules, hands: dict, upcard: str, stock=(), hand_size: int = 7):
    """Dealer West (3): cards one at a time from North; seat 0 plays first.  Unnamed cards fill the hands
    (singles of distinct ranks 3..K first) and the stock in a fixed order."""
    full = Counter(rules.new_game(seed=0).prog.cards.text)
    named = [c for h in hands.values() for c in h] + [upcard] + list(stock)
    left = full - Counter(named)
    order = [r + s for s in "CDHS" for r in ["3", "4", "5", "6", "7", "9", "J", "Q", "K", "10", "8", "A"]]
    rest = [c for c in order for _ in range(left[c])] + [c for c in left if c not in order for _ in range(left[c])]
    hs = {}
    for s in range(4):
        h = list(hands.get(s, []))
        pool = [c for c in rest if c[:-1] not in {x[:-1] for x in h}]
        while len(h) < hand_size:
            c = pool.pop(0)
            if c[:-1] in {x[:-1] for x in h}:
                continue
            h.append(c)
            rest.remove(c)
        hs[s] = h
    deck = [hs[s][i] for i in range(hand_size) for s in range(4)] + [upcard] + list(stock) + rest
    assert Counter(deck) == full
    return rules.new_game(seed=0, dealer=3, deck=deck)


def test_family_take_not_offered_when_melding_what_it_forces_out_leaves_too_few_cards(tmp_path):
    """keep_when_not_out: 2.  North holds 8H 8D 5C; the pile's top is 8C, which must be melded with 8H 8D:
    one card would be left, fewer than the two to keep (going out is impossible), so the take is not
    offered.  With a fourth card in hand it is."""
    rules = family(tmp_path, hand_size=3)
    g = family_game(rules, {0: ["8H", "8D", "5C"]}, "8C", hand_size=3)
    assert legal(g) == ["draw stock"]
    explore(g)
    rules4 = family(tmp_path, hand_size=4)
    g = family_game(rules4, {0: ["8H", "8D", "5C", "6C"]}, "8C", hand_size=4)
    assert "take discard" in legal(g)
    g.apply("take discard")
    assert [sorted(a.split()) for a in legal(g)] == [sorted("meld 8C 8H 8D".split())]
    explore(g)


def test_family_closing_layoff_does_not_strand_cards_that_must_be_melded(tmp_path):
    """Books close at 5.  North melds a wild meld of four (one short of a book) and four kings (room for two
    wild cards), keeping Jk and 2C.  West discards 2S: taking it forces 2S, Jk and 2C down together
    (`meld_with`); a new wild meld is not allowed (one open meld per rank), and cards that must go down
    together go onto a meld of their rank -- the wild meld -- one at a time: the first closes it and the
    other two have nowhere to go.  The take is not offered (the look-ahead once planned those cards onto the
    kings, where the layoffs are never offered); drawing is."""
    rules = family(tmp_path, hand_size=13, closes_at=5)
    hands = {0: ["2S", "2H", "Jk", "2D", "KS", "KH", "KD", "KC", "Jk", "2C", "QS", "QD", "4H"],
             3: ["2S"]}
    g = family_game(rules, hands, "5D", stock=["AC"], hand_size=13)
    assert g.current_player == 0
    g.apply("draw stock")                                     # AC
    for a in ["meld 2S 2H Jk", "layoff 2D on 1", "meld KS KH KD", "layoff KC on 2", "discard 4H"]:
        g.apply(a)
    for seat in (1, 2):
        assert g.current_player == seat
        g.apply("draw stock")
        g.apply(next(a for a in legal(g) if a.startswith("discard") and a != "discard 2S"))
    g.apply("draw stock")
    g.apply("discard 2S")                                     # West
    assert g.current_player == 0 and hand_of(g, 0) == sorted(["Jk", "2C", "QS", "QD", "AC"])
    assert legal(g) == ["draw stock"]
    explore(g)


def test_family_take_of_wild_cards_offered_where_a_wild_meld_can_hold_them(tmp_path):
    """The same, with books closing at 7: the wild meld of four takes the three wild cards (seven: a book), so
    the take is offered, and every line of placements after it ends with a legal action."""
    rules = family(tmp_path, hand_size=13, closes_at=7)
    hands = {0: ["2S", "2H", "Jk", "2D", "KS", "KH", "KD", "KC", "Jk", "2C", "QS", "QD", "4H"],
             3: ["2S"]}
    g = family_game(rules, hands, "5D", stock=["AC"], hand_size=13)
    g.apply("draw stock")
    for a in ["meld 2S 2H Jk", "layoff 2D on 1", "meld KS KH KD", "layoff KC on 2", "discard 4H"]:
        g.apply(a)
    for seat in (1, 2):
        g.apply("draw stock")
        g.apply(next(a for a in legal(g) if a.startswith("discard") and a != "discard 2S"))
    g.apply("draw stock")
    g.apply("discard 2S")
    assert "take discard" in legal(g)
    explore(after(g, "take discard"))


def test_family_minimum_look_ahead_keeps_the_cards_to_keep(tmp_path):
    """An initial minimum of 60 and keep_when_not_out: 2.  North holds K K K Q Q Q and draws 5C: both melds
    make 60 but would leave one card, fewer than the two to keep; one meld (30) is all that may be placed,
    so neither is offered (after one, the turn could neither reach the minimum nor end below it).  With one
    more card in hand, both melds are offered and the minimum is met."""
    rules = family(tmp_path, hand_size=6, minimum="60")
    g = family_game(rules, {0: ["KS", "KH", "KD", "QS", "QH", "QD"]}, "9D", stock=["5C"], hand_size=6)
    g.apply("draw stock")
    acts = legal(g)
    assert [a for a in acts if a.startswith(("meld", "layoff"))] == []
    assert "discard 5C" in acts
    explore(g)
    rules = family(tmp_path, hand_size=7, minimum="60")
    g = family_game(rules, {0: ["KS", "KH", "KD", "QS", "QH", "QD", "4C"]}, "9D", stock=["5C"], hand_size=7)
    g.apply("draw stock")
    assert "meld KS KH KD" in legal(g) and "meld QS QH QD" in legal(g)
    explore(g)
    g.apply("meld KS KH KD")
    g.apply("meld QS QH QD")
    assert g.view(0)["team_melded"][0]
