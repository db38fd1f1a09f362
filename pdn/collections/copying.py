"""Copies of games written as read: what ``pdn convert`` (a faithful copy), ``select``,
``split`` and ``dedupe`` write keeps each input's BOM and each line's own line end.

Reading makes the text uniform (no BOM, LF line ends, damaged bytes as U+FFFD); a copy
written from that text alone would change every line end of a CRLF archive. :class:`AsRead`
writes the text of the games into one or more outputs through
:class:`~pdn.text.line_ends.LineEnds`, following the file each game comes from
(:class:`~pdn.text.line_ends.FileLines`), so that:

* an output starts with a BOM when the file of its first game has one (UTF-8 or UTF-16);
* each line of a game keeps the line end it has in its file (CRLF, LF or CR, mixed too), and
  the literal ``\\r`` text before it; the blank line put between two games takes the end of
  the line before it;
* a UTF-16 file's games are written in UTF-8 (with its BOM): an output gathers games of many
  files, and UTF-8 is the encoding PDN readers read; ``on_recoded`` is told so.

Damaged bytes stay U+FFFD in a copy (only a rewrite in place can put them back,
:mod:`pdn.collections.inplace`); :func:`damage_messages` says where each is, for the command to
tell.

>>> import io, pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "g.pdn"
>>> text = '\\ufeff[Event "a"]\\r\\n1. 11-15 *\\r\\n\\r\\n[Event "b"]\\r\\n1. 9-13 *\\r\\n'
>>> _ = path.write_bytes(text.encode())
>>> from pdn.reading.reader import split_games
>>> copy, out = AsRead(), []
>>> copy.follow(str(path))
>>> for raw in split_games(str(path)):
...     out += [copy.separator if out else copy.bom, copy.game(raw.text, raw.line)]
>>> "".join(out) == text
True
"""

from __future__ import annotations

import io
import itertools
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from pdn.text.line_ends import FileLines, LineEnds, Plain, bom_of

if TYPE_CHECKING:
    from pdn.reading.cutting import RawGame

__all__ = ["AsRead", "damage_messages"]


class AsRead:
    """Games written as read, each line with its file's line end (see the module
    docstring): :meth:`game` gives a game's text so, to write into any output (a game may go
    to several); :attr:`bom` starts an output, :attr:`separator` goes between two games.
    ``encoding`` is the codec the files are read in (``None``: detected, as the reader
    does); ``on_recoded(file, encoding)`` is told of each UTF-16 file followed."""

    def __init__(
        self,
        encoding: str | None = None,
        on_recoded: Callable[[str, str], None] | None = None,
    ) -> None:
        self._encoding = encoding
        self._on_recoded = on_recoded
        self._out = io.StringIO()  # what the line ends gave, taken as it comes
        self._lines = FileLines(None, None, "\n")
        self._ends = LineEnds(Plain(self._out), self._lines)
        self._name: str | None = None
        self._bom = ""

    def follow(self, name: str | None) -> None:
        """The games written next come from file ``name`` (``None`` or ``-``: a source that
        cannot be read again, standard input; or JSON records, whose games are written)."""
        from pdn.text.schema import is_json

        from .inplace import file_form

        if name == self._name:
            return
        self._name = name
        if name is None or name == "-" or not os.path.isfile(name) or is_json(name):
            self._bom = ""
            self._lines = FileLines(None, None, "\n")
        else:
            form = file_form(name, self._encoding)  # its usual line end: for lines it lacks
            if form.encoding.startswith("utf-16") and self._on_recoded is not None:
                self._on_recoded(name, form.encoding)
            self._bom = bom_of(name)
            self._lines = FileLines(name, self._encoding, form.newline)
        self._ends.follow(self._lines)

    @property
    def bom(self) -> str:
        """What an output starts with: the BOM of the file followed (``""`` when it has
        none)."""
        return self._bom

    @property
    def separator(self) -> str:
        """The blank line between two games: the line end of the last line written."""
        return self._lines.last_end

    def game(self, text: str, line: int | None) -> str:
        """A game's text (as read, cut or marked) with its file's line ends; ``line`` is
        where it starts in its file (the reader's :attr:`~pdn.reading.cutting.RawGame.line`;
        ``None`` for a game written anew). It ends with a line end (its file's last line
        without one gets the file's): nothing is held back for the next game."""
        text = text if text.endswith("\n") else text + "\n"
        if line is not None:
            self._ends.start_at(line, line + text.count("\n") - 1)
        self._ends.write(text)
        self._ends.flush()
        return self._taken()

    def text(self, text: str) -> str:
        """Of ``text`` (any text read from the file followed, or written anew), what can be
        written now with its line ends; the rest comes with the next text, or :meth:`rest`."""
        self._ends.write(text)
        return self._taken()

    def rest(self) -> str:
        """What :meth:`text` held back, once no text follows."""
        self._ends.finish()
        return self._taken()

    def close(self) -> None:
        """Close the file followed (also when a command ends early)."""
        self._lines.close()

    def _taken(self) -> str:
        taken = self._out.getvalue()
        self._out.seek(0)
        self._out.truncate()
        return taken


def damage_messages(raw: RawGame) -> list[tuple[str, int, int]]:
    """``(message, line, column)`` for each damaged byte sequence of a game as read (written
    as U+FFFD), as the reader says it for the game (code ``encoding``)."""
    from pdn.reading.parse_problems import encoding_messages

    if not raw.damage:
        return []
    # The reader's messages, one per record in order (then the encoding guess, left out); a
    # U+FFFD the file holds as a character (no record of bytes) is copied as it is.
    said = encoding_messages(raw, raw.line, raw.column - 1)
    messages = itertools.islice(said, len(raw.damage))
    pairs = zip(raw.damage, messages, strict=False)
    return [message for (_, record), message in pairs if record is not None]
