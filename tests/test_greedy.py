"""The ``greedy`` bot: legal, leaves the game alone, blind to hidden cards, goes out, climbs low, ends.

Positions come from seeded random play of every bundled game (and stacked decks where a test needs a
particular hand); nothing here times anything.
"""

from __future__ import annotations

import copy
import random

import pytest

import rulesdsl
from rulesdsl.bots import make_bot
from rulesdsl.bots.greedy import GreedyBot
from rulesdsl.source.resolve import bundled_names

from common import random_moves

GAMES = ["gin_rummy", "rummy_500", "hand_and_foot", "contract_rummy", "president", "big_two", "crazy_eights",
         "hearts", "spades"]
BUNDLED = [name for name, _ in bundled_names()]
#: per-hand bound: a greedy table that has not finished a hand by then is looping
HAND_BOUND = 4000


def _rules(name: str):
    return rulesdsl.load(name)


def _positions(name: str, count: int, seed: int = 0):
    """``count`` positions of ``name`` reached by seeded random play (different depths)."""
    rules = _rules(name)
    rng = random.Random(seed)
    out = []
    for i in range(count):
        game = rules.new_game(seed=seed * 100 + i)
        random_moves(game, rng, rng.randrange(0, 120))
        if not game.is_over:
            out.append(game)
    return out


def _state(game) -> tuple:
    return (copy.deepcopy(game.record()), [copy.deepcopy(game.view(s)) for s in range(game.n)],
            game.cards_in_play, [list(h) for h in game.pzones["hand"]], list(game.zones["stock"]))


@pytest.mark.parametrize("name", GAMES)
def test_greedy_returns_a_legal_action_and_leaves_the_game_unchanged(name):
    bot = GreedyBot(seed=1)
    for game in _positions(name, 12):
        before = _state(game)
        action = bot.choose(game)
        assert action in game.legal_actions()
        assert _state(game) == before
        game.apply(action)                      # and the game goes on from it


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_choices(name):
    for game in _positions(name, 6, seed=3):
        a, b = GreedyBot(seed=9), GreedyBot(seed=9)
        g1, g2 = game.clone(), game.clone()
        for _ in range(30):
            if g1.is_over:
                break
            x, y = a.choose(g1), b.choose(g2)
            assert x == y
            g1.apply(x)
            g2.apply(y)


def _reshuffle_hidden(game, seat: int, rng: random.Random):
    """A copy of ``game`` that differs only in what ``seat`` cannot see: the stock's order and the
    cards of the other players' hands and of every face-down packet, dealt out again among them."""
    g = game.clone()
    prog = g.prog
    places = [g.zones["stock"]]
    for z in prog.player_zones:
        vis = prog.model.zones[z].visible
        for s, cards in enumerate(g.pzones[z]):
            if vis == "all" or (vis == "owner" and s == seat) or (z == "hand" and g.revealed[s]):
                continue
            places.append(cards)
    pool = []
    sizes = []
    for cards in places:
        sizes.append(len(cards))
        while cards:
            pool.append(cards.pop())
    rng.shuffle(pool)
    for cards, n in zip(places, sizes):
        for _ in range(n):
            cards.append(pool.pop())
    g._legal = None
    return g


@pytest.mark.parametrize("name", ["gin_rummy", "rummy_500", "hand_and_foot", "contract_rummy"])
def test_greedy_choice_does_not_depend_on_hidden_cards(name):
    """Same position as the seat sees it, hidden cards dealt differently: the same choice."""
    rng = random.Random(5)
    checked = 0
    for game in _positions(name, 25, seed=7):
        seat = game.current_player
        if game.phase not in ("turn", "offer"):
            continue
        other = _reshuffle_hidden(game, seat, rng)
        if [str(a) for a in other.legal_actions()] != [str(a) for a in game.legal_actions()]:
            continue                            # a rule reads hidden cards to list the actions
        assert GreedyBot(seed=4).choose(game) == GreedyBot(seed=4).choose(other)
        checked += 1
    assert checked >= 5


def test_greedy_draws_blind_unless_the_discard_strictly_helps():
    """Gin, stacked: with nothing for the upcard to do the seat draws; when the upcard completes a
    meld it takes it -- in both cases whatever the stock holds."""
    rules = _rules("gin_rummy")
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    every = [r + s for s in "SHDC" for r in ranks]

    def deck(hand1, hand0, upcard, stock_reversed=False):
        used = set(hand1) | set(hand0) | {upcard}
        rest = [c for c in every if c not in used]
        if stock_reversed:
            rest.reverse()
        out = []
        for a, b in zip(hand1, hand0):
            out += [a, b]
        return out + [upcard] + rest

    hand1 = ["9S", "10S", "JS", "KH", "KD", "KC", "AD", "2C", "3H", "4D"]     # deadwood 10, no near meld
    hand0 = ["AH", "5H", "6H", "8S", "7S", "5C", "6C", "7D", "8D", "9H"]
    for upcard, wanted in (("8C", "pass"), ("QS", "take")):
        for rev in (False, True):
            game = rules.new_game(seed=1, dealer=0, deck=deck(hand1, hand0, upcard, rev))
            assert game.current_player == 1 and game.phase == "offer"
            assert GreedyBot(seed=0).choose(game).verb == wanted


def test_greedy_goes_out_when_it_can():
    """Gin, stacked: the upcard gives seat 1 gin; it takes it, then goes gin (not knock, not discard)."""
    rules = _rules("gin_rummy")
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    every = [r + s for s in "SHDC" for r in ranks]
    hand1 = ["2S", "3S", "4S", "7H", "7D", "7C", "9D", "10D", "JD", "KC"]
    hand0 = ["AH", "2H", "3H", "5C", "6C", "8S", "9S", "10H", "JC", "QS"]
    upcard = "5S"
    used = set(hand1) | set(hand0) | {upcard}
    deck = [c for pair in zip(hand1, hand0) for c in pair] + [upcard] + [c for c in every if c not in used]
    game = rules.new_game(seed=2, dealer=0, deck=deck)
    bot = GreedyBot(seed=0)
    assert str(bot.choose(game)) == "take discard"
    game.apply("take discard")
    action = bot.choose(game)
    assert action.verb == "gin" and action.cards == ("KC",)


#: trick-taking games have no way out: every deal is played to its last trick
@pytest.mark.parametrize("name", [g for g in GAMES if g not in ("hearts", "spades")])
def test_greedy_takes_a_way_out_whenever_one_is_legal(name):
    """Along greedy play (first hands of two deals): whenever some legal action makes the seat go out
    (checked on a clone), greedy's choice is one of them."""
    bot = GreedyBot(seed=2)
    seen = 0
    for seed in (1, 2):
        game = _rules(name).new_game(seed=seed)
        for _ in range(600):
            if game.is_over or game.hand_number > 1:
                break
            seat, hand0 = game.current_player, game.hand_number
            hand = game.pzones[game.prog.climbing.play_from if game.phase == "climb" else "hand"][seat]
            outs = []
            for a in game.legal_actions():
                c = game.clone()
                c.apply(a)
                if bot._went_out(c, seat, hand0) or (game.phase == "climb" and a.verb == "play"
                                                     and len(a.cards) == len(hand)):
                    outs.append(a)
            choice = bot.choose(game)
            if outs:
                seen += 1
                assert choice in outs
            game.apply(choice)
    if name != "hand_and_foot":
        assert seen >= 1


def _rank_pos(rules_name: str):
    order = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
    return lambda text: order.index(text[:-1])


def test_greedy_plays_the_lowest_combination_that_beats_the_last():
    """President (default rules: no revolution, suits never matter): when greedy cannot go out it plays
    the lowest rank it may, the most cards of it, and never passes while a play exists."""
    pos = _rank_pos("president")
    bot = GreedyBot(seed=3)
    checked = 0
    for game in _positions("president", 40, seed=13):
        if game.phase != "climb":
            continue
        seat = game.current_player
        plays = [a for a in game.legal_actions() if a.verb == "play"]
        if not plays or any(len(a.cards) == len(game.pzones["hand"][seat]) for a in plays):
            continue
        choice = bot.choose(game)
        assert choice.verb == "play"
        low = min(pos(a.cards[0]) for a in plays)
        assert pos(choice.cards[0]) == low
        assert len(choice.cards) == max(len(a.cards) for a in plays if pos(a.cards[0]) == low)
        checked += 1
    assert checked >= 10


def test_greedy_stacked_lead_plays_its_pair_of_threes():
    """Big Two, 4 players, stacked: the holder of 3D leads; greedy leads its lowest rank with the most
    cards (the pair 3D 3S rather than 3D alone)."""
    rules = rulesdsl.load("big_two")
    ranks = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
    every = [r + s for s in "DCHS" for r in ranks]
    i, j = every.index("3S"), 4                # the 3S to the first seat dealt, beside the 3D
    every[i], every[j] = every[j], every[i]
    game = rules.new_game(seed=0, dealer=0, players=4, deck=every)
    seat = game.current_player
    hand = game.hand_of(seat)
    assert "3D" in hand and "3S" in hand
    choice = GreedyBot(seed=0).choose(game)
    threes = sorted(c for c in hand if c.startswith("3"))
    assert sorted(choice.cards) == threes


def _play_one_hand(name: str, seed: int, players=None) -> None:
    rules = rulesdsl.load(name)
    game = rules.new_game(seed=seed, **({"players": players} if players else {}))
    bots = [make_bot("greedy", seed=seed + s) for s in range(game.n)]
    for _ in range(HAND_BOUND):
        if game.is_over or game.hand_number > 1:
            return
        game.apply(bots[game.current_player].choose(game))
    raise AssertionError(f"{name}: greedy players did not finish a hand in {HAND_BOUND} decisions")


@pytest.mark.parametrize("name", BUNDLED)
def test_greedy_tables_finish_a_hand_in_every_bundled_ruleset(name):
    _play_one_hand(name, seed=1)


SHORT = [("gin_rummy", {"target_score": 30}), ("variants/oklahoma_gin", {"target_score": 30}),
         ("rummy_500", {"target_score": 100}), ("president", {"target_score": 3}),
         ("big_two", {"penalty_limit": 10}), ("crazy_eights", {"target_score": 30}),
         ("hand_and_foot", {"deals_per_game": 1}), ("hearts", {"target_score": 40}),
         ("spades", {"target_score": 150})]


@pytest.mark.parametrize("name,overrides", SHORT)
def test_greedy_matches_end(name, overrides):
    rules = rulesdsl.load(name, overrides=overrides)
    game = rules.new_game(seed=4)
    bots = [make_bot("greedy", seed=40 + s) for s in range(game.n)]
    for _ in range(HAND_BOUND * 3):
        if game.is_over:
            return
        game.apply(bots[game.current_player].choose(game))
    raise AssertionError(f"{name}: a short greedy match did not end")


@pytest.mark.parametrize("name", ["hearts", "spades"])
def test_greedy_beats_random_at_trick_taking(name):
    """Greedy's trick play, read from the ruleset's own scoring (take the trick or duck it), wins more
    matches than random play would: greedy in seat 0 (and its partner's seat, in a partnership game)
    against random seats wins most of eight seeded matches (random play would win a quarter in Hearts,
    half in Spades)."""
    rules = rulesdsl.load(name)
    wins = 0
    for seed in range(8):
        game = rules.new_game(seed=seed)
        greedy = {0} if not game.teams else {0, 2}
        bots = [make_bot("greedy" if s in greedy else "random", seed=seed * 10 + s) for s in range(game.n)]
        for _ in range(20000):
            if game.is_over:
                break
            game.apply(bots[game.current_player].choose(game))
        assert game.is_over
        wins += game.winner == 0
    assert wins >= 6


def test_greedy_climbing_goes_out_with_the_play_that_empties_its_hand_over_a_lower_one():
    """A climbing lead from 4S 5S 6S, where singles and runs of three may be played: the lowest play is
    the single 4S, but the run empties the hand, so greedy plays the run (docs: it goes out when a play
    empties its hand, else plays the lowest).  Catches the way out left out of the choice."""
    from conformance.test_climbing_tricks import cl, stack, text
    rules = cl("""
    first_leader: dealer
    beats: play.kind == last.kind and play.rank > last.rank
    plays:
      single: {kind: set, min: 1, max: 1}
      run: {kind: run, min: 3, max: 3}
    """)
    deck = [r + s for s in "SH" for r in "3456"]
    game = rulesdsl.load("climb.yaml", text=text(rules)).new_game(
        deck=stack({0: ["4S", "5S", "6S"], 1: ["3S", "3H", "4H"]}, deck), dealer=0)
    plays = sorted(str(a) for a in game.legal_actions())
    assert "play 4S" in plays and "play 4S 5S 6S" in plays
    assert str(GreedyBot(seed=0).choose(game)) == "play 4S 5S 6S"


def test_greedy_bidding_looks_before_bidding_and_bids_what_its_hand_seems_worth():
    """Spades with blind nil always open: greedy never bids blind, it looks first; then it bids the legal
    number nearest to its cards of the top three ranks plus its trumps beyond three.  Seat 1 holds AS KS
    QS AH KH (five high cards) and 2S 3S 4S 5S (four lower trumps, one beyond three): it bids 6.  Catches
    the look being passed over."""
    from conformance.play import dealt
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    deck = [r + s for s in "SHDC" for r in ranks]
    seat1 = ["AS", "KS", "QS", "AH", "KH", "2S", "3S", "4S", "5S", "2D", "3D", "4D", "2C"]
    rest = [c for c in deck if c not in seat1]
    hands = {1: seat1, 2: rest[0:13], 3: rest[13:26], 0: rest[26:39]}
    game = rulesdsl.load("spades", overrides={"blind_nil_behind": 0}).new_game(seed=0, dealer=0, deck=dealt(hands, deck))
    assert game.current_player == 1 and "look" in [str(a) for a in game.legal_actions()]
    bot = GreedyBot(seed=0)
    assert str(bot.choose(game)) == "look"
    game.apply("look")
    assert str(bot.choose(game)) == "bid 6"


# ------------------------------------------------------------------ trick play (mechanics/tricks/greedy.py)
def _trick_game(hands: dict, winner: str = "highest"):
    """Three seats, three cards each of 2..6 in S, H, D; one point a trick (``winner: lowest``: a trick
    is a cost).  Seat 1 (the dealer's left) leads."""
    from conformance.play import game
    from conformance.test_tricks_play import ruleset, stacked
    text = ruleset().replace("match:\n", f"match:\n  winner: {winner}\n")
    return game(text, deck=stacked(hands), dealer=0)


def _greedy_plays(g) -> str:
    return str(GreedyBot(seed=0).choose(g))


@pytest.mark.parametrize("winner,lead", [("highest", "play 6S"), ("lowest", "play 2H")])
def test_greedy_leads_its_highest_card_where_tricks_score_and_its_lowest_where_they_cost(winner, lead):
    """At the lead the greedy trick player takes the trick if it wants it (its highest card) and
    otherwise gives it away (its lowest): ranks 2 low to 6 high."""
    g = _trick_game({1: ["6S", "2H", "4D"], 2: ["3S", "5H", "3D"], 0: ["2S", "4H", "5D"]}, winner)
    assert g.current_player == 1
    assert _greedy_plays(g) == lead


@pytest.mark.parametrize("winner,hands,play", [
    # wants tricks, can win: the cheapest card that wins (the 5S, not the 6S)
    ("highest", {2: ["2S", "5S", "6S"], 0: ["3S", "5H", "3D"]}, "play 5S"),
    # wants tricks, cannot win: its lowest card (the 2S)
    ("highest", {2: ["2S", "3S", "2D"], 0: ["5S", "5H", "3D"]}, "play 2S"),
    # avoids tricks, can lose: the highest card that loses (the 3S, not the 2S)
    ("lowest", {2: ["2S", "3S", "6S"], 0: ["5S", "5H", "3D"]}, "play 3S"),
    # avoids tricks, every card wins: its highest (the 6S, shedding the strongest card)
    ("lowest", {2: ["5S", "6S", "2D"], 0: ["3S", "5H", "3D"]}, "play 6S"),
])
def test_greedy_follows_with_the_cheapest_winner_or_the_highest_loser(winner, hands, play):
    """Following seat 1's 4S: a player who wants the trick takes it as cheaply as it can, or else plays
    low; one who does not plays the highest card that still loses, or else (every card takes it) its
    highest."""
    hands = {1: ["4S", "2H", "4D"], **hands}
    g = _trick_game(hands, winner)
    g.apply("play 4S")
    assert g.current_player == 2
    assert _greedy_plays(g) == play
