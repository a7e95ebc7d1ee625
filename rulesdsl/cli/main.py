"""The ``rulesdsl`` command: list, validate, simulate, compare, convert, diff, explain, play, replay,
serve, rulebook, schema, encoding, lsp (simulate and compare are in ``simulate.py``; diff, explain, play and
replay, serve, rulebook, schema and encoding each in a module of that name).

Errors are printed like a compiler's (``path:line:col: error[CODE]: message`` and a hint); no traceback
ever reaches the user.  Exit status: 0 ok, 1 invalid ruleset (or a failed run), 2 usage.

A ruleset argument is a bundled name (``NAME``, ``variants/NAME``) or a file path (with its extension,
or starting with ``./``); when a bundled name also matches a local file, a ``note:`` line on standard
error says which one was used (see ``source.resolve``).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Optional

import click

from ..errors import Diagnostic, RulesdslError, RulesetError, ShadowedFileWarning, Sources, printable
from ..mechanics.registry import present
from ..source.tree import Pos
from .common import _ALLOW_PATH, _COLOR, _load, _notes, _parse_sets, _print_diagnostics, write_output
from .diff import diff
from .encoding import encoding
from .explain import explain
from .play import play, replay
from .rulebook import rulebook
from .schema import schema
from .serve import serve
from .simulate import compare, simulate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulesdsl")
def cli() -> None:
    """rulesdsl: card-game rules as data, and the interpreter that plays them."""


@cli.command("list")
@click.option("--verbose", "-v", is_flag=True, help="Show each variant's changes relative to what it extends.")
def list_cmd(verbose: bool) -> None:
    """List the bundled games and variants."""
    from ..rules import bundled_listing

    bases: dict = {}
    for name, title in bundled_listing():
        line = f"{name:32} {printable(title)}"
        if verbose:
            line = _with_changes(line, name, bases)
        click.echo(line)


def _with_changes(line: str, name: str, bases: dict) -> str:
    """A ``list`` line with the variant's changes added (a game that extends nothing keeps its line)."""
    from .diff import cut, list_width, variant_changes

    changes = variant_changes(name, bases)
    return line if changes is None else cut(f"{line} {changes}", list_width())


@cli.command()
@click.argument("rulesets", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a parameter (repeatable).")
@_ALLOW_PATH
@_COLOR
def validate(rulesets: tuple[str, ...], fmt: str, sets: tuple[str, ...], allow_paths: tuple[str, ...],
             color: str) -> None:
    """Check rulesets (bundled names, or paths with their extension); print every problem, located,
    with its line and a caret under the column."""
    overrides, where = _parse_sets(sets)
    report = []
    bad = False
    for name in rulesets:
        shown = printable(name)
        try:
            rules = _load(name, overrides, where, allow_paths)
            used = [(m.key, m.origin) for m, _ in present(rules.model)]
            report.append({"ruleset": shown, "valid": True, "name": printable(rules.name),
                           "digest": rules.digest, "diagnostics": [],
                           "mechanics": [{"section": k, "package": o} for k, o in used]})
            installed = ", ".join(f"{k} ({printable(o)})" for k, o in used if o != "rulesdsl")
            if fmt == "text":
                click.echo(f"{shown}: ok ({printable(rules.name)}, digest {rules.digest})"
                           + (f"; mechanics: {installed}" if installed else ""))
        except RulesetError as exc:
            bad = True
            report.append({"ruleset": shown, "valid": False,
                           "diagnostics": [d.as_dict() for d in exc.diagnostics]})
            _print_diagnostics(exc.diagnostics, fmt, sources=exc.sources, where=where, color=color)
            if fmt == "text":
                n = len(exc.diagnostics)
                click.echo(f"{shown}: {n} error{'s' if n != 1 else ''}")
    if fmt == "json":
        click.echo(json.dumps(report if len(report) > 1 else report[0], indent=2))
    sys.exit(1 if bad else 0)


@cli.command()
@click.argument("ruleset")
@click.option("--to", "target", type=click.Choice(["yaml", "rules"]), default=None,
              help="Output syntax (optional with --output FILE.yaml / FILE.rules).")
@click.option("--resolved", is_flag=True, help="Write the ruleset with its `extends` chain merged in.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write to FILE instead of standard output (never to the file being read).")
@_ALLOW_PATH
def convert(ruleset: str, target: Optional[str], resolved: bool, output: Optional[str],
            allow_paths: tuple[str, ...]) -> None:
    """Print a ruleset in the other syntax (YAML <-> .rules); the model is the same.

    RULESET is a bundled name (gives a copy to edit) or a file path with its extension."""
    from ..source.resolve import find, load_tree, not_found, read_file
    from ..source.tree import Map
    from ..source.writer import to_dsl, to_yaml

    target = _target_syntax(target, output)
    stdout = None if output else _stdout_stat()

    said: set = set()

    def moot(note: ShadowedFileWarning) -> bool:
        """A note already given, or about the very file being written (it is not meant)."""
        if str(note) in said or _is_target(Path(note.local), output, stdout):
            return True
        said.add(str(note))
        return False

    sources = Sources()
    try:
        with _notes(skip=moot):
            path = find(ruleset)
        if path is None:
            message, hint = not_found(ruleset)
            _print_diagnostics([Diagnostic("E-NOT-FOUND", message, Pos(ruleset, 0, 0), hint)], "text")
            sys.exit(1)
        _refuse_own_input(path, output, stdout)
        if resolved:
            files: list = []
            with _notes(skip=moot):
                tree, _ = load_tree(ruleset, files=files, allow_paths=allow_paths, sources=sources)
            for f in files[1:]:
                _refuse_own_input(f, output, stdout)
        else:
            tree = read_file(path, sources=sources)
    except RulesetError as exc:
        _print_diagnostics(exc.diagnostics, "text", sources=sources)
        sys.exit(1)
    if not isinstance(tree, Map):
        click.echo(f"{printable(tree.pos)}: error[E-TYPE]: a ruleset is a mapping of sections, not a list or a value")
        sys.exit(1)
    write_output(to_yaml(tree) if target == "yaml" else to_dsl(tree), output)


def _target_syntax(target: Optional[str], output: Optional[str]) -> str:
    """``--to``, or the syntax ``--output``'s extension implies; a file is read back by its extension,
    so the two must agree."""
    implied = None
    if output is not None:
        suffix = Path(output).suffix.lower()
        implied = "rules" if suffix == ".rules" else "yaml" if suffix in (".yaml", ".yml") else None
    if target is None and implied is None:
        raise click.UsageError("say the output syntax with `--to yaml` or `--to rules` (or give `--output` "
                               "a file ending in .yaml or .rules)")
    if target is not None and implied is not None and target != implied:
        raise click.UsageError(f"`--to {target}` does not match `--output {printable(output)}`, which will be read as "
                               f"{'the DSL' if implied == 'rules' else 'YAML'}; change the extension or `--to`")
    return target or implied  # type: ignore[return-value]


def _stdout_stat() -> Optional[os.stat_result]:
    """What standard output is, when it is a regular file (a shell's ``>`` redirection), else None."""
    try:
        st = os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):       # no real file descriptor (a test runner)
        return None
    import stat
    return st if stat.S_ISREG(st.st_mode) else None


def _is_target(path: Path, output: Optional[str], stdout: Optional[os.stat_result]) -> bool:
    """Whether ``path`` is the file ``convert`` writes: ``--output FILE``, or a redirected stdout."""
    try:
        st = os.stat(path)
        if output is not None:
            return os.path.exists(output) and os.path.samestat(st, os.stat(output))
        return stdout is not None and os.path.samestat(st, stdout)
    except (OSError, ValueError):
        return False


def _refuse_own_input(path: Path, output: Optional[str], stdout: Optional[os.stat_result]) -> None:
    """Stop (usage error, nothing written) when ``convert`` would write over a file it reads."""
    if not _is_target(path, output, stdout):
        return
    from ..source.resolve import display_path

    shown = printable(display_path(path))
    if output is not None:
        raise click.UsageError(f"`--output {printable(output)}` is {shown}, which this conversion reads; writing it "
                               f"would destroy it.  Write to another file.")
    raise click.UsageError(f"standard output is {shown}, which this conversion reads (a shell's `>` empties "
                           f"the file before convert starts).  Write to another file, or use `--output FILE`.")


@cli.command()
@_ALLOW_PATH
def lsp(allow_paths: tuple[str, ...]) -> None:
    """Run the language server on standard input and output (for an editor; needs '.[lsp]')."""
    try:
        from ..lsp.server import serve
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("pygls", "lsprotocol", "cattrs", "attrs"):
            raise
        click.echo("error: the language server needs pygls: pip install 'rulesdsl[lsp]'", err=True)
        sys.exit(2)
    serve(allow_paths)


cli.add_command(simulate)
cli.add_command(compare)
cli.add_command(diff)
cli.add_command(play)
cli.add_command(replay)
cli.add_command(rulebook)
cli.add_command(serve)
cli.add_command(explain)
cli.add_command(schema)
cli.add_command(encoding)


def main(argv: Optional[list[str]] = None) -> None:
    """Entry point: runs the click group and turns any unexpected error into one line, not a traceback."""
    try:
        cli.main(args=argv, prog_name="rulesdsl", standalone_mode=True)
    except SystemExit:
        raise
    except RulesetError as exc:                # e.g. a `--set` value past the number bound
        _print_diagnostics(exc.diagnostics, "text", sys.stderr, sources=exc.sources)
        sys.exit(1)
    except RulesdslError as exc:
        click.echo(f"error: {printable(exc)}", err=True)
        sys.exit(1)
    except Exception as exc:  # noqa: BLE001 -- the promise is: never a traceback
        click.echo(f"internal error: {type(exc).__name__}: {printable(exc)} (please report this)", err=True)
        sys.exit(3)


if __name__ == "__main__":
    main()
