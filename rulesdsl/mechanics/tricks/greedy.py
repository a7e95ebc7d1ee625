"""How the greedy bot (``bots.greedy``) plays a trick: whether the seat wants the trick is read from
the ruleset's own scoring -- the side's score expression judged as if the cards now in the trick were
added to the seat's tricks, against as they are (a tie counts as wanting tricks where the highest
total wins, as not where the lowest does).  Wanting it, the bot plays the lowest card that would take
it now (leading, its highest card); not wanting it, the highest card that would not (leading, its
lowest); when every card would take it, the highest; when none can, the lowest."""

from __future__ import annotations


def choose(bot, game, actions: list):
    """The card to play, by whether taking the trick now helps the seat's side (see the module)."""
    seat = game.current_player
    phase = game.phases["tricks"]
    t = game.prog.tricks
    trick = list(game.zones[t.to])
    plays = [a for a in actions if a.verb == "play"]
    hand = game.pzones[t.play_from][seat]
    by_text = {game.prog.cards.text[c]: c for c in hand}
    cards = [(by_text[a.cards[0]], a) for a in plays]
    rank = t.rank_pos
    if not trick:
        wins = {c: True for c, _ in cards}
    else:
        wins = {c: _takes(game, phase, trick, c) for c, _ in cards}
    want = _wants_trick(bot, game, seat, trick)
    if not trick:
        pick = max(cards, key=lambda x: rank[x[0]]) if want else min(cards, key=lambda x: rank[x[0]])
        return pick[1]
    winning = [x for x in cards if wins[x[0]]]
    losing = [x for x in cards if not wins[x[0]]]
    if want and winning:
        return min(winning, key=lambda x: rank[x[0]])[1]
    if not want and losing:
        return max(losing, key=lambda x: rank[x[0]])[1]
    if not losing:
        return max(cards, key=lambda x: rank[x[0]])[1]
    return min(cards, key=lambda x: rank[x[0]])[1]

def _takes(game, phase, trick: list, card: int) -> bool:
    """Whether ``card`` would be the strongest of the trick so far (the led suit as it stands)."""
    return phase._strongest(game, trick + [card]) == len(trick)

def _wants_trick(bot, game, seat: int, trick: list) -> bool:
    """Whether the seat's side scores better with the cards of the trick added to the seat's tricks."""
    prog = game.prog
    if prog.each_player is None and prog.each_team is None:
        return prog.model.match.winner != "lowest"
    lowest = prog.model.match.winner == "lowest"
    base = game.clone()
    took = game.clone()
    won = prog.tricks.won_to
    pile = took.tzones[won][took.team_of(seat)] if won in took.tzones else took.pzones[won][seat]
    pile.extend(trick)
    took.t_won[seat] += 1
    try:
        before, after = bot.score_now(base, seat), bot.score_now(took, seat)
    except Exception:                       # a rule that cannot be judged mid-deal: take tricks by default
        return not lowest
    if after == before:
        return not lowest
    return (after < before) if lowest else (after > before)
