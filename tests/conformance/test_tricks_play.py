"""Conformance: `tricks` (docs/language.md, "tricks: one card each, follow suit, the strongest card takes
the trick").

Each test plays a tiny trick-taking ruleset written for one feature on a stacked deal and checks the
legal plays, the taker of a trick and where its cards go, exactly as the docs say."""

from __future__ import annotations

import pytest

import rulesdsl
from conformance.keys import documents
from conformance.play import dealt, game, legal

# Fifteen cards (ranks 2..6 in three suits); three cards each, dealt one at a time from the dealer's left.
RANKS = ["2", "3", "4", "5", "6"]
SUITS = ["S", "H", "D"]
DECK = [r + s for s in SUITS for r in RANKS]


def ruleset(tricks: str = "", players: int = 3, zones: str = "", deal: str = "  - {deal: 3, to: hand}\n",
            extra: str = "", ranks: str = "[2, 3, 4, 5, 6]", suits: str = "[S, H, D]",
            scoring: str = "  each_player: tricks(player)\n", deals: int = 1) -> str:
    """A trick game of ``deals`` deals (one by default); ``tricks`` holds the lines under `tricks:` besides the first leader
    (default the dealer's left) when they do not name one."""
    if "first_leader" not in tricks:
        tricks = "  first_leader: next_seat(dealer)\n" + tricks
    return (f"name: tricks conformance\nplayers: {players}\n"
            f"deck: {{ranks: {ranks}, suits: {suits}}}\n"
            "zones:\n  stock: {visible: none}\n  hand: {per: player, visible: owner}\n"
            "  trick: {visible: all}\n  taken: {per: player, visible: all}\n" + zones +
            "deal:\n" + deal + "tricks:\n" + tricks + extra +
            "scoring:\n" + scoring +
            f"match:\n  ends_when: deal.number >= {deals}\n  on_tie: shared\n")


def stacked(hands: dict, players: int = 3, dealer: int = 0, deck=DECK) -> list:
    """The deck (top card first) that deals ``hands[seat]`` (lists of equal length) one card at a time
    from the dealer's left; the cards not named follow, in deck order (the stock)."""
    return dealt({s: hands[s] for s in range(players)}, deck, dealer)


def play(g, *cards: str) -> None:
    for c in cards:
        g.apply(f"play {c}")


def taken(g, zone: str = "taken") -> list:
    return [sorted(z.get("cards", [])) for z in g.view(0)["zones"][zone]]


# ------------------------------------------------------------------ the trick itself

@documents("tricks", "tricks.first_leader", "tricks.follow")
def test_one_trick_follow_suit_highest_of_the_led_suit_takes_and_leads_next():
    """"Each player in turn plays one card (`play CARD`) to the table zone `to`; when every player who
    held cards at the lead has played, the strongest card takes the trick into its player's `won_to`
    zone ..., and that player leads the next."  `first_leader` is the seat that leads first; the led suit
    must be followed when able (`follow`, default true); with no trump the highest card of the suit led
    takes (an off-suit card, however high, does not)."""
    text = ruleset("  first_leader: seat_after(dealer, 2)\n  to: pot\n", zones="  pot: {visible: all}\n")
    # dealer 0: seat 2 leads first.
    g = game(text, deck=stacked({2: ["4S", "2H", "2D"], 0: ["2S", "6D", "3H"], 1: ["5H", "6H", "5D"]}), dealer=0)
    assert g.current_player == 2
    assert sorted(legal(g)) == ["play 2D", "play 2H", "play 4S"]        # a lead: anything
    play(g, "4S")
    assert g.view(0)["zones"]["pot"]["cards"] == ["4S"]
    assert g.view(0)["trick"]["plays"] == [{"seat": 2, "card": "4S"}]
    assert g.current_player == 0                                          # in turn: to the left
    assert legal(g) == ["play 2S"]                                        # must follow spades
    with pytest.raises(rulesdsl.IllegalAction):
        g.apply("play 6D")
    assert sorted(g.hand_of(0)) == ["2S", "3H", "6D"] and g.current_player == 0   # refused: nothing changed
    play(g, "2S")
    assert g.current_player == 1
    assert sorted(legal(g)) == ["play 5D", "play 5H", "play 6H"]          # void in spades: anything
    play(g, "6H")
    # 4S is the highest spade: seat 2 takes the trick into its `taken` and leads the next.
    assert taken(g) == [[], [], ["2S", "4S", "6H"]]
    assert g.view(0)["zones"]["pot"]["cards"] == []
    assert g.current_player == 2
    assert g.view(0)["trick"]["number"] == 2 and g.view(0)["trick"]["leader"] == 2
    assert g.view(0)["trick"]["tricks_won"] == [0, 0, 1]


@documents("tricks", "tricks.first_leader")
def test_the_deal_ends_when_the_player_to_lead_holds_no_card_with_tricks_per_seat_in_the_hand_log():
    """"The deal ends when the player to lead holds no card (the hand's ending is `tricks`; `hand_log`
    records `tricks` taken per seat)."  The first leader here is a seat named by an expression
    (`holder("2D")`)."""
    text = ruleset('  first_leader: holder("2D")\n', deal="  - {deal: 2, to: hand}\n")
    g = game(text, deck=stacked({1: ["2S", "3S"], 2: ["4S", "5H"], 0: ["2D", "6S"]}), dealer=0)
    assert g.current_player == 0
    play(g, "2D", "2S", "4S")          # seat 0 leads 2D; seats 1, 2 cannot follow: seat 0 takes
    assert g.current_player == 0
    play(g, "6S", "3S", "5H")          # seat 0 leads 6S: the highest spade; seat 0 takes again
    assert g.is_over
    log = g.hand_log[-1]
    assert log["ending"] == "tricks" and log["tricks"] == [2, 0, 0]
    assert g.scores == [2, 0, 0]


@pytest.mark.parametrize("follow, second", [("false", ["play 2S", "play 3H", "play 6D"]),
                                            ("trick.number > 1", ["play 2S", "play 3H", "play 6D"])])
@documents("tricks.follow")
def test_follow_false_lets_a_player_holding_the_led_suit_play_anything(follow, second):
    """`follow`: "the led suit must be followed when able (the default)": an expression; where it is false
    the follower holding the led suit may play any card.  `trick.number > 1` frees the first trick only,
    and binds from the second on."""
    text = ruleset(f"  follow: '{follow}'\n")
    g = game(text, deck=stacked({1: ["4S", "5S", "2D"], 2: ["2S", "6D", "3H"], 0: ["3S", "5H", "4D"]}), dealer=0)
    play(g, "4S")
    assert sorted(legal(g)) == second
    play(g, "6D", "3S")                # seat 1's 4S is the highest spade (6D is off suit)
    assert g.current_player == 1
    play(g, "5S")                      # trick 2: seat 2 holds 2S
    if follow == "false":
        assert sorted(legal(g)) == ["play 2S", "play 3H"]
    else:
        assert legal(g) == ["play 2S"]


# ------------------------------------------------------------------ the led suit between tricks

@documents("tricks")
def test_the_led_suit_is_none_between_tricks_in_the_view_the_rules_and_the_encoding():
    """`view()["trick"]` shows "the suit led"; `trick.led` is "the suit led to the current trick (`none`
    before the lead)": once a trick is taken and before the next lead it is none again, in the view, in
    the rules (a `may_lead` that reads it) and in the observation tensor's `tricks.led` (docs/encoding.md:
    "the led suit"), whose slots are all zero then and one-hot during a trick."""
    from rulesdsl.encoding.observation import fill
    from rulesdsl.encoding.setup import encode
    from conformance.play import rules
    text = ruleset("  may_lead: 'trick.led == none or suit(card) == \"D\"'\n")
    r = rules(text)
    enc = encode(r)
    g = r.new_game(seed=0, deck=stacked({1: ["4S", "5S", "2D"], 2: ["2S", "6D", "3H"],
                                         0: ["3S", "5H", "4D"]}), dealer=0)
    tensor = enc.observation.new_tensor()

    def led_slots(seat):
        fill(enc.observation, tensor, g.view(seat), [])
        return list(enc.observation.views(tensor)["tricks.led"])

    assert g.view(1)["trick"]["led"] is None and led_slots(1) == [0, 0, 0, 0]
    play(g, "4S")
    assert g.view(2)["trick"]["led"] == "S" and led_slots(2) == [1, 0, 0, 0]
    play(g, "2S", "3S")                # seat 1 takes with 4S
    for seat in range(3):
        assert g.view(seat)["trick"]["led"] is None
        assert led_slots(seat) == [0, 0, 0, 0]
    # `trick.led == none` holds for the leader, so every card may lead (not only the diamond).
    assert g.current_player == 1
    assert sorted(legal(g)) == ["play 2D", "play 5S"]
    play(g, "2D")
    assert g.view(0)["trick"]["led"] == "D" and led_slots(0) == [0, 0, 1, 0]


# ------------------------------------------------------------------ who takes the trick

@documents("tricks.order")
def test_order_ranks_the_cards_low_to_high_for_taking_the_trick():
    """`order`: "ranks low to high (default: the deck's)": with `order: [3, 4, 5, 6, 2]` the 2 is the
    highest card of its suit and takes a trick the 6 would take in deck order."""
    text = ruleset("  order: [3, 4, 5, 6, 2]\n")
    g = game(text, deck=stacked({1: ["6S", "2D", "3D"], 2: ["2S", "4D", "5D"], 0: ["3S", "6D", "2H"]}), dealer=0)
    play(g, "6S", "2S", "3S")
    assert taken(g) == [[], [], ["2S", "3S", "6S"]] and g.current_player == 2
    # and in the deck's order the 6 would have taken it
    g = game(ruleset(), deck=stacked({1: ["6S", "2D", "3D"], 2: ["2S", "4D", "5D"], 0: ["3S", "6D", "2H"]}),
             dealer=0)
    play(g, "6S", "2S", "3S")
    assert taken(g) == [[], ["2S", "3S", "6S"], []] and g.current_player == 1


@documents("tricks.trump")
def test_a_trump_takes_a_trick_of_another_suit_and_the_highest_trump_takes_it():
    """"The trick's taker is by default the highest trump (by `order`), else the highest card of the suit
    led."  `trump: '"H"'`: a low heart played on a spade lead takes it; of two hearts the higher takes;
    `view()["trick"]` shows the trumps."""
    text = ruleset("  trump: '\"H\"'\n")
    hands = {1: ["6S", "2D", "3D"], 2: ["2H", "4D", "5D"], 0: ["5S", "3H", "4H"]}
    g = game(text, deck=stacked(hands), dealer=0)
    assert g.view(0)["trick"]["trump"] == "H"
    play(g, "6S", "2H", "5S")          # seat 2 trumps the spade lead
    assert taken(g) == [[], [], ["2H", "5S", "6S"]] and g.current_player == 2
    # seat 2 leads 4D; seat 0 (no diamonds) trumps with 3H, seat 1 follows with 3D: 3H takes.
    play(g, "4D", "3H", "3D")
    assert taken(g)[0] == ["3D", "3H", "4D"] and g.current_player == 0
    # without trumps the spade lead is taken by the highest spade, the 6
    g = game(ruleset(), deck=stacked(hands), dealer=0)
    assert g.view(0)["trick"]["trump"] is None
    play(g, "6S", "2H", "5S")
    assert taken(g) == [[], ["2H", "5S", "6S"], []]


@documents("tricks.trump")
def test_a_trump_from_a_turned_card_is_judged_when_play_begins():
    """"A trump from a turned card is `trump: suit(deal.upcard)` (a `turn_up` with `as:`)"."""
    text = ruleset("  trump: suit(deal.upcard)\n", zones="  upcard: {visible: all}\n",
                   deal="  - {deal: 3, to: hand}\n  - {turn_up: upcard, as: upcard}\n")
    deck = stacked({1: ["6S", "2D", "3D"], 2: ["2H", "4D", "5D"], 0: ["5S", "6D", "3H"]})
    deck.remove("4H")
    deck.insert(9, "4H")               # the tenth card, turned up after the deal: hearts are trumps
    g = game(text, deck=deck, dealer=0)
    assert g.view(0)["zones"]["upcard"]["cards"] == ["4H"]
    assert g.view(0)["trick"]["trump"] == "H"
    play(g, "6S", "2H", "5S")
    assert taken(g) == [[], [], ["2H", "5S", "6S"]]


@documents("tricks.suit_of")
def test_suit_of_gives_a_card_the_suit_it_follows_and_leads_as():
    """`suit_of`: "a card's suit for following and trumps".  With the sixes counted as hearts, the 6S
    must follow a heart lead by a player holding no other heart, takes it as the highest heart, and led
    it makes the led suit hearts."""
    text = ruleset("  suit_of: 'if rank(card) == \"6\" then \"H\" else suit(card)'\n")
    g = game(text, deck=stacked({1: ["2H", "5D", "4S"], 2: ["6S", "5S", "4D"], 0: ["3H", "2D", "6D"]}), dealer=0)
    play(g, "2H")
    assert legal(g) == ["play 6S"]                       # its only "heart"
    play(g, "6S")
    assert sorted(legal(g)) == ["play 3H", "play 6D"]    # seat 0's hearts: 3H and 6D
    play(g, "3H")
    assert taken(g) == [[], [], ["2H", "3H", "6S"]]      # 6S, a heart of rank 6, takes
    play(g, "5S")                                        # seat 2 leads a spade
    assert sorted(legal(g)) == ["play 2D", "play 6D"]    # 6D is a heart, not a diamond: seat 0 holds no spade
    g2 = game(text, deck=stacked({1: ["6D", "5D", "4S"], 2: ["2H", "5S", "4D"], 0: ["3H", "2D", "3D"]}),
              dealer=0)
    play(g2, "6D")
    assert g2.view(0)["trick"]["led"] == "H"
    assert legal(g2) == ["play 2H"]


@documents("tricks.strength")
def test_strength_replaces_the_default_taker_the_greatest_value_takes():
    """"A `strength` expression over `card` (with `trick.led`, `trump`, `card_suit(card)`,
    `trick_rank(card)`) replaces it: the greatest value takes the trick."  Here the lowest card of the
    led suit takes."""
    text = ruleset("  strength: 'if card_suit(card) == trick.led then 10 - trick_rank(card) else 0'\n")
    g = game(text, deck=stacked({1: ["4S", "5D", "3D"], 2: ["2S", "6S", "4D"], 0: ["5S", "2D", "6D"]}), dealer=0)
    play(g, "4S", "2S", "5S")
    assert taken(g) == [[], [], ["2S", "4S", "5S"]] and g.current_player == 2
    # seat 2 leads 4D, seat 0 follows 2D, seat 1 follows 5D: the lowest diamond, 2D, takes (not the 5D)
    play(g, "4D", "2D", "5D")
    assert taken(g)[0] == ["2D", "4D", "5D"]


@documents("tricks.strength")
def test_a_strength_that_gives_no_number_stops_the_game_naming_the_card():
    """`strength` must give a number.  A branch of an `if` that gives a text (or true or false) is refused
    at load; one that comes from a derived function whose body mixes the two, which the load check does
    not see through, stops the game at that trick with E-PLAY naming the card and the rule."""
    for odd, shown in (('"high"', "'high'"), ("true", "True")):
        with pytest.raises(rulesdsl.RulesetError) as refused:
            game(ruleset(f"  strength: 'if rank(card) == \"5\" then {odd} else trick_rank(card)'\n"))
        assert "where a number must be" in str(refused.value)
        text = ruleset("  strength: s(card)\n",
                       extra=f"derived:\n  s(c): 'if rank(c) == \"5\" then {odd} else trick_rank(c)'\n")
        g = game(text, deck=stacked({1: ["4S", "5D", "3D"], 2: ["2S", "6S", "4D"], 0: ["5S", "2D", "6D"]}),
                 dealer=0)
        with pytest.raises(rulesdsl.RuleEvaluationError) as stopped:
            play(g, "4S", "2S", "5S")
        assert f"`strength` gives {shown} for 5S; it must be a number" in str(stopped.value)
        assert stopped.value.rule == "tricks.strength"


@pytest.mark.parametrize("first_card", ["2S", "3S"])
@documents("tricks.strength")
def test_among_equal_strengths_the_first_played_takes_the_trick(first_card):
    """"The greatest value takes the trick, the first played among equals": with every card but the 2s of
    strength 1, a trick of 2S, 3S, 4S goes to the 3S (played before the 4S, its equal), and a trick of
    3S, 4S, 5S to the leader."""
    text = ruleset("  strength: 'if rank(card) == \"2\" then 0 else 1'\n")
    second, third = ("3S", "4S") if first_card == "2S" else ("4S", "5S")
    g = game(text, deck=stacked({1: [first_card, "2D", "3D"], 2: [second, "4D", "5D"],
                                 0: [third, "6D", "2H"]}), dealer=0)
    play(g, first_card, second, third)
    takers = [i for i, z in enumerate(taken(g)) if z]
    assert takers == ([2] if first_card == "2S" else [1])
    assert g.current_player == takers[0]


# ------------------------------------------------------------------ restrictions on leads and plays

@documents("tricks.opening_lead")
def test_the_opening_lead_must_be_the_named_card_when_the_leader_holds_it():
    """`opening_lead`: "a card (text) the first lead must be, when the leader holds it"; it "comes first on
    the deal's first lead".  Another lead is refused naming the rule and the card (catches the refusal's
    reason looking at another trick than the first)."""
    text = ruleset("  opening_lead: '\"3S\"'\n")
    g = game(text, deck=stacked({1: ["2S", "3S", "5H"], 2: ["4S", "5S", "6H"], 0: ["6S", "2D", "3D"]}), dealer=0)
    assert legal(g) == ["play 3S"]
    with pytest.raises(rulesdsl.IllegalAction) as refused:
        g.apply("play 2S")
    assert refused.value.rule == "tricks.opening_lead" and "the first lead must be 3S" in str(refused.value)
    play(g, "3S", "4S", "6S")          # seat 0 takes and leads freely
    assert sorted(legal(g)) == ["play 2D", "play 3D"]


@documents("tricks.opening_lead")
def test_the_opening_lead_binds_only_the_first_lead_and_only_a_leader_holding_it():
    """The first leader not holding the opening card leads any card; the holder, leading the second
    trick, is not bound by it ("the deal's first lead")."""
    text = ruleset("  opening_lead: '\"2D\"'\n")
    g = game(text, deck=stacked({1: ["2S", "3S", "5H"], 2: ["4S", "5S", "6H"], 0: ["6S", "2D", "3D"]}), dealer=0)
    assert sorted(legal(g)) == ["play 2S", "play 3S", "play 5H"]
    play(g, "3S", "4S", "6S")          # seat 0, who holds 2D, takes and leads trick 2
    assert sorted(legal(g)) == ["play 2D", "play 3D"]


@documents("tricks.opening_lead", "tricks.may_lead")
def test_the_opening_lead_comes_before_may_lead():
    """"`opening_lead` comes first on the deal's first lead": a leader holding the opening card 2H must lead
    it even though `may_lead` forbids hearts."""
    text = ruleset("  opening_lead: '\"2H\"'\n  may_lead: 'suit(card) != \"H\"'\n")
    g = game(text, deck=stacked({1: ["2S", "2H", "5H"], 2: ["4S", "5S", "6H"], 0: ["6S", "2D", "3D"]}), dealer=0)
    assert legal(g) == ["play 2H"]


@documents("tricks.may_lead", "tricks.broken")
def test_may_lead_forbids_a_suit_until_it_is_broken():
    """`may_lead` says which cards may lead "unless the leader holds no such card"; `broken`: "`broken.NAME`:
    once such a card has been played" (this deal).  Hearts may not lead until a heart has been played;
    the view shows the broken suits."""
    text = ruleset("  may_lead: 'suit(card) != \"H\" or broken.hearts'\n"
                   "  broken:\n    hearts: 'suit(card) == \"H\"'\n")
    g = game(text, deck=stacked({1: ["2S", "6H", "3D"], 2: ["2H", "4D", "5D"], 0: ["5S", "4H", "6D"]}), dealer=0)
    assert sorted(legal(g)) == ["play 2S", "play 3D"]
    assert g.view(0)["trick"]["broken"] == {"hearts": False}
    play(g, "2S", "2H")                # seat 2, void in spades, plays a heart: hearts are broken
    assert g.view(0)["trick"]["broken"] == {"hearts": True}
    play(g, "5S")                      # seat 0 takes with the 5S and leads
    assert g.current_player == 0
    assert sorted(legal(g)) == ["play 4H", "play 6D"]


@documents("tricks.may_lead")
def test_may_lead_gives_way_when_the_leader_holds_only_forbidden_cards():
    """"Each of which gives way when it would allow nothing": a leader holding only hearts leads one."""
    text = ruleset("  may_lead: 'suit(card) != \"H\"'\n")
    g = game(text, deck=stacked({1: ["2H", "3H", "4H"], 2: ["2S", "4D", "5D"], 0: ["5S", "6H", "6D"]}), dealer=0)
    assert sorted(legal(g)) == ["play 2H", "play 3H", "play 4H"]


@documents("tricks.may_play")
def test_may_play_forbids_cards_unless_no_other_card_is_legal():
    """`may_play`: "unless no other card is legal" (after the lead and follow filters): no heart on the
    first trick, so a void player plays a diamond, and one holding only hearts plays a heart; from the
    second trick on hearts are free."""
    text = ruleset("  may_play: 'trick.number > 1 or suit(card) != \"H\"'\n")
    g = game(text, deck=stacked({1: ["2S", "6S", "4S"], 2: ["3H", "4D", "5H"], 0: ["2H", "4H", "6H"]}), dealer=0)
    assert sorted(legal(g)) == ["play 2S", "play 4S", "play 6S"]
    play(g, "2S")
    assert legal(g) == ["play 4D"]
    play(g, "4D")
    assert sorted(legal(g)) == ["play 2H", "play 4H", "play 6H"]
    play(g, "2H")                      # seat 1 takes (2S is the only spade) and leads trick 2
    play(g, "4S")
    assert sorted(legal(g)) == ["play 3H", "play 5H"]


@documents("tricks.may_play", "tricks.follow")
def test_may_play_gives_way_within_the_cards_that_follow_suit():
    """The filters come in order and each gives way when it would allow nothing: following, the cards of the
    led suit; "then `may_play`".  No diamond may be played on the first trick, but a player holding one
    diamond must follow a diamond lead with it (not play a spade), and a leader holding only diamonds
    leads one."""
    text = ruleset("  may_play: 'trick.number > 1 or suit(card) != \"D\"'\n")
    g = game(text, deck=stacked({1: ["2D", "5D", "6D"], 2: ["3D", "2S", "4S"], 0: ["5S", "6S", "3H"]}), dealer=0)
    assert sorted(legal(g)) == ["play 2D", "play 5D", "play 6D"]
    play(g, "2D")
    assert legal(g) == ["play 3D"]
    play(g, "3D")
    assert sorted(legal(g)) == ["play 3H", "play 5S", "play 6S"]


@documents("tricks.broken")
def test_broken_is_reset_with_each_deal():
    """`broken.NAME`: "whether a card that breaks `NAME` has been played this deal": hearts broken in the
    first deal are not broken when the second deal begins."""
    text = ruleset("  may_lead: 'suit(card) != \"H\" or broken.hearts'\n"
                   "  broken:\n    hearts: 'suit(card) == \"H\"'\n",
                   deal="  - {deal: 'if deal.number == 1 then 1 else 2', to: hand}\n", deals=2)
    # deal 1 (dealer 0): seat 1 gets 2S, seat 2 2H, seat 0 3S; deal 2 (dealer 1, from seat 2): seat 2 gets
    # 4H 3D, seat 0 5S 4D, seat 1 5H 6S
    first = ["2S", "2H", "3S"] + [c for c in DECK if c not in ("2S", "2H", "3S")]
    dealt = ["4H", "5S", "5H", "3D", "4D", "6S"]
    second = dealt + [c for c in DECK if c not in dealt]
    g = game(text, deck=first, decks=[second], dealer=0)
    play(g, "2S", "2H", "3S")          # hearts broken in deal 1
    assert g.hand_number == 2 and g.view(0)["dealer"] == 1
    assert g.view(0)["trick"]["broken"] == {"hearts": False}
    assert g.current_player == 2 and legal(g) == ["play 3D"]


# ------------------------------------------------------------------ where the cards come from and go

@documents("tricks.won_to")
def test_won_to_names_the_per_player_zone_that_receives_a_trick():
    """`won_to`: "default `taken`": the taker's own zone `won_to` names receives the trick."""
    text = ruleset("  won_to: winnings\n", zones="  winnings: {per: player, visible: all}\n")
    g = game(text, deck=stacked({1: ["4S", "5D", "3D"], 2: ["2S", "6S", "4D"], 0: ["5S", "2D", "6D"]}), dealer=0)
    play(g, "4S", "2S", "5S")
    assert taken(g, "winnings") == [["2S", "4S", "5S"], [], []]
    assert taken(g) == [[], [], []]


TEAM_TAKEN = ("  won_to: pile\n")


@documents("tricks.won_to")
def test_won_to_a_team_zone_receives_the_trick_into_the_takers_side_pile():
    """"Into its player's `won_to` zone (a per-player zone, or a team zone: the side's)": with teams of
    seats 0+2 and 1+3, a trick led by seat 1 and taken by seat 2 goes to team 0's pile, not the leader's;
    one taken by seat 0 joins the same pile."""
    text = ruleset(TEAM_TAKEN, players=4, zones="  pile: {per: team, visible: all}\n",
                   extra="teams: {count: 2}\n", scoring="  each_team: 0\n")
    hands = {1: ["2S", "2D", "3H"], 2: ["6S", "6H", "3D"], 3: ["3S", "4D", "5H"], 0: ["4S", "4H", "5D"]}
    g = game(text, players=4, deck=stacked(hands, players=4), dealer=0)
    assert g.current_player == 1
    play(g, "2S", "6S", "3S", "4S")    # seat 1 (team 1) leads; seat 2 (team 0) takes with 6S
    piles = g.view(0)["team_zones"]["pile"]
    assert sorted(piles[0]["cards"]) == ["2S", "3S", "4S", "6S"] and piles[1]["cards"] == []
    assert g.current_player == 2
    play(g, "3D", "4D", "5D", "2D")    # seat 2 leads 3D; seat 0's 5D takes: team 0 again
    piles = g.view(0)["team_zones"]["pile"]
    assert len(piles[0]["cards"]) == 8 and piles[1]["cards"] == []
    assert g.current_player == 0
    play(g, "4H", "3H", "6H", "5H")    # seat 0 leads 4H; seat 2's 6H takes: team 0 again
    piles = g.view(0)["team_zones"]["pile"]
    assert len(piles[0]["cards"]) == 12 and piles[1]["cards"] == []


@documents("tricks.won_to")
def test_won_to_a_team_zone_a_trick_led_by_one_side_and_taken_by_the_other():
    """The side's pile is the taker's: seat 0 (team 0) leads, seat 3 (team 1) takes: team 1's pile."""
    text = ruleset(TEAM_TAKEN + "  first_leader: dealer\n", players=4,
                   zones="  pile: {per: team, visible: all}\n", extra="teams: {count: 2}\n",
                   scoring="  each_team: 0\n")
    hands = {1: ["2S", "2D", "3H"], 2: ["3S", "6H", "3D"], 3: ["6S", "4D", "5H"], 0: ["4S", "4H", "5D"]}
    g = game(text, players=4, deck=stacked(hands, players=4), dealer=0)
    assert g.current_player == 0
    play(g, "4S", "2S", "3S", "6S")
    piles = g.view(0)["team_zones"]["pile"]
    assert piles[0]["cards"] == [] and sorted(piles[1]["cards"]) == ["2S", "3S", "4S", "6S"]
    assert g.current_player == 3


@documents("tricks.play_from")
def test_play_from_names_the_zone_cards_are_played_from():
    """"Cards are played from the per-player zone `play_from` (default `hand`)": only that zone's cards
    are offered, the hand is never played from, and the deal ends when the leader's `play_from` zone is
    empty."""
    text = ruleset("  play_from: row\n", zones="  row: {per: player, visible: all}\n",
                   deal="  - {deal: 1, to: hand}\n  - {deal: 2, to: row}\n")
    # dealt 1 each to hand (seats 1, 2, 0), then 2 each to row
    deck = ["2H", "3H", "4H", "4S", "2S", "6S", "5D", "3D", "2D"]
    deck += [c for c in DECK if c not in deck]
    g = game(text, deck=deck, dealer=0)
    assert g.current_player == 1
    assert sorted(legal(g)) == ["play 4S", "play 5D"]
    play(g, "4S")
    assert legal(g) == ["play 2S"]     # follows from its row; its hand holds 3H
    play(g, "2S")
    assert legal(g) == ["play 6S"]
    play(g, "6S")                      # seat 0 takes
    assert g.current_player == 0
    play(g, "2D", "5D", "3D")
    assert g.is_over and g.hand_log[-1]["tricks"] == [1, 1, 0]
    assert [g.hand_of(s) for s in range(3)] == [["4H"], ["2H"], ["3H"]]


# ------------------------------------------------------------------ uneven hands

FULL_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
FULL = [r + s for s in "SHDC" for r in FULL_RANKS]
# 52 cards to three players: the dealer's left (seat 1, with dealer 0) gets 18, the others 17.
SEAT1 = [r + "S" for r in FULL_RANKS] + ["AH", "KH", "QH", "JH", "2D"]
SEAT2 = [r + "D" for r in FULL_RANKS[1:]] + ["2C", "3C", "4C", "5C", "6C"]
SEAT0 = [r + "H" for r in FULL_RANKS[:9]] + ["7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"]


def uneven_game():
    text = ruleset("", deal="  - {deal: all, to: hand}\n", ranks="[2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]",
                   suits="[S, H, D, C]")
    deck = []
    hands = {1: SEAT1, 2: SEAT2, 0: SEAT0}
    for k in range(18):
        for s in (1, 2, 0):
            if k < len(hands[s]):
                deck.append(hands[s][k])
    g = game(text, deck=deck, dealer=0)
    assert [len(g.hand_of(s)) for s in range(3)] == [17, 18, 17]
    return g


def follow_lowest(g):
    """The seat on turn plays its first legal card (the leader's card is chosen by the test)."""
    g.apply(str(g.legal_actions()[0]))


@documents("tricks", "tricks.first_leader")
def test_with_uneven_hands_the_last_trick_is_played_by_those_still_holding_cards():
    """"When every player who held cards at the lead has played, the strongest card takes the trick": with
    18/17/17 cards, seat 1 takes the first 17 tricks with its spades and top hearts, then leads the 18th
    alone (it alone holds a card), takes it, and the deal ends: 18 tricks to seat 1."""
    g = uneven_game()
    winners = [c for c in SEAT1 if c != "2D"]
    for card in winners:
        assert g.current_player == 1
        play(g, card)
        follow_lowest(g)
        follow_lowest(g)
    assert g.view(1)["trick"]["tricks_won"] == [0, 17, 0]
    assert g.current_player == 1 and legal(g) == ["play 2D"]
    play(g, "2D")                      # a trick of one card: nobody else holds one
    assert g.is_over
    assert g.hand_log[-1]["tricks"] == [0, 18, 0]
    assert g.hand_log[-1]["ending"] == "tricks"


@documents("tricks")
def test_with_uneven_hands_the_deal_ends_when_the_player_to_lead_has_no_card():
    """"The deal ends when the player to lead holds no card": seat 1 leads 16 winners, then its 2D, which
    seat 2 takes with a diamond on the 17th trick; seat 2, now empty-handed, is to lead, so the deal ends
    with seat 1's last card unplayed."""
    g = uneven_game()
    for card in SEAT1[:16]:
        play(g, card)
        g.apply(next(a for a in legal(g) if a != "play AD"))   # seat 2 keeps its AD
        follow_lowest(g)
    play(g, "2D")
    assert legal(g) == ["play AD"]     # seat 2 must follow with its diamond
    play(g, "AD")
    follow_lowest(g)                   # seat 0 holds no diamond
    assert g.is_over
    assert g.hand_log[-1]["tricks"] == [0, 16, 1]
    assert g.hand_of(1) == ["JH"]


@documents("tricks.to")
def test_the_trick_is_played_into_the_table_zone_to_names():
    """Each player plays one card "to the table zone `to`" (default `trick`): named `middle` here, the
    trick's cards lie there while it is played, and leave it for the taker's pile when it is taken."""
    rules = ruleset("  to: middle\n", zones="  middle: {visible: all}\n")
    g = game(rules, deck=stacked({1: ["6S", "2H", "3H"], 2: ["2S", "4H", "5H"], 0: ["3S", "6H", "4D"]}), dealer=0)
    play(g, "6S", "2S")
    zones = g.view(0)["zones"]
    assert zones["middle"]["count"] == 2 and zones["trick"]["count"] == 0
    play(g, "3S")                                  # the trick is complete: 6S takes it
    assert g.view(0)["zones"]["middle"]["count"] == 0 and taken(g)[1] == ["2S", "3S", "6S"]
