"""How the greedy bot (``bots.greedy``) climbs: it goes out when a play empties its hand, else plays the
lowest combination that beats the last play (fewest wild cards, then lowest rank in the order in
force, then most cards, then lowest tier and strength), never passes while a play exists, and draws
only when it cannot play; a play that names a suit names the one the seat holds most of."""

from __future__ import annotations


def choose(bot, game, actions: list):
    seat = game.current_player
    hand = game.pzones[game.prog.climbing.play_from][seat]
    plays = [a for a in actions if a.verb == "play"]
    if not plays:
        rest = [a for a in actions if a.verb != "pass"] or actions
        return rest[bot.rng.randrange(len(rest))]
    out = [a for a in plays if len(a.cards) == len(hand)]
    if out:
        plays = out
    strength = _strengths(game)
    keyed = [(strength(a), a) for a in plays]
    low = min(k for k, _ in keyed)
    best = [a for k, a in keyed if k == low]
    if len(best) > 1 and any(a.named for a in best):     # name the suit the seat holds most of
        best = _named(game, seat, best)
    return best[0] if len(best) == 1 else best[bot.rng.randrange(len(best))]


def _strengths(game):
    """A play -> its sort key, lowest first: (wild cards, rank, -size, tier, strength) under the
    rank order in force, as the climbing phase sees it."""
    phase = game.phases["climb"]
    entries = dict(zip(getattr(game, "play_actions", ()), getattr(game, "play_entries", ())))
    views: dict = {}

    def key(a) -> tuple:
        e = entries.get(a)
        if e is None:
            return (0, 0, -len(a.cards), 0, 0)
        v = views.get(e.shape)
        if v is None:
            v = views[e.shape] = phase.view_of(game, e.shape)
        return (v.wilds, v.rank, -v.size, v.tier, v.high)
    return key


def _named(game, seat: int, plays: list) -> list:
    cards = game.prog.cards
    played = {c for a in plays for c in a.cards}
    count: dict = {}
    for x in game.pzones[game.prog.climbing.play_from][seat]:
        if cards.text[x] not in played and cards.suit[x] >= 0:
            s = cards.suits[cards.suit[x]]
            count[s] = count.get(s, 0) + 1
    top = max((count.get(a.named, 0) for a in plays), default=0)
    return [a for a in plays if count.get(a.named, 0) == top]
