"""The websocket protocol: what a client may send, and the shapes the server sends back.

A client sends JSON objects of exactly these shapes (anything else is refused with an ``error``
message to that socket only, and nothing changes):

    {"type": "act", "action": "discard QS"}      do an action (text in the action notation)
    {"type": "sync"}                              send me the table again

The server sends ``state`` (the seat's whole table: see ``render.seat_state``), ``refused`` (an
action the rules do not allow now, with the rule that forbids it) and ``error`` (a message that is
not of the protocol, or a token that opens no seat).  The seat is never part of a message: the token
in the socket's address decides it.  See docs/web.md.
"""

from __future__ import annotations

import json
from typing import Any, Optional

#: longest message a client may send, in bytes as received
MAX_MESSAGE = 4096
#: longest action text (the engine itself refuses more than 1,000 characters unread)
MAX_ACTION = 1000

_SHAPES = {"act": {"type", "action"}, "sync": {"type"}}


class ProtocolError(ValueError):
    """A client message that is not of the protocol."""


def read_message(raw: Optional[Any]) -> dict:
    """The client message in ``raw`` (text or bytes as received), checked field by field."""
    if raw is None:
        raise ProtocolError("empty message")
    if isinstance(raw, (bytes, bytearray)):
        if len(raw) > MAX_MESSAGE:
            raise ProtocolError(f"message longer than {MAX_MESSAGE} bytes")
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("message is not UTF-8 text") from None
    if not isinstance(raw, str):
        raise ProtocolError("message is not text")
    if len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise ProtocolError(f"message longer than {MAX_MESSAGE} bytes")
    try:
        msg = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError("message is not JSON") from None
    return check_shape(msg)


def check_shape(msg: Any) -> dict:
    """``msg`` is one of the protocol's shapes, with exactly its fields, each of its type."""
    if not isinstance(msg, dict):
        raise ProtocolError("a message is a JSON object")
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in _SHAPES:
        raise ProtocolError(f"`type` must be one of: {', '.join(_SHAPES)}")
    extra = set(msg) - _SHAPES[kind]
    missing = _SHAPES[kind] - set(msg)
    if missing:
        raise ProtocolError(f"a `{kind}` message needs: {', '.join(sorted(missing))}")
    if extra:
        raise ProtocolError(f"a `{kind}` message has only: {', '.join(sorted(_SHAPES[kind]))} "
                            f"(the seat is the token's, never the message's)")
    if kind == "act":
        action = msg["action"]
        if not isinstance(action, str) or not action.strip():
            raise ProtocolError("`action` must be non-empty text")
        if len(action) > MAX_ACTION:
            raise ProtocolError(f"`action` is longer than {MAX_ACTION} characters")
    return msg


def error(message: str) -> dict:
    return {"type": "error", "message": message}


def refused(message: str, rule: Optional[str]) -> dict:
    return {"type": "refused", "message": message, "rule": rule}
