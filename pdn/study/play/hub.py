"""The Hub protocol: the text protocol Scan defined for draughts engines, both ways.

A program (a GUI, pydraughts' ``HubEngine``, ``pdn match``) talks to an engine through its
standard streams, one command per line: ``hub`` (the engine answers ``id``, ``param`` lines
and ``wait``), ``init`` (``ready``), ``new-game``, ``set-param name=variant value=V``,
``pos pos=POSITION moves="M1 M2 ..."``, ``level depth=N`` / ``move-time=S`` / ``nodes=N`` /
``time=T inc=I``, ``go think`` (the engine sends ``info`` lines, then ``done move=M
ponder=P``), ``ping`` (``pong``), ``stop`` and ``quit``.

A position is the side to move (``W`` or ``B``) followed by one letter per square in numeric
order (``w``/``b`` a man, ``W``/``B`` a king, ``e`` empty); a move is ``32-28``, and a capture
its first and last squares then the captured squares in ascending order, ``28x19x23``. Scan
defines 10x10 only; on 8x8 pdn speaks as pydraughts does (docs/hub.md): the first mover is
``W`` on the high numbers (English turned round), Russian and Brazilian moves numbered from a1.
Scores are in men, a win in n plies being ``100 - n/100``.

:class:`HubEngine` answers as an engine with pdn's own search (``pdn engine --hub``);
:class:`HubClient` drives any Hub engine (``pdn match``).
"""

from __future__ import annotations

import functools
import math
import queue
import re
import shlex
import subprocess
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from pdn.engine import (
    INTERNATIONAL,
    MAX_DEPTH,
    VARIANTS,
    Color,
    Found,
    History,
    Move,
    Position,
    Search,
    Variant,
    board_for,
    letters,
)
from pdn.rules.draws import draw_rules

__all__ = [
    "HUB_VARIANTS",
    "HubClient",
    "HubEngine",
    "HubError",
    "HubTimeout",
    "hub_move",
    "hub_position",
    "parse_hub_move",
    "parse_hub_position",
    "search_for",
]

#: The ``variant`` values this engine takes: Scan's names for the variants it shares with pdn
#: (``normal`` is International draughts), then pdn's own names for the others.
HUB_VARIANTS: dict[str, Variant] = {
    "normal": INTERNATIONAL,
    **{name: variant for name, variant in sorted(VARIANTS.items()) if name != "international"},
}


class HubError(ValueError):
    """A line of the Hub protocol that cannot be read, or an engine that breaks it."""


# ----------------------------------------------------------------------------- positions, moves


def _turned(variant: Variant) -> bool:
    """Whether ``variant``'s Hub positions show the board turned round with the colours
    swapped: where Black moves first (English), so that the first mover is always ``W``, on the
    high numbers, as pydraughts writes them (docs/hub.md)."""
    return variant.first_mover is Color.BLACK and variant.layout == "diagonal"


_SWAP = str.maketrans("wbWB", "bwBW")


@functools.cache
def _hub_numbers(variant: Variant) -> tuple[dict[int, int], dict[int, int]]:
    """The number the Hub gives each of ``variant``'s squares in a move, and the square of
    each number. pdn's own numbers, but for the 8x8 variants written in algebraic notation
    (Russian, Brazilian), which pydraughts numbers from a1, row by row upward (a1 = 1, c1 = 2,
    b2 = 5, ..., h8 = 32)."""
    board = board_for(variant)
    squares = range(1, board.squares + 1)
    if variant.notation == "algebraic" and variant.layout == "diagonal":
        half = variant.width // 2
        out = {}
        for square in squares:
            name = board.algebraic(square)
            column, row = ord(name[0]) - ord("a"), int(name[1:]) - 1
            out[square] = row * half + column // 2 + 1
    else:
        out = {square: square for square in squares}
    return out, {number: square for square, number in out.items()}


def hub_position(position: Position) -> str:
    """``position`` as the Hub protocol writes it (docs/hub.md: English turned round).

    >>> from pdn.engine import ENGLISH, INTERNATIONAL
    >>> hub_position(Position.start(ENGLISH))
    'Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww'
    >>> hub_position(Position.from_fen("B:W21:BK12", ENGLISH))
    'WeeeeeeeeeeebeeeeeeeeWeeeeeeeeeee'
    >>> hub_position(Position.start(INTERNATIONAL))[:3]
    'Wbb'
    """
    # The engine's letters per square, with the Hub's "e" for an empty one.
    turn, text = position.turn.letter, letters(position).replace(".", "e")
    if _turned(position.variant):
        return turn.translate(_SWAP) + text[::-1].translate(_SWAP)
    return turn + text


def parse_hub_position(text: str, variant: Variant) -> Position:
    """A Hub position string of ``variant``'s board (``HubError`` if it is not one).

    >>> from pdn.engine import ENGLISH
    >>> parse_hub_position(hub_position(Position.start(ENGLISH)), ENGLISH).fen()[:2]
    'B:'
    """
    squares = board_for(variant).squares
    if len(text) != squares + 1 or text[0] not in "WB":
        raise HubError(f"{text[:80]!r} is not a {variant.name} position ({squares} squares)")
    if _turned(variant):
        text = text[0].translate(_SWAP) + text[:0:-1].translate(_SWAP)
    black: list[str] = []
    white: list[str] = []
    for square, letter in enumerate(text[1:], 1):
        if letter in "bB":
            black.append(("K" if letter == "B" else "") + str(square))
        elif letter in "wW":
            white.append(("K" if letter == "W" else "") + str(square))
        elif letter != "e":
            raise HubError(f"{letter!r} at square {square} is not w, b, W, B or e")
    return Position.from_fen(f"{text[0]}:W{','.join(white)}:B{','.join(black)}", variant)


def hub_move(move: Move, variant: Variant) -> str:
    """A legal move of ``variant`` as the Hub protocol writes it.

    >>> from pdn.engine import ENGLISH, RUSSIAN
    >>> [hub_move(m, ENGLISH) for m in Position.from_fen("W:W27:B23,15", ENGLISH).legal_moves()]
    ['27x11x15x23']
    >>> [hub_move(m, RUSSIAN) for m in Position.start(RUSSIAN).legal_moves()][:2]
    ['9-13', '10-13']
    """
    number = _hub_numbers(variant)[0]
    if not move.captures:
        return f"{number[move.start]}-{number[move.end]}"
    taken = sorted(number[square] for square in move.captures)
    return "x".join(str(s) for s in (number[move.start], number[move.end], *taken))


def parse_hub_move(text: str, position: Position) -> Move:
    """The legal move of ``position`` that a Hub move names (``HubError`` when none does)."""
    separator = "x" if "x" in text else "-"
    square = _hub_numbers(position.variant)[1]
    try:
        squares = [square[int(part)] for part in text.split(separator)]
    except (ValueError, KeyError):
        raise HubError(f"{text[:80]!r} is not a Hub move") from None
    if len(squares) < 2:
        raise HubError(f"{text[:80]!r} is not a Hub move")
    start, end, taken = squares[0], squares[1], sorted(squares[2:])
    for move in position.legal_moves(merge_duplicates=True):
        if (
            move.start == start
            and move.end == end
            and (not taken or sorted(move.captures) == taken)
        ):
            return move
    raise HubError(f"{text[:80]} is not a legal move in {position.fen()}")


def search_for(variant: Variant) -> Search:
    """A search that draws by the federation's rules of ``variant`` as pdn knows them
    (:func:`pdn.rules.draws.draw_rules`): a repeated position, and the quiet-move count."""
    rules = draw_rules(variant)
    if rules is None:
        return Search()
    return Search(repetition=rules.repetition > 0, quiet_plies=2 * rules.quiet_moves)


def _score(found: Found) -> str:
    if found.win_in is not None:
        plies = abs(found.win_in)
        return f"{(100 - plies / 100) * (1 if found.win_in > 0 else -1):.2f}"
    return f"{found.value / 100:.2f}"


#: One ``name=value`` of a command: the value in double quotes (spaces in it; the
#: protocol's), in single quotes (as a shell writes them, which engines do), or up to a space.
_ARGUMENT = re.compile(r'\s*([^\s=]+)(?:=(?:"([^"]*)"|\'([^\']*)\'|([^\s"\']*)))?(?=\s|$)')
_BLANK = re.compile(r"\s*")


def _arguments(text: str) -> dict[str, str]:
    """``name=value`` pairs, values possibly quoted (``moves="32-28 19-23"``), read in one
    pass by a regular expression (a megabyte of moves costs a megabyte's work)."""
    out: dict[str, str] = {}
    at, end = 0, len(text)
    while (at := _BLANK.match(text, at).end()) < end:  # type: ignore[union-attr]
        found = _ARGUMENT.match(text, at)
        if found is None:
            raise HubError(f"{text[at : at + 40]!r}: not name=value (or an unclosed quote)")
        name, quoted, single, plain = found.groups()
        out[name] = next((v for v in (quoted, single) if v is not None), plain or "")
        at = found.end()
    return out


# ----------------------------------------------------------------------------- the engine


#: What each name of a ``level`` command takes: a whole number from a least value, or a
#: finite number of seconds from a least value (a value out of range is an ``error``).
_LEVELS: dict[str, tuple[bool, float, float]] = {
    "depth": (True, 1, MAX_DEPTH),
    "nodes": (True, 1, 10**15),
    "move-time": (False, 0.001, 10**9),
    "time": (False, 0, 10**9),
    "inc": (False, 0, 10**9),
    "moves": (True, 0, 10**6),
}


def _level(args: dict[str, str]) -> dict[str, float]:
    """A ``level`` command's values, each checked against :data:`_LEVELS` (a number that
    never ends a search, as ``nodes=0`` or ``move-time=nan``, is refused, not run)."""
    level: dict[str, float] = {}
    for name, text in args.items():
        if text == "":
            continue
        whole, least, most = _LEVELS.get(name, (False, -math.inf, math.inf))
        try:
            value = float(text)
        except ValueError:
            raise HubError(f"level {name}={text}: not a number") from None
        if not math.isfinite(value) or not least <= value <= most:
            raise HubError(f"level {name}={text}: not from {least:g} to {most:g}")
        if whole and value != int(value):
            raise HubError(f"level {name}={text}: not a whole number")
        level[name] = value
    return level


@dataclass(slots=True)
class HubEngine:
    """pdn's search behind the Hub protocol: feed it lines with :meth:`handle` (or run
    :meth:`serve` on streams); it writes its answers to ``out``. ``depth``, ``movetime`` and
    ``nodes`` are its level until a ``level`` command sets another; ``version`` is said in its
    ``id``.

    A search (``go``) runs in a thread of its own while the engine goes on reading, so that
    ``stop`` can end it: the search then answers at once (within
    :data:`~pdn_engine.search.CHECK_EVERY` nodes) with the best move of its last completed
    iteration; ``quit`` ends it without an answer, ``ping`` is answered meanwhile.
    :meth:`wait` waits for the search running, if any.

    >>> import io
    >>> out = io.StringIO()
    >>> engine = HubEngine(out, depth=2)
    >>> for line in ("hub", "init", "pos pos=" + "W" + "b" * 20 + "e" * 10 + "w" * 20, "go think"):
    ...     _ = engine.handle(line)
    >>> engine.wait()
    >>> out.getvalue().splitlines()[-1].startswith("done move=")
    True
    """

    out: TextIO
    depth: int | None = None
    version: str = ""
    movetime: float | None = None
    nodes: int | None = None
    variant: Variant = INTERNATIONAL
    position: Position | None = None
    history: History = field(default_factory=History)
    level: dict[str, float] = field(default_factory=dict)
    _search: Search | None = None
    _thread: threading.Thread | None = None
    _stop: threading.Event = field(default_factory=threading.Event)
    _quit: bool = False
    _answered: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def say(self, line: str) -> None:
        """Write one line of the protocol (whole, whichever thread says it)."""
        with self._lock:
            self.out.write(line + "\n")
            self.out.flush()

    def serve(self, lines: Iterable[str]) -> None:
        """Answer every line until ``quit`` or the end of the input (where a search still
        running is waited for, so that a piped ``go`` is answered)."""
        for line in lines:
            if not self.handle(line):
                return
        self.wait()

    def wait(self) -> None:
        """Wait for the search running, if any, to answer."""
        thread = self._thread
        if thread is not None:
            thread.join()
            self._thread = None

    def searching(self) -> bool:
        """Whether a search is running and has not been told to stop nor answered."""
        thread = self._thread
        return (
            thread is not None
            and thread.is_alive()
            and not self._stop.is_set()
            and not self._answered
        )

    def handle(self, line: str) -> bool:
        """Answer one line; ``False`` after ``quit``. A line it cannot read is answered with
        an ``error`` line, and the engine goes on."""
        command, _, rest = line.strip().partition(" ")
        try:
            return self._handle(command, rest)
        except (HubError, ValueError, ArithmeticError) as exc:
            text = str(exc).replace('"', "'")
            self.say(f'error message="{text}"')
            return True

    def _handle(self, command: str, rest: str) -> bool:
        if command == "stop":
            self._stop.set()
            return True
        if command == "quit":
            self._quit = True
            self._stop.set()
            self.wait()
            return False
        if command == "ping":
            self.say("pong")
            return True
        if command in ("ponder-hit", ""):
            return True
        if self.searching():
            # The search reads the engine's state as it was; a GUI stops it first.
            raise HubError(f"{command!r} while searching: send stop first")
        self.wait()
        if command == "hub":
            version = f" version={self.version}" if self.version else ""
            self.say(f'id name=pdn{version} author="the pdn authors"')
            values = " ".join(HUB_VARIANTS)
            self.say(f'param name=variant value=normal type=enum values="{values}"')
            self.say("wait")
        elif command == "init":
            self._search = search_for(self.variant)
            self.say("ready")
        elif command == "new-game":
            self._search = search_for(self.variant)
        elif command == "set-param":
            args = _arguments(rest)
            if args.get("name") == "variant":
                value = args.get("value", "")
                if value not in HUB_VARIANTS:
                    raise HubError(f"variant {value!r} is not one of {' '.join(HUB_VARIANTS)}")
                self.variant = HUB_VARIANTS[value]
                self._search = search_for(self.variant)
        elif command == "pos":
            self._set_position(_arguments(rest))
        elif command == "level":
            self.level = _level(_arguments(rest))
        elif command == "go":
            self._go()
        else:
            raise HubError(f"unknown command {command!r}")
        return True

    def _set_position(self, args: dict[str, str]) -> None:
        text = args.get("pos")
        position = (
            Position.start(self.variant)
            if text in (None, "", "start")
            else parse_hub_position(text or "", self.variant)
        )
        history = History()
        for written in args.get("moves", "").split():
            move = parse_hub_move(written, position)
            history.push(position, move)
            position = position.play(move)
        self.position, self.history = position, history

    def _limits(self) -> tuple[int | None, float | None, int | None]:
        level = self.level
        if "depth" in level:
            return int(level["depth"]), None, None
        if "move-time" in level:
            return None, level["move-time"], None
        if "nodes" in level:
            return None, None, int(level["nodes"])
        if "time" in level:
            # Of the time left (the increment is added first, as Hub engines do): a share
            # for the moves still to play, or for about 30 more.
            left = level["time"] + level.get("inc", 0.0)
            moves = level.get("moves") or 30
            return None, max(0.05, left / moves * 0.9), None
        if self.depth is None and self.movetime is None and self.nodes is None:
            return 6, None, None
        return self.depth, self.movetime, self.nodes

    def _go(self) -> None:
        if self.position is None:
            raise HubError("go before pos")
        if self._search is None:
            self._search = search_for(self.variant)
        self._stop = threading.Event()
        self._answered = False
        self._thread = threading.Thread(
            target=self._think,
            args=(
                self._search,
                self.position,
                list(self.history.since),
                self.history.quiet,
                self._stop,
            ),
            name="pdn-hub-search",
            daemon=True,
        )
        self._thread.start()

    def _think(
        self,
        search: Search,
        position: Position,
        history: list[Position],
        quiet: int,
        stop: threading.Event,
    ) -> None:
        depth, movetime, nodes = self._limits()
        started = time.monotonic()

        def info(found: Found) -> None:
            spent = max(time.monotonic() - started, 1e-6)
            line = " ".join(hub_move(m, position.variant) for m in found.line)
            self.say(
                f"info depth={found.depth} score={_score(found)} nodes={found.nodes} "
                f'time={spent:.2f} nps={found.nodes / spent:.0f} pv="{line}"'
            )

        found = search.run(
            position,
            depth=depth,
            movetime=movetime,
            nodes=nodes,
            history=history,
            quiet=quiet,
            info=info,
            stop=stop.is_set,
        )
        if self._quit:
            return  # quit asked during the search: no answer
        # Answered before it says so: a command read after "done" waits for this thread,
        # no longer refused as sent during the search.
        self._answered = True
        if found.best is None:
            self.say("done")  # no legal move: the game is over
            return
        ponder = (
            f" ponder={hub_move(found.line[1], position.variant)}" if len(found.line) > 1 else ""
        )
        self.say(f"done move={hub_move(found.best, position.variant)}{ponder}")


# ----------------------------------------------------------------------------- a client


class HubTimeout(HubError):
    """An engine that gave no answer within the time it was allowed (it has been stopped)."""


#: Seconds an engine is given to answer the handshake (``hub``, ``init``): loading tables
#: may take a while, never forever.
HANDSHAKE_SECONDS = 60.0


@dataclass(slots=True)
class HubClient:
    """A Hub engine run as a program (``command``: its arguments, or one string split as a
    shell would), driven line by line. A context manager: the program ends on leaving.

    No read waits forever: the handshake is given ``handshake`` seconds and a search the
    ``timeout`` given to :meth:`go`; an engine past it is killed and :class:`HubTimeout`
    raised. An engine that stops, says ``error`` or sends a line that cannot be read raises
    :class:`HubError` naming the engine and the line.
    """

    command: Sequence[str] | str
    name: str = ""
    variants: tuple[str, ...] = ()
    handshake: float = HANDSHAKE_SECONDS
    #: The engine's settings as its ``param`` lines give them (name: value).
    params: dict[str, str] = field(default_factory=dict)
    _process: subprocess.Popen[str] | None = None
    _lines: queue.Queue[str | None] = field(default_factory=queue.Queue)

    def __enter__(self) -> HubClient:
        args = shlex.split(self.command) if isinstance(self.command, str) else list(self.command)
        if not args:
            raise HubError("no engine command given")
        try:
            self._process = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except (OSError, ValueError) as exc:
            text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise HubError(f"cannot start {args[0]!r}: {text}") from None
        # A thread reads the engine's lines, so that a read can give up at a deadline.
        threading.Thread(
            target=_read_lines,
            args=(self._process.stdout, self._lines),
            name="pdn-hub-client",
            daemon=True,
        ).start()
        try:
            self._send("hub")
            for command, rest in self._until("wait", self.handshake):
                args_seen = self._parsed(command, rest)
                if command == "id":
                    self.name = args_seen.get("name", "") + (
                        f" {args_seen['version']}" if "version" in args_seen else ""
                    )
                elif command == "param" and args_seen.get("name") == "variant":
                    self.variants = tuple(args_seen.get("values", "").split())
                if command == "param" and "name" in args_seen:
                    self.params[args_seen["name"]] = args_seen.get("value", "")
            self._send("init")
            for _ in self._until("ready", self.handshake):
                pass
        except HubError:
            self.kill()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        process = self._process
        if process is None:
            return
        try:
            self._send("quit")
            process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired, HubError):
            self.kill()

    def kill(self) -> None:
        """End the engine's program at once (one that broke the protocol or ran out of time)."""
        process = self._process
        if process is not None and process.poll() is None:
            process.kill()
        if process is not None:
            process.wait()

    def _who(self) -> str:
        if self.name:
            return repr(self.name)
        command = self.command
        return repr(command if isinstance(command, str) else shlex.join(command))

    def _send(self, line: str) -> None:
        process = self._process
        if process is None or process.stdin is None:
            raise HubError("the engine is not running")
        try:
            process.stdin.write(line + "\n")
            process.stdin.flush()
        except (OSError, ValueError):
            raise HubError(f"the engine {self._who()} stopped{self._exit_code()}") from None

    def _exit_code(self) -> str:
        process = self._process
        code = process.poll() if process is not None else None
        return f" (exit status {code})" if code is not None else ""

    def _parsed(self, command: str, rest: str) -> dict[str, str]:
        try:
            return _arguments(rest)
        except HubError:
            line = f"{command} {rest}".strip()
            raise HubError(f"the engine {self._who()} sent {line!r}, not a Hub line") from None

    def _until(self, last: str, timeout: float | None) -> Iterable[tuple[str, str]]:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                if deadline is None:
                    line = self._lines.get()
                else:
                    line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.kill()
                raise HubTimeout(
                    f"the engine {self._who()} gave no {last!r} in {timeout:g} s"
                ) from None
            if line is None:
                self.kill()
                raise HubError(f"the engine {self._who()} stopped{self._exit_code()}")
            command, _, rest = line.strip().partition(" ")
            if command == last:
                yield command, rest
                return
            if command == "error":
                raise HubError(f"the engine {self._who()} said {line.strip()!r}")
            yield command, rest

    def set_variant(self, variant: Variant) -> None:
        """Ask for ``variant``'s rules (by Scan's name where it has one)."""
        name = next((key for key, value in HUB_VARIANTS.items() if value is variant), "")
        if name not in self.variants:
            raise HubError(f"the engine {self.name!r} does not play {variant.name}")
        self._send(f"set-param name=variant value={name}")
        self.params["variant"] = name  # the setting now in force

    def new_game(self) -> None:
        """Tell the engine a new game begins."""
        self._send("new-game")

    def go(
        self,
        start: Position,
        moves: Sequence[Move],
        *,
        depth: int | None = None,
        movetime: float | None = None,
        level: str | None = None,
        timeout: float | None = None,
    ) -> str:
        """The engine's move (as the Hub writes it; empty when it has none) in the position
        after ``moves`` from ``start``. ``level`` is a ``level`` command's arguments (a
        clock's ``time=... inc=...``), else ``depth`` or ``movetime`` make it; past
        ``timeout`` seconds the engine is killed and :class:`HubTimeout` raised."""
        return self.think(
            start, moves, depth=depth, movetime=movetime, level=level, timeout=timeout
        )[0]

    def think(
        self,
        start: Position,
        moves: Sequence[Move],
        *,
        depth: int | None = None,
        movetime: float | None = None,
        level: str | None = None,
        timeout: float | None = None,
    ) -> tuple[str, list[dict[str, str]]]:
        """:meth:`go`'s move, with the ``info`` lines the engine sent while searching, each
        as its ``name=value`` pairs (``depth``, ``score``, ``pv``...), in the order sent."""
        played = " ".join(hub_move(m, start.variant) for m in moves)
        self._send(f'pos pos={hub_position(start)} moves="{played}"')
        if level is not None:
            self._send(f"level {level}")
        elif depth is not None:
            self._send(f"level depth={depth}")
        elif movetime is not None:
            self._send(f"level move-time={movetime}")
        self._send("go think")
        infos: list[dict[str, str]] = []
        for command, rest in self._until("done", timeout):
            if command == "done":
                return self._parsed(command, rest).get("move", ""), infos
            if command == "info":
                infos.append(self._parsed(command, rest))
        return "", infos


def _read_lines(stream: TextIO | None, lines: queue.Queue[str | None]) -> None:
    """Put each line of ``stream`` in ``lines``, then ``None`` at its end."""
    try:
        if stream is not None:
            for line in stream:
                lines.put(line)
    except (OSError, ValueError):
        pass  # the engine's pipe closed under the reader: its end
    finally:
        lines.put(None)
