"""The accelerated build: ``PDN_COMPILE=1 pip install .`` compiles the reader and the replay
with mypyc.

Everything else about the package is in ``pyproject.toml``; without ``PDN_COMPILE`` this file
adds nothing and the wheel is pure Python. Compiled, the modules that
``build_support/pdn_build.py`` names become C extensions beside their sources (an extension
is imported before a ``.py`` of the same name). The results are the same, which CI checks by
running the whole suite on both builds (``.ci/run``).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build import build
from setuptools.command.build_ext import build_ext

sys.path.insert(0, str(Path(__file__).resolve().parent / "build_support"))
from pdn_build import COMPILED, MYPYC, compiling, source_of

ROOT = Path(__file__).resolve().parent


def _extensions(scratch: Path) -> list[object]:
    try:
        from mypyc.build import mypycify
    except ImportError:  # pip installs it (pdn_build); a build without isolation may not have it
        raise SystemExit(f"PDN_COMPILE=1 needs mypyc: pip install {MYPYC!r}") from None

    options = [
        "--config-file",
        str(ROOT / "pyproject.toml"),
        "--python-version",
        f"{sys.version_info.major}.{sys.version_info.minor}",
    ]
    return list(
        mypycify(
            # Each package sits in its own source root, under the name it installs as (mypy
            # finds the others through pyproject.toml's mypy_path).
            [*options, *(str(ROOT / source_of(name)) for name in COMPILED)],
            # The runtime's shared library inside the engine's package: nothing generic lands
            # at the top of site-packages, and the engine, which pdn builds on, carries what
            # its own compiled modules need.
            group_name="pdn_engine.accelerated",
            target_dir=str(scratch / "c"),
        )
    )


class CompiledBuildExt(build_ext):
    """build_ext with the mypyc extensions, made only when a build runs: asking for metadata or
    for requirements (which finalize this command too) compiles nothing."""

    def finalize_options(self) -> None:
        building = set(self.distribution.commands) & _BUILDS
        if compiling() and building and not self.distribution.ext_modules:
            self.distribution.ext_modules = _extensions(ROOT / "build" / "mypyc")
        super().finalize_options()

    def run(self) -> None:
        if compiling() and not self.extensions:
            raise SystemExit("PDN_COMPILE is set but nothing was compiled (is mypy installed?)")
        super().run()


#: The commands that build (a wheel, an editable install, or the extensions themselves).
_BUILDS = {"bdist_wheel", "build", "build_ext", "editable_wheel", "install"}


class CleanBuild(build):
    """build from an empty ``build/lib``: an extension left by an earlier compiled build would
    otherwise go into the next wheel, compiled or not, and be imported before its source."""

    def run(self) -> None:
        shutil.rmtree(self.build_lib, ignore_errors=True)
        super().run()


class PdnDistribution(Distribution):
    """A compiled build is a platform wheel; a plain one stays pure."""

    def has_ext_modules(self) -> bool:
        return compiling() or super().has_ext_modules()


setup(distclass=PdnDistribution, cmdclass={"build": CleanBuild, "build_ext": CompiledBuildExt})
