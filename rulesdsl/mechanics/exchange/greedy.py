"""How the greedy bot (``bots.greedy``) plays the exchange: it gives its lowest card in the card play's
order, its highest where the lowest total wins; without a card play, by value.  (Simple on purpose: it
never saves high cards.)"""

from __future__ import annotations


def choose(bot, game, actions: list):
    """Give the lowest card in the card play's order (the highest, where the lowest total wins), else
    by value."""
    prog = game.prog
    cards = prog.cards
    gives = [a for a in actions if a.verb == "give" and a.cards]
    if not gives:
        return actions[bot.rng.randrange(len(actions))]
    if prog.card_play is not None:
        sign = -1 if prog.model.match.winner == "lowest" else 1
        pos = {cards.text[c]: prog.card_play.rank_pos[c] for c in cards.ids}

        def low(a):
            return sign * pos.get(a.cards[0], 0)
    else:
        def low(a):
            k = cards.parse_kind(a.cards[0])
            return cards.kind_value[k] if k is not None else 0
    least = min(low(a) for a in gives)
    best = [a for a in gives if low(a) == least]
    return best[0] if len(best) == 1 else best[bot.rng.randrange(len(best))]
