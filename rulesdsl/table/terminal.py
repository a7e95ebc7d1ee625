"""The terminal table's screen: what one seat may see, drawn with rich.

Everything drawn comes from a game's ``view(seat)`` (and, in a replay, every seat's view) plus the
deck the ruleset declares (rank order, suits, suit colours) to sort and colour cards.  Nothing here
knows a game: zones, melds, tricks, teams and windows are drawn from the shape of the view, so a new
ruleset is shown with no code of its own.  The screen never reads the game itself, so it cannot show
a card the seat's view does not hold.

``rich`` is an optional dependency (the ``play`` extra): import this module only when it is needed.
"""

from __future__ import annotations

from io import StringIO
from typing import Callable, Iterable, Mapping, Optional, Sequence

from rich.console import Console, Group
from rich.rule import Rule
from rich.text import Text

from ..errors import printable

#: view keys drawn in their own sections (everything else a view holds is listed under "Also")
_DRAWN = {"seat", "players", "hand_number", "dealer", "turn_order", "current_player", "phase", "step",
          "scores", "hands_won", "zones", "melds", "last_hands", "legal_actions", "is_over", "winner",
          "winners", "trick", "finished", "roles", "teams", "team_zones", "state"}
#: at most this many cards of a long face-up pile are drawn (the newest); the count says the rest
PILE_SHOWN = 16
#: the legal actions are set in columns past this many
ACTIONS_IN_ONE_COLUMN = 12


class CardStyle:
    """How cards are sorted and coloured: by the deck the ruleset declares.

    A suit is red when the deck's ``colors`` says so; a deck that names no colours is read as the
    usual four suits, where H and D are the red ones."""

    def __init__(self, cards, colors: Optional[Mapping[str, str]] = None):
        self.cards = cards
        colors = dict(colors or {})
        self.red = {s for s in cards.suits if (colors.get(s) == "red" if colors else s.upper() in ("H", "D"))}

    @classmethod
    def of(cls, game) -> "CardStyle":
        deck = getattr(game.prog.model, "deck", None)
        return cls(game.prog.cards, getattr(deck, "colors", None))

    def suit_of(self, text: str) -> Optional[str]:
        """The suit letter of a card text (None for a joker or a text the deck does not know)."""
        kind = self.cards.parse_kind(text.partition("=")[0])
        n_r = len(self.cards.ranks)
        if kind is None or kind >= n_r * len(self.cards.suits):
            return None
        return self.cards.suits[kind // n_r]

    def key(self, text: str) -> tuple:
        """Sort key: suit in deck order, then rank in deck order; jokers and unknown texts last."""
        kind = self.cards.parse_kind(text.partition("=")[0])
        n_r, n_s = len(self.cards.ranks), len(self.cards.suits)
        if kind is None:
            return (n_s + 1, 0, text)
        if kind >= n_r * n_s:
            return (n_s, 0, text)
        return (kind // n_r, kind % n_r, text)

    def card(self, text: str) -> Text:
        suit = self.suit_of(text)
        style = "bold red" if suit in self.red else "bold"
        return Text(printable(text), style=style)

    def cards_text(self, texts: Iterable[str], sort: bool = False) -> Text:
        texts = sorted(texts, key=self.key) if sort else list(texts)
        return Text(" ").join(self.card(t) for t in texts) if texts else Text("(none)", style="dim")

    def by_suit(self, texts: Sequence[str], indent: str = "  ") -> list[Text]:
        """A hand sorted and set out one line per suit (jokers and other cards on a line of their own)."""
        groups: dict = {}
        for t in sorted(texts, key=self.key):
            groups.setdefault(self.suit_of(t), []).append(t)
        lines = []
        for suit, cards in groups.items():
            label = printable(suit) if suit is not None else "*"
            head = Text(f"{indent}{label:>2}: ", style="red" if suit in self.red else "")
            lines.append(head + self.cards_text(cards))
        return lines or [Text(f"{indent}(no cards)", style="dim")]


Namer = Callable[[int], str]


def seat_screen(view: Mapping, style: CardStyle, name: Namer, title: str, news: Sequence[str] = (),
                earlier: int = 0, who: str = "") -> Group:
    """The screen of the seat whose ``view`` this is (``who``: how the header names it): the table, its
    own cards, and what happened since its last turn (``news``; ``earlier`` lines left out)."""
    seat = view["seat"]
    parts: list = [Rule(Text(f"{printable(title)} · hand {view.get('hand_number')}" + (f" · you are {who}" if who else "")))]
    parts += _status(view, name)
    parts += _table_zones(view, style)
    parts += _others(view, style, name, hidden_from=seat)
    parts += _team_zones(view, style)
    parts += _melds(view, style, name)
    parts += _trick(view, style, name)
    parts += _extras(view, name)
    if news:
        parts.append(Text("Since your last turn:", style="bold"))
        if earlier:
            parts.append(Text(f"  ({earlier} earlier lines: type `log`)", style="dim"))
        parts += [Text("  " + printable(line)) for line in news]
    parts += _own_zones(view, style, seat)
    return _screen(parts)


def actions_list(actions: Sequence[str], width: int = 100) -> Group:
    """The legal actions numbered from 1, as a person answers them."""
    items = [f"{i}. {printable(a)}" for i, a in enumerate(actions, 1)]
    lines = [Text("Your move:", style="bold")]
    if len(items) <= ACTIONS_IN_ONE_COLUMN:
        return Group(*lines, *(Text("  " + it) for it in items))
    cell = max(len(it) for it in items) + 3
    per_row = max(1, (width - 2) // cell)
    for row in range(0, len(items), per_row):
        lines.append(Text("  " + "".join(it.ljust(cell) for it in items[row:row + per_row]).rstrip()))
    return Group(*lines)


def replay_screen(views: Sequence[Mapping], style: CardStyle, name: Namer, title: str, position: int,
                  total: int, said: Sequence[str]) -> Group:
    """A replay's screen at ``position`` (actions done) of ``total``: every seat's cards (each from
    that seat's own view), the table, and ``said`` (the last action and any hand result, in words)."""
    view = merged_view(views)
    parts: list = [Rule(Text(f"{printable(title)} · replay · action {position} of {total} · "
                             f"hand {view.get('hand_number')}"))]
    parts += [Text(printable(line), style="bold") for line in said]
    parts += _status(view, name)
    parts += _table_zones(view, style)
    parts += _team_zones(view, style)
    parts += _melds(view, style, name)
    parts += _trick(view, style, name)
    parts += _extras(view, name)
    for seat in range(len(views)):
        parts += _own_zones(view, style, seat, label=name(seat).capitalize())
    return _screen(parts)


def _screen(parts: list) -> Group:
    """The header rule and every line as one text (rich draws one long text much faster than many)."""
    return Group(parts[0], Text("\n").join(parts[1:]))


def merged_view(views: Sequence[Mapping]) -> dict:
    """One view holding what any seat sees: each seat's own zones from its own view, each team zone
    from the view that shows the most of it, the table zones as every seat sees them (a table zone
    shows the same to all: ``engine.visibility``).  For replays, where every card is shown."""
    merged = dict(views[0])
    zones: dict = {}
    for name, entry in views[0]["zones"].items():
        zones[name] = [views[s]["zones"][name][s] for s in range(len(entry))] if isinstance(entry, list) else entry
    merged["zones"] = zones
    if isinstance(views[0].get("team_zones"), Mapping):
        merged["team_zones"] = {z: [max((v["team_zones"][z][t] for v in views), key=_shown)
                                    for t in range(len(entries))]
                                for z, entries in views[0]["team_zones"].items()}
    merged["seat"] = None
    return merged


def _shown(entry: Mapping) -> int:
    return 2 if "cards" in entry else 1 if "top" in entry else 0


# ---------------------------------------------------------------------------------------- sections
def _status(view: Mapping, name: Namer) -> list:
    lines = [Text("Scores: ") + Text(" · ".join(_scores(view, name)))]
    roles = view.get("roles")
    if isinstance(roles, Mapping) and roles:
        lines.append(Text("Roles: " + ", ".join(f"{name(int(s))} {printable(r)}" for s, r in roles.items())))
    if view.get("is_over"):
        lines.append(Text("The match is over.", style="bold"))
        return lines
    current = view.get("current_player")
    turn = Text("Turn: ") + Text(name(current) if current is not None else "nobody", style="bold")
    turn += Text(f" ({printable(view.get('phase'))}" + (f", {printable(view.get('step'))}" if view.get("step")
                                                     and view.get("step") != view.get("phase") else "") + ")")
    if view.get("dealer") is not None:
        turn += Text(f" · dealer: {name(view['dealer'])}")
    lines.append(turn)
    return lines


def _scores(view: Mapping, name: Namer) -> list[str]:
    scores = view.get("scores") or []
    teams = view.get("teams")
    if teams:
        return [f"team {t + 1} ({' and '.join(name(s) for s in members)}) {scores[t]}"
                for t, members in enumerate(teams) if t < len(scores)]
    return [f"{name(s)} {score}" for s, score in enumerate(scores)]


def _table_zones(view: Mapping, style: CardStyle) -> list:
    lines = []
    for zone, entry in view.get("zones", {}).items():
        if isinstance(entry, Mapping):
            lines.append(Text(f"  {printable(zone)}: ") + _pile(entry, style))
    return [Text("Table:", style="bold")] + lines if lines else []


def _pile(entry: Mapping, style: CardStyle) -> Text:
    """A face-up or face-down pile: its visible cards (the newest, when many) and its size."""
    count = entry.get("count", 0)
    size = Text(f"{count} card{'s' if count != 1 else ''}", style="dim")
    if "cards" in entry:
        cards = list(entry["cards"])
        if not cards:
            return size
        shown = cards[-PILE_SHOWN:]
        more = Text("… ", style="dim") if len(cards) > len(shown) else Text("")
        return more + style.cards_text(shown) + Text(" (") + size + Text(", top last)")
    if "top" in entry:
        return Text("top ") + style.card(entry["top"]) + Text(" (") + size + Text(")")
    if entry.get("top_face_down"):
        return size + Text(", top face down", style="dim")
    return size + (Text(", face down", style="dim") if count else Text(""))


def _others(view: Mapping, style: CardStyle, name: Namer, hidden_from: Optional[int]) -> list:
    """Each other seat's own zones: sizes, and cards where this view shows them."""
    lines = []
    for seat in range(view.get("players", 0)):
        if seat == hidden_from:
            continue
        bits = []
        for zone, entries in view.get("zones", {}).items():
            if isinstance(entries, list) and seat < len(entries):
                entry = entries[seat]
                bit = Text(f"{printable(zone)} {entry.get('count', 0)}")
                if entry.get("cards"):
                    bit += Text(": ") + style.cards_text(entry["cards"], sort=True)
                bits.append(bit)
        if bits:
            lines.append(Text(f"  {name(seat)}: ") + Text(" · ").join(bits))
    return [Text("Players:", style="bold")] + lines if lines else []


def _own_zones(view: Mapping, style: CardStyle, seat: int, label: str = "Your") -> list:
    """A seat's own zones (its hand, ...), sorted and grouped by suit."""
    lines = []
    for zone, entries in view.get("zones", {}).items():
        if not isinstance(entries, list) or seat >= len(entries):
            continue
        entry = entries[seat]
        count = entry.get("count", 0)
        head = Text(f"{label} {printable(zone)} ({count}):", style="bold")
        if "cards" in entry:
            lines += [head] + style.by_suit(entry["cards"])
        else:
            lines.append(head + Text(" face down" if count else "", style="dim"))
    return lines


def _team_zones(view: Mapping, style: CardStyle) -> list:
    zones = view.get("team_zones")
    if not isinstance(zones, Mapping):
        return []
    lines = []
    for zone, entries in zones.items():
        for team, entry in enumerate(entries):
            lines.append(Text(f"  team {team + 1} {printable(zone)}: ") + _pile(entry, style))
    return [Text("Team zones:", style="bold")] + lines if lines else []


def _melds(view: Mapping, style: CardStyle, name: Namer) -> list:
    """The melds on the table, numbered from 1 in view order (``layoff X on N`` names them so)."""
    melds = view.get("melds") or []
    if not melds:
        return []
    teams = view.get("teams")
    lines = [Text("Melds:", style="bold")]
    for i, meld in enumerate(melds, 1):
        owner = meld.get("owner")
        who = "" if owner is None else (f"team {owner + 1}" if teams else name(owner))
        kind = printable(meld.get("kind", "")) if meld.get("kind") else ""
        head = Text(f"  {i:>2}. {who}{' ' if who and kind else ''}{kind}: ")
        line = head + style.cards_text(meld.get("cards", []))
        if meld.get("book"):
            line += Text(f" ({printable(meld['book'])} book)", style="dim")
        lines.append(line)
    return lines


def _trick(view: Mapping, style: CardStyle, name: Namer) -> list:
    """The current trick: of a climbing game, the play to beat, who made it, who passed; of a
    trick-taking game, each card played so far and who played it."""
    trick = view.get("trick")
    if not isinstance(trick, Mapping):
        return []
    if "plays" in trick:
        return _card_trick(trick, style, name)
    last = trick.get("last_play") or []
    line = Text("Trick: ", style="bold")
    if last:
        line += style.cards_text(last)
        if trick.get("last_player") is not None:
            line += Text(f" by {name(trick['last_player'])}")
        if trick.get("kind"):
            line += Text(f" ({printable(trick['kind'])})")
    else:
        line += Text("empty: a new lead", style="dim")
    lines = [line]
    details = []
    if trick.get("named_suit"):
        details.append(f"named suit {printable(trick['named_suit'])}")
    for key in ("passed", "locked_out"):
        if trick.get(key):
            details.append(f"{key.replace('_', ' ')}: " + ", ".join(name(s) for s in trick[key]))
    for key, value in trick.items():
        if key not in ("last_play", "last_player", "kind", "named_suit", "passed", "locked_out",
                       "to_beat_rank") and value:
            details.append(f"{printable(key).replace('_', ' ')}: {printable(value)}")
    if details:
        lines.append(Text("  " + "; ".join(details), style="dim"))
    if view.get("finished"):
        lines.append(Text("  out so far: " + ", ".join(name(s) for s in view["finished"])))
    return lines


def _card_trick(trick: Mapping, style: CardStyle, name: Namer) -> list:
    """A trick of one card per player: the cards so far with who played them, the suit led, trumps,
    tricks taken this deal and the suits broken."""
    line = Text(f"Trick {printable(trick.get('number'))}: ", style="bold")
    plays = trick.get("plays") or []
    if not plays:
        line += Text("empty: a new lead" + (f" by {name(trick['leader'])}" if trick.get("leader") is not None else ""),
                     style="dim")
    for i, p in enumerate(plays):
        if i:
            line += Text(", ")
        line += Text(f"{name(p.get('seat'))} ") + style.cards_text([p.get("card")])
    details = []
    for key, value in trick.items():               # the suits it names (led, trumps), as the view gives them
        if isinstance(value, str) and value:
            details.append(f"{printable(key)}: {printable(value)}")
    won = trick.get("tricks_won") or []
    if any(won):
        details.append("tricks: " + ", ".join(f"{name(s)} {n}" for s, n in enumerate(won)))
    broken = [k for k, v in (trick.get("broken") or {}).items() if v]
    if broken:
        details.append("broken: " + ", ".join(printable(b) for b in broken))
    return [line] + ([Text("  " + "; ".join(details), style="dim")] if details else [])


def _extras(view: Mapping, name: Namer) -> list:
    """Whatever else the view tells (a window's state, a flag of the ruleset), as ``key: value``."""
    lines = []
    state = view.get("state")
    items = list(state.items()) if isinstance(state, Mapping) else []
    items += [(k, v) for k, v in view.items() if k not in _DRAWN]
    for key, value in items:
        if not value or (isinstance(value, (list, tuple)) and not any(value)):
            continue
        lines.append(Text(f"  {printable(key).replace('_', ' ')}: {_plain(value, name)}", style="dim"))
    return lines


#: keys of a view's windows whose numbers are seats (shown as names, as people count seats)
_SEAT_KEYS = {"discarder", "waiting", "giver", "receiver", "drawer", "last_player", "declarer"}


def _plain(value, name: Namer, seats: bool = False) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{printable(k)} {_plain(v, name, k in _SEAT_KEYS)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return " ".join(_plain(v, name, seats) for v in value) if value else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if seats and type(value) is int:
        return name(value)
    return printable(value)


# ---------------------------------------------------------------------------------------- results
def final_lines(view: Mapping, name: Namer, winners: Sequence[int]) -> list[str]:
    """The match's end: final scores and the winner, or the sides sharing the win (teams, in a
    partnership game: there ``winners`` are team numbers)."""
    lines = ["Match over. Final scores: " + " · ".join(_scores(view, name)) + "."]
    teams = view.get("teams")

    def who(side: int) -> str:
        if teams:
            return f"team {side + 1} ({' and '.join(name(s) for s in teams[side])})"
        return name(side)
    if len(winners) == 1:
        lines.append(f"Winner: {who(winners[0])}.")
    elif winners:
        lines.append(f"Shared win: {', '.join(who(w) for w in winners[:-1])} and {who(winners[-1])}.")
    return lines


def to_text(renderable, width: int = 120) -> str:
    """A renderable as plain text (no colour): what tests and pipes read."""
    out = StringIO()
    Console(file=out, width=width, color_system=None, force_terminal=False, highlight=False).print(renderable)
    return out.getvalue()
