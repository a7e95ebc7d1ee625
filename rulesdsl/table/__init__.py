"""Tables where people play any ruleset, against each other or bots: the shared core of the terminal
table (``rulesdsl play``) and the web table (``rulesdsl serve``)."""

from .session import HUMAN, Event, Table, TableError

__all__ = ["Table", "TableError", "Event", "HUMAN"]
