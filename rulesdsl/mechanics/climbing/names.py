"""The names climbing gives rules: ``play.*`` (the play judged) and ``last.*`` (the play to beat), the
trick's streak and plays, who is still in, draws owed, and one ``state.NAME`` per toggle."""

from __future__ import annotations

from ...expr.compiler import Binding, Builtin


#: the members of a play (``play.X`` is the play being judged, ``last.X`` the play to beat)
PLAY_MEMBERS = {
    "size": ("cards in the play", "number"),
    "rank": ("its rank's position in the order in force (higher beats): a set's rank, a run's top, a "
             "flush's highest card, the largest group's rank", "number"),
    "rank_name": ("that rank's name, e.g. \"2\" or \"joker\" (\"wild\": wild cards only)", "text"),
    "kind": ("the name of the pattern it fits under `plays:` (the strongest it fits)", "text"),
    "tier": ("that pattern's position under `plays:`, 0 = the first (weakest)", "number"),
    "high": ("its strongest card: rank position x number of suits + suit position (`suit_order`)", "number"),
    "low": ("the position of its lowest rank (a run's bottom)", "number"),
    "suit": ("the suit of its strongest card, or the suit it named (`names_suit`)", "text"),
    "suits": ("the suits of its cards, sorted by `suit_order` (a wild card's declared suit)", ""),
    "wilds": ("wild cards in it", "number"),
    "naturals": ("natural (not wild) cards in it", "number"),
}


def bindings(toggles: list) -> dict:
    """``play`` is the combination being judged, ``last`` the one it must beat (a play with no cards,
    size 0, when there is none): views built by the climbing phase (``phase.PlayView``)."""
    names = {}
    for m, (doc, typ) in PLAY_MEMBERS.items():
        names[f"play.{m}"] = Binding(lambda g, _m=m: getattr(g.cplay, _m), "the play being judged: " + doc,
                                     type=typ)
        names[f"last.{m}"] = Binding(lambda g, _m=m: getattr(g.clast, _m), "the play to beat: " + doc,
                                     type=typ)
    names.update({
        "trick.same_rank_streak": Binding(lambda g: g.streak_now,
                                          "consecutive plays of this rank in the trick, this one included", type="number"),
        "trick.plays": Binding(lambda g: g.trick_plays, "plays made in the current trick so far", type="number"),
        "active_players": Binding(lambda g: len(g.phases["climb"].active(g)), "players still holding cards",
                                  type="number"),
        "finished_players": Binding(lambda g: len(g.finished), "players who have gone out this deal",
                                    type="number"),
        "can_play": Binding(lambda g: g.can_play, "whether the player on turn has a legal play", type="bool"),
        "turn.draws": Binding(lambda g: g.draws, "cards the player on turn has drawn this turn", type="number"),
        "draws_owed": Binding(lambda g: g.owed, "cards the player on turn must draw unless they answer "
                              "the play (`next_draws`)", type="number"),
    })
    for t in toggles:
        names[f"state.{t}"] = Binding(lambda g, _t=t: g.state[_t], f"whether `{t}` is in force")
    return names


def finishing_builtins() -> dict:
    """``position(seat)``, ``role(seat)``, ``role_points(seat)``: where a seat finished the deal just
    ended (1 = first out), and the name and points `roles` give that position with this many players.
    The load checks refuse ``role``/``role_points`` in a ruleset without `roles`."""

    def role_row(g, s):
        return g.prog.roles_for(g.n)[g.final_order.index(s)]

    return {
        "position": Builtin(lambda g, s: g.final_order.index(s) + 1, (1, 1),
                            "a seat's finishing position in the deal just ended (1 = first out)", returns="number"),
        "role_points": Builtin(lambda g, s: role_row(g, s)[1], (1, 1), "the points of the role a seat finished in",
                               returns="number"),
        "role": Builtin(lambda g, s: role_row(g, s)[0], (1, 1), "the name of the role a seat finished in",
                        returns="text"),
    }
