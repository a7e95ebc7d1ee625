"""How the greedy bot (``bots.greedy``) bids: it looks at its hand and bids the legal number nearest
to its count of cards of the top three ranks plus trumps beyond three."""

from __future__ import annotations


def choose(bot, game, actions: list):
    """Look at the hand, then bid the legal number nearest to the tricks the hand seems worth."""
    look = next((a for a in actions if a.verb == "look"), None)
    if look is not None:
        return look
    numbers = [a for a in actions if a.verb == "bid" and a.zone.isdigit()]
    if not numbers:
        return actions[bot.rng.randrange(len(actions))]
    prog = game.prog
    t = prog.tricks
    seat = game.current_player
    hand = game.pzones[t.play_from][seat]
    top = max(t.rank_pos) if t.rank_pos else 0
    trump = None
    if t.trump is not None:
        try:
            trump = t.trump(game)
        except Exception:
            trump = None
    high = sum(1 for c in hand if t.rank_pos[c] >= top - 2)
    trumps = sum(1 for c in hand if trump is not None and t.suit_of[c] == trump and t.rank_pos[c] < top - 2)
    guess = high + max(0, trumps - 3)
    return min(numbers, key=lambda a: (abs(int(a.zone) - guess), int(a.zone)))
