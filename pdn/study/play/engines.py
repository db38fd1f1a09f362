"""The engines a user names once: the ``[engines]`` section of ``config.toml`` in the user's
config folder (``$XDG_CONFIG_HOME/pdn``, else ``~/.config/pdn``), each name a command::

    [engines]
    scan = "/opt/scan/scan hub"
    quick = "pdn engine --hub --depth 4"
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .hub import HubError
from .match import engine_command

__all__ = ["config_path", "configured_engines", "engine_args"]


def config_path() -> Path:
    """Where the user's ``config.toml`` is looked for."""
    home = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(home) / "pdn" / "config.toml"


def configured_engines(path: Path | None = None) -> dict[str, str]:
    """The ``[engines]`` of the config file (none when it does not exist); ``HubError``
    when it cannot be read."""
    path = config_path() if path is None else path
    if not path.is_file():
        return {}
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise HubError(f"{path}: {exc}") from None
    engines = data.get("engines", {})
    if not isinstance(engines, dict):
        raise HubError(f"{path}: [engines] is not a table")
    found: dict[str, str] = {}
    for name, command in engines.items():
        if not isinstance(command, str) or not command.strip():
            raise HubError(f"{path}: engines.{name} is not a command (a string)")
        found[name] = command
    return found


def engine_args(text: str) -> list[str]:
    """The program to run for ``--engine TEXT``: a name of the config's ``[engines]``, else a
    command (``pdn engine ...`` runs with this interpreter). ``HubError`` when it is empty or
    cannot be split."""
    command = configured_engines().get(text, text)
    try:
        args = engine_command(command)
    except ValueError as exc:
        raise HubError(f"--engine {text!r}: {exc}") from None
    if not args:
        raise HubError("--engine: no command given")
    return args
