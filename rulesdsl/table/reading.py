"""What a person types at the terminal table, and how it is read.

An answer is a command (``help``, ``rules``, ``log``, ``save FILE``, ``quit``), the number of a legal
action, or an action's text: the exact text of a listed action (any case), a prefix only one listed
action starts with, or any other text, which the game itself judges (a play with other cards of the
same ranks, a go-out laying out melds of one's choice) and refuses, naming its rule, when illegal.

Lines come from a prompt with completion (prompt_toolkit) when standard input is a terminal, and from
plain ``readline`` otherwise, so the table can be driven by a script or a pipe.
"""

from __future__ import annotations

import sys
from typing import NamedTuple, Sequence

#: command words and what they do (``help`` prints this)
COMMANDS = {
    "help": "this help",
    "rules": "the ruleset's parameters in force",
    "log": "everything that happened that you may know",
    "save FILE": "save the game to FILE (rulesdsl play --load FILE resumes it)",
    "quit": "leave the table",
}


class Answer(NamedTuple):
    """A read answer: ``kind`` is ``action`` (``text`` to send to the game), ``command`` (``text`` the
    word, ``arg`` the rest), ``ambiguous`` (``options`` the actions it may mean), ``unknown`` (a
    number no action has) or ``empty``."""

    kind: str
    text: str = ""
    arg: str = ""
    options: tuple = ()


def resolve(line: str, legal: Sequence[str]) -> Answer:
    """Read one typed line against the legal actions listed (numbered from 1)."""
    text = " ".join(line.split())
    if not text:
        return Answer("empty")
    word, _, rest = text.partition(" ")
    if word.lower() in {c.split()[0] for c in COMMANDS} and \
            not any(a.split()[0].lower() == word.lower() for a in legal):
        return Answer("command", word.lower(), rest)
    if text.isdigit():
        number = int(text)
        if 1 <= number <= len(legal):
            return Answer("action", legal[number - 1])
        return Answer("unknown", text)
    if text in legal:
        return Answer("action", text)
    low = text.lower()
    exact = [a for a in legal if a.lower() == low]      # case aside: unless two actions differ only by it
    if len(exact) == 1:
        return Answer("action", exact[0])
    if exact:
        return Answer("ambiguous", text, options=tuple(exact))
    starts = [a for a in legal if a.lower().startswith(low)]
    if len(starts) == 1:
        return Answer("action", starts[0])
    if len(starts) > 1:
        return Answer("ambiguous", text, options=tuple(starts))
    return Answer("action", text)


class PlainReader:
    """Lines from standard input, one per answer (pipes, scripts, tests)."""

    interactive = False

    def __init__(self, stream=None, echo=None):
        self.stream = stream or sys.stdin
        self.echo = echo or (lambda s: (sys.stdout.write(s), sys.stdout.flush()))

    def read(self, prompt: str, choices: Sequence[str] = ()) -> str:
        """The next line; ``EOFError`` at the end of the input."""
        self.echo(prompt)
        line = self.stream.readline()
        if not line:
            self.echo("\n")
            raise EOFError
        line = line.rstrip("\r\n")
        self.echo(line + "\n")           # the answer, as a terminal would have echoed it
        return line

    def pause(self, message: str) -> None:
        """A pause for a person (pass the keyboard on): nothing to wait for in a script."""
        self.echo(message + "\n")


class PromptReader:
    """A prompt on the terminal with TAB completion over the legal actions and the commands."""

    interactive = True

    def __init__(self):
        from prompt_toolkit import PromptSession

        self.choices: Sequence[str] = ()
        self.session = PromptSession(completer=_completer(lambda: self.choices), complete_while_typing=False)

    def read(self, prompt: str, choices: Sequence[str] = ()) -> str:
        self.choices = list(choices) + [c.split()[0] for c in COMMANDS]
        return self.session.prompt(prompt)

    def pause(self, message: str) -> None:
        from prompt_toolkit import prompt

        prompt(message + " ")


def _completer(choices):
    """Completion of the whole line so far against each choice (case-insensitive)."""
    from prompt_toolkit.completion import Completer, Completion

    class Choices(Completer):
        def get_completions(self, document, complete_event):
            typed = document.text_before_cursor
            low = typed.lstrip().lower()
            for choice in choices():
                if choice.lower().startswith(low):
                    yield Completion(choice, start_position=-len(typed.lstrip()))

    return Choices()


def make_reader(force_plain: bool = False):
    """A prompt with completion when standard input and output are terminals, else plain lines."""
    if not force_plain and sys.stdin.isatty() and sys.stdout.isatty():
        return PromptReader()
    return PlainReader()


def help_lines() -> list[str]:
    lines = ["Answer with a move's number, or its text in any case (TAB completes; its start is",
             "enough when no other move starts so). Other moves are judged by the rules.",
             "Commands:"]
    lines += [f"  {cmd:<10} {what}" for cmd, what in COMMANDS.items()]
    return lines
