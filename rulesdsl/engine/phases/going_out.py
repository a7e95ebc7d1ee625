"""Going out by declaration (e.g. a knock) and the opponents' layoff window.

The declarer's remaining cards are shown in their best arrangement (melds to the table): the least
deadwood, and among equal ones the layout that leaves the defender the most after their layoffs; with
``layoffs: opponents`` the opponent may lay cards off onto those melds, one at a time (chains allowed),
and ends with ``done``, after which the engine makes the best remaining layoffs and arrangement.
"""

from __future__ import annotations

from typing import Optional

from ...compile.melds import Arranged
from ...errors import IllegalAction
from ..actions import Action
from .base import Phase

DONE = Action("done")


def go_out(g, spec, action: Action) -> None:
    """The acting player goes out as ``spec`` says (the action was checked legal)."""
    hand = g.pzones["hand"][g.actor]
    if spec.discard != "none":
        c = g.find(hand, action.cards[0])
        hand.remove(c)
        g.zones[g.prog.discard_zone].append(c)
        if spec.discard == "face_down":
            g.face_down.add(c)
    g.ending = spec.name
    g.declarer = g.actor
    g.defender = g.next_seat(g.actor)
    g.revealed = [True] * g.n
    if not spec.arrange:                       # a drop: the hand is shown as it is
        g.final_deadwood[g.declarer] = sum(g.prog.cards.value[c] for c in hand)
        settle_defender(g, layoffs=False)
        g.finish_hand()
        return
    defender_hand = g.pzones["hand"][g.defender]
    arranged = (named_layout(g, spec, action, discarded=True) if action.melds else None) \
        or g.prog.melds.best_for_declarer(hand, defender_hand, spec.layoffs == "opponents")
    g.final_deadwood[g.declarer] = arranged.points
    for meld in arranged.melds:
        for c in meld:
            hand.remove(c)
        g.table_melds.append(list(meld))
        g.meld_owner.append(g.declarer)
    if spec.layoffs == "opponents":
        g.actor = g.defender
        g.enter("layoff")
        return
    settle_defender(g, layoffs=False)
    g.finish_hand()


def named_layout(g, spec, action: Action, discarded: bool = False):
    """The melds a go-out names (`knock KC with 7S 7D 7C 7H / 8H 9H 10H`) as an ``Arranged``, when they are
    melds of the hand (after its discard) that leave its least deadwood; else None."""
    melds = g.prog.melds
    if melds.arranger is None or not action.melds:
        return None
    hand = list(g.pzones["hand"][g.actor])
    text = g.prog.cards.text
    if not discarded and spec.discard != "none" and action.cards:
        c = next((x for x in hand if text[x] == action.cards[0]), None)
        if c is None:
            return None
        hand.remove(c)
    pool, groups = list(hand), []
    for m in action.melds:
        ids = []
        for t in m:
            c = next((x for x in pool if text[x] == t), None)
            if c is None:
                return None
            pool.remove(c)
            ids.append(c)
        if not melds.arranger.is_meld(melds.mask(ids)):
            return None
        groups.append(tuple(ids))
    points = melds.arranger.value(melds.mask(pool))
    if points != melds.deadwood_of(hand):
        return None
    return Arranged(points, tuple(groups), tuple(pool))


def settle_defender(g, layoffs: bool) -> None:
    """The defender's final deadwood: their best arrangement, after the best further layoffs."""
    d = g.defender
    hand = g.pzones["hand"][d]
    melds = g.prog.melds
    if layoffs:
        index = [i for i in range(len(g.table_melds)) if g.meld_owner[i] != d]
        others = [g.table_melds[i] for i in index]
        _points, lay = melds.best_layoffs(hand, others)
        for card, j in lay:
            hand.remove(card)
            g.table_melds[index[j]].append(card)
    g.final_deadwood[d] = melds.arrange(hand).points


class LayoffPhase(Phase):
    name = "layoff"

    def enter(self, g) -> None:
        pass          # the actor (the defender) was set by go_out

    def generate(self, g) -> list[Action]:
        hand = g.pzones["hand"][g.actor]
        fits = self.prog.melds.fits
        text = self.prog.cards.text
        out = []
        for c in sorted(hand):
            for i, meld in enumerate(g.table_melds):
                if g.meld_owner[i] != g.actor and fits(c, meld):
                    out.append(Action("layoff", "", (text[c],), i + 1))
        return out + [DONE]

    def apply(self, g, action: Action, chosen: Action) -> None:
        hand = g.pzones["hand"][g.actor]
        if action.verb == "layoff":
            c = g.find(hand, action.cards[0])
            hand.remove(c)
            g.table_melds[action.target - 1].append(c)
            return
        settle_defender(g, layoffs=True)
        g.finish_hand()

    def explain(self, g, action: Action, legal: list) -> Optional[IllegalAction]:
        if action.verb == "layoff":
            return IllegalAction(f"`{action}` does not fit: a card is laid off only onto the declarer's melds, "
                                 "extending a run at either end or completing a set", "layoff")
        return IllegalAction("in the layoff window: `layoff CARD on N` or `done`", "layoff window")
