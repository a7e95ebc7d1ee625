"""Helpers for the trick-taking games' tests (Hearts, Spades): stacked deals, a reference model of a
trick, and plain policies.  The reference model is written from the rules (seeds/hearts.md,
seeds/spades.md), never from the engine."""

from __future__ import annotations

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def deck_for(hands: list[list[str]], stripped: tuple = ()) -> list[str]:
    """A stacked deck (top card first) that deals ``hands[i]`` to the i-th seat dealt to (the dealer's
    left first, one card at a time), after ``stripped`` are set aside (they may lie anywhere)."""
    size = len(hands[0])
    assert all(len(h) == size for h in hands)
    out = []
    for i in range(size):
        for h in hands:
            out.append(h[i])
    return out + list(stripped)


def suit(card: str) -> str:
    return card[-1]


def rank(card: str) -> str:
    return card[:-1]


def trick_winner(plays: list[tuple[int, str]], trump: str = None) -> int:
    """The seat that takes a trick: the highest trump, else the highest card of the led suit."""
    led = suit(plays[0][1])

    def key(play):
        c = play[1]
        if c == "Jk":
            return (3, 0)
        return (2 if trump and suit(c) == trump else 1 if suit(c) == led else 0, RANKS.index(rank(c)))
    best = plays[0]
    for p in plays[1:]:
        if key(p) > key(best):
            best = p
    return best[0]


def first_legal(game) -> str:
    return str(game.legal_actions()[0])


def play_deal(game, policy=first_legal) -> int:
    """Play until the current deal is over (or the match); returns the actions made."""
    hand = game.hand_number
    made = 0
    while not game.is_over and game.hand_number == hand:
        game.apply(policy(game))
        made += 1
    return made


def pass_cards(game, chooser=lambda hand: hand[:3]) -> dict:
    """Every seat passes (while the game is in its exchange): seat -> the cards it gave."""
    given: dict = {}
    while game.view(0)["phase"] == "exchange":
        seat = game.current_player
        hand = [c for c in game.view(seat)["zones"]["hand"][seat]["cards"]]
        left = [c for c in chooser(hand) if c not in given.get(seat, [])]
        card = left[0] if left else str(game.legal_actions()[0]).split()[1]
        game.apply(f"give {card}")
        given.setdefault(seat, []).append(card)
    return given


def check_invariants(rules, players: int, seed: int, bot_seed: int, max_actions: int = 4000) -> None:
    """Play a match with random legal actions and check, after every action: every card is somewhere
    (conservation); a trick holds at most one card per player, each from a different seat; a card played
    follows the led suit whenever the player could; a player on turn always has a legal action; each
    seat's view shows no card of another hand, and passed cards only to their giver and receiver.  The
    match must end within ``max_actions`` (termination)."""
    import random as _random

    g = rules.new_game(players=players, seed=seed)
    rng = _random.Random(bot_seed)
    size = g.cards_in_play
    for _ in range(max_actions):
        if g.is_over:
            return
        legal = g.legal_actions()
        assert legal, "a player on turn without a legal action"
        v = g.view(g.current_player)
        for seat in range(players):
            sv = g.view(seat)
            for other, h in enumerate(sv["zones"]["hand"]):
                assert ("cards" in h) == (other == seat and seat not in g.unlooked), "a hand leaks"
            for z, spec in rules.model.zones.items():
                if spec.per == "player" and spec.visible == "owner":
                    assert all("cards" not in e for o, e in enumerate(sv["zones"][z]) if o != seat), \
                        f"another seat's `{z}` leaks"
            for p in sv.get("passed", []):
                assert seat in (p["from"], p["to"]), "a passed card leaks to a third seat"
        act = rng.choice(legal)
        if v["phase"] == "tricks":
            trick = v["trick"]
            seats = [p["seat"] for p in trick["plays"]]
            assert len(seats) == len(set(seats)) and g.current_player not in seats
            if trick["plays"]:
                led = trick["led"]
                hand = v["zones"]["hand"][g.current_player]["cards"]
                follows = [c for c in hand if g.prog.tricks.suit_of[g.prog.cards.parse_kind(c)] == led]
                card = str(act).split()[1]
                if follows:
                    assert card in follows, "a player able to follow did not"
        g.apply(act)
        assert g.cards_in_play == size
    raise AssertionError(f"the match did not end within {max_actions} actions")
