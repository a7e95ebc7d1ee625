"""A fixed numbering of every action a ruleset can ever offer, for learning code and game libraries.

Game libraries (OpenSpiel, PettingZoo) want actions as integers ``0 .. n-1`` with ``n`` the same in
every position of a game.  The engine lists legal actions as ``Action`` values; this module numbers
them, from the compiled program alone, so the numbering is stable for a ruleset's digest and player
count.  Three kinds of number:

* **whole actions** -- an action with no card (``draw stock``, ``take discard 3``, ``pass``, a go-out
  named without a discard) or with one plain card (``discard QS``, ``knock QS``, ``layoff 5D on 2``,
  ``play 8H name S``) is one number;
* **card tokens** -- an action with several cards, or a wild card written with what it stands for
  (``meld 9H Jk=10H JH``, ``play 7S 7D``), is *factored* into one decision per card, taken in the
  order the engine writes them (``add 9H``, ``add Jk=10H``, ``add JH``; a go-out naming its melds adds
  ``next meld`` between them) ...
* **commits** -- ... and then one decision that says what the chosen cards are for (``commit meld``).

Why factor: the card sets a player could form are astronomically many (one five-card play of a
52-card deck is one of 2.6 million sets) while any position offers a few dozen; numbering every set
would give masks no learner can store.  The engine's legal list stays the only authority: a token is
offered only when it extends the selection towards some listed legal action, and a commit only when
the selection is exactly one (see ``decisions``), so nothing illegal can be reached this way.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine.actions import _NOTHING, Action
from ..mechanics.registry import present

#: verbs that take nothing after them (the notation's own)
BARE_VERBS = tuple(_NOTHING)
#: verbs that take one card and nothing else, as whole actions
ONE_CARD_VERBS = ("discard", "give", "play", "meld")
#: verbs whose several cards (or a declared wild) are chosen card by card
SET_VERBS = ("play", "meld")
#: the decision between the melds of a go-out that names them (`knock KC with 7S 7D 7C / 8H 9H 10H`)
NEXT_MELD = "next meld"


class EncodingError(ValueError):
    """An action that the numbering of its ruleset does not cover (a defect: please report it)."""


class ActionSpace(NamedTuple):
    """The numbering of one ruleset at one player count."""

    size: int                 # n: every number is in 0 .. n-1
    whole: dict               # canonical text -> number, for whole actions
    tokens: dict              # card text (plain or `W=X`) -> number
    next_meld: int            # the number of `next meld`
    commits: dict             # head text (the action without its cards: `meld`, `layoff on 3`) -> number
    names: tuple              # number -> what it means, in words (`discard QS`, `add 9H`, `commit meld`)
    kinds: tuple              # the deck's card kinds in order (token texts of plain cards)

    def describe(self, number: int) -> str:
        """What ``number`` means (``discard QS``, ``add 9H``, ``commit meld``)."""
        return self.names[number]

    def is_whole(self, number: int) -> bool:
        return number < len(self.whole)

    def path(self, action: Action) -> tuple:
        """The numbers that make ``action``: one for a whole action, else its card tokens and commit."""
        text = str(action)
        number = self.whole.get(text)
        if number is not None:
            return (number,)
        head = str(Action(action.verb, action.zone, (), action.target, action.named, ()))
        commit = self.commits.get(head)
        tokens = self.tokens
        try:
            seq = [tokens[c] for c in action.cards]
            for meld in action.melds:
                seq.append(self.next_meld)
                seq.extend(tokens[c] for c in meld)
        except KeyError as exc:
            raise EncodingError(f"`{text}` has a card the numbering has no place for ({exc.args[0]})") from None
        if commit is None or not seq:
            raise EncodingError(f"`{text}` is not covered by this ruleset's action numbering")
        seq.append(commit)
        return tuple(seq)


def build_action_space(prog) -> ActionSpace:
    """Number every action ``prog`` (a compiled program) can offer; see the module docstring."""
    cards = prog.cards
    kinds = tuple(cards.kind_text)
    deck = cards.size
    zones = tuple(prog.table_zones)
    go_outs = tuple(prog.go_out)
    suits = tuple(cards.suits)
    meld_bound = _meld_bound(prog)
    names: list[str] = []
    whole: dict[str, int] = {}

    def add(table: dict, key: str, name: str) -> None:
        table[key] = len(names)
        names.append(name)

    for text in _cardless(zones, go_outs, deck) + _mechanic_actions(prog):
        add(whole, text, text)
    for head in _one_card_heads(go_outs, suits, meld_bound, _named_piles(prog)):
        for kind in kinds:
            text = _with_card(head, kind)
            add(whole, text, text)
    tokens: dict[str, int] = {}
    for token in kinds + _declared_tokens(prog):
        add(tokens, token, f"add {token}")
    next_meld = len(names)
    names.append(NEXT_MELD)
    commits: dict[str, int] = {}
    for head in SET_VERBS + go_outs + tuple(f"play name {s}" for s in suits) + tuple(
            f"layoff on {t}" for t in range(1, meld_bound + 1)):
        add(commits, head, f"commit {head}")
    return ActionSpace(len(names), whole, tokens, next_meld, commits, tuple(names), kinds)


def _cardless(zones: tuple, go_outs: tuple, deck: int) -> list:
    """Every action without a card: answers, draws and takes (with every depth a pile could have),
    claims, and each go-out named alone."""
    out = list(BARE_VERBS)
    out += [f"draw {z}" for z in zones]
    for verb in ("take", "claim"):
        for z in zones:
            out.append(f"{verb} {z}")
            out += [f"{verb} {z} {k}" for k in range(1, deck + 1)]
    out += list(go_outs)
    return out


def _mechanic_actions(prog) -> list:
    """Every action the ruleset's mechanics can offer beyond the notation's own (``bid 4``, ``bid nil``)."""
    out = []
    for mech, _section in present(prog.model):
        out += mech.action_texts(prog)
    return out


def _named_piles(prog) -> tuple:
    """The piles a discard names (``discard 2H to b``): those of steps that discard to several."""
    return tuple(dict.fromkeys(z for step in prog.steps for z in step.named_piles))


def _one_card_heads(go_outs: tuple, suits: tuple, meld_bound: int, piles: tuple = ()) -> list:
    """Heads that take one plain card as a whole action; ``{}`` marks where the card goes."""
    heads = [f"{v} {{}}" for v in ONE_CARD_VERBS]
    heads += [f"discard {{}} to {z}" for z in piles]
    heads += [f"{g} {{}}" for g in go_outs]
    heads += [f"play {{}} name {s}" for s in suits]
    heads += [f"layoff {{}} on {t}" for t in range(1, meld_bound + 1)]
    return heads


def _with_card(head: str, card: str) -> str:
    return head.replace("{}", card)


def _declared_tokens(prog) -> tuple:
    """``W=X`` for each wild kind W and each natural kind X it may stand for."""
    cards = prog.cards
    wild_kinds = sorted({cards.kind[c] for c in cards.ids if prog.wild and prog.wild[c]})
    naturals = [k for k in range(cards.n_kinds) if cards.kind_rank[k] >= 0]
    return tuple(f"{cards.kind_text[w]}={cards.kind_text[x]}" for w in wild_kinds for x in naturals)


def _meld_bound(prog) -> int:
    """The most melds the table can hold: the deck's cards over the smallest meld (or one per card)."""
    smallest = min((m.min for m in prog.model.melds.values()), default=1)    # (a meld's min is >= 1: E-RANGE)
    return max(1, prog.cards.size // smallest) if (prog.model.melds or prog.table_rules) else 0

