"""Importing pdn.engine and pdn.grammars from a checkout, where they stand beside pdn/.

The repository keeps ``engine/`` and ``grammars/`` at its top; the wheel installs them inside the
package as ``pdn.engine`` and ``pdn.grammars`` (pyproject's ``package-dir``). Python run from a
checkout's root imports the checkout's ``pdn/`` first, which has neither: :class:`CheckoutFinder`
finds them in the checkout instead (their submodules then follow from their own ``__path__``).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType

#: The subpackages that live beside ``pdn/`` in a checkout, by module name.
BESIDE = {"pdn.engine": "engine", "pdn.grammars": "grammars"}


class CheckoutFinder(MetaPathFinder):
    """Finds ``pdn.engine`` and ``pdn.grammars`` in the folders of a checkout's ``root``."""

    def __init__(self, root: str) -> None:
        self.root = root

    @classmethod
    def beside(cls, init_file: str) -> CheckoutFinder | None:
        """The finder for the checkout that holds the ``pdn/__init__.py`` at ``init_file``;
        ``None`` for an installed pdn (its ``engine/`` is inside the package)."""
        package = os.path.dirname(os.path.abspath(init_file))
        root = os.path.dirname(package)
        if os.path.isdir(os.path.join(package, "engine")):
            return None
        if not os.path.isfile(os.path.join(root, "engine", "__init__.py")):
            return None
        return cls(root)

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        """The spec of ``pdn.engine`` or ``pdn.grammars`` in the checkout, else ``None``."""
        folder = BESIDE.get(fullname)
        if folder is None:
            return None
        where = os.path.join(self.root, folder)
        init = os.path.join(where, "__init__.py")
        if not os.path.isfile(init):
            return None
        return importlib.util.spec_from_file_location(
            fullname, init, submodule_search_locations=[where]
        )
