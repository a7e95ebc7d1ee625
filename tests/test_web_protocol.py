"""The web table's client messages (docs/web.md, "Client to server"): exactly the protocol's shapes, and
at most 4,096 bytes -- counted as bytes, whether the message arrives as text or as bytes, so a message
of exactly the limit is read and one byte more is refused."""

from __future__ import annotations

import pytest

from rulesdsl.web.protocol import MAX_MESSAGE, ProtocolError, read_message


def padded(size: int, text: str = '{"type": "sync"}') -> str:
    """A valid message padded with spaces (JSON allows them) to ``size`` bytes."""
    return text + " " * (size - len(text.encode("utf-8")))


@pytest.mark.parametrize("as_bytes", [False, True], ids=["text", "bytes"])
def test_a_message_of_exactly_the_limit_is_read_and_one_byte_more_is_refused(as_bytes):
    """Catches the limit counted one short (`len(raw) > MAX_MESSAGE` -> `>=`) on either path."""
    at, over = padded(MAX_MESSAGE), padded(MAX_MESSAGE + 1)
    if as_bytes:
        at, over = at.encode("utf-8"), over.encode("utf-8")
    assert read_message(at) == {"type": "sync"}
    with pytest.raises(ProtocolError, match=f"longer than {MAX_MESSAGE} bytes"):
        read_message(over)


def test_the_limit_counts_bytes_not_characters():
    """An action of two-byte characters: 2,100 characters are 4,200 bytes, over the limit as text too."""
    text = '{"type": "act", "action": "' + "é" * 2100 + '"}'
    assert len(text) < MAX_MESSAGE < len(text.encode("utf-8"))
    with pytest.raises(ProtocolError, match="longer than"):
        read_message(text)


@pytest.mark.parametrize("raw,words", [
    (None, "empty message"), (b"\xff\xfe", "not UTF-8"), ("{nope", "not JSON"), ("[]", "a JSON object"),
    ('{"type": "shout"}', "`type` must be one of"), ('{"type": "act"}', "needs: action"),
    ('{"type": "sync", "seat": 2}', "the seat is the token's"), ('{"type": "act", "action": "  "}', "non-empty"),
])
def test_every_other_malformed_message_is_refused_with_its_reason(raw, words):
    with pytest.raises(ProtocolError, match=words):
        read_message(raw)
