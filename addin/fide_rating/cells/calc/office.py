"""Drive a headless LibreOffice over UNO: install the add-in, open, recalculate and store
workbooks. Used by the tests, the benchmarks and ``fide-rating`` commands that compare with
LibreOffice; nothing here is needed to use the add-in itself.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .build import MINIMUM_VERSION, PROGRAM_DIRS

__all__ = [
    "MINIMUM_VERSION",
    "Office",
    "OfficeError",
    "office_environment",
    "office_with_addin",
    "version",
]


class OfficeError(RuntimeError):
    """LibreOffice is missing, too old, or did not answer."""


def _import_uno() -> Any:
    """The ``uno`` module of the installed LibreOffice (Debian's python3-uno)."""
    try:
        import uno  # type: ignore[import-not-found]
    except ImportError:
        for extra in ("/usr/lib/python3/dist-packages", *map(str, PROGRAM_DIRS)):
            if Path(extra).exists() and extra not in sys.path:
                sys.path.append(extra)
        try:
            import uno
        except ImportError as error:
            raise OfficeError(
                "Python UNO not found: install python3-uno (the same version as LibreOffice)"
            ) from error
    return uno


def soffice_path() -> str:
    found = os.environ.get("FIDE_SOFFICE") or shutil.which("soffice")
    if not found:
        raise OfficeError("soffice not found: install libreoffice-calc-nogui 25.2 or newer")
    return found


def version() -> tuple[int, ...]:
    """The version of the installed soffice, for example (25, 2, 3, 2)."""
    done = subprocess.run(
        [soffice_path(), "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    for word in done.stdout.split():
        parts = word.split(".")
        if len(parts) >= 2 and all(p.isdigit() for p in parts):
            return tuple(int(p) for p in parts)
    raise OfficeError(f"cannot read the LibreOffice version from: {done.stdout.strip()!r}")


def office_environment() -> dict[str, str]:
    """The environment soffice runs in: this process's, without what would let LibreOffice's
    Python import ``fide_rating`` from elsewhere than the installed extension (a PYTHONPATH
    naming this checkout, a user site-packages), so that the extension is what is tested.

    Nor a virtual or conda environment on PATH: LibreOffice's embedded Python finds its
    prefix by looking for ``python3`` on PATH, and in an activated environment it takes that
    environment's standard library and site-packages, under which LibreOffice 25.2 fails to
    install an extension (``std::bad_alloc``)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "CONDA_PREFIX")
    }
    env["PYTHONNOUSERSITE"] = "1"
    if "PATH" in env:
        env["PATH"] = os.pathsep.join(
            entry
            for entry in env["PATH"].split(os.pathsep)
            if entry and not _python_environment(Path(entry).parent)
        )
    return env


def _python_environment(folder: Path) -> bool:
    """Whether a folder is a virtual environment (pyvenv.cfg) or a conda environment."""
    return (folder / "pyvenv.cfg").is_file() or (folder / "conda-meta").is_dir()


def _props(uno: Any, **values: object) -> tuple[Any, ...]:
    out = []
    for name, value in values.items():
        prop = uno.createUnoStruct("com.sun.star.beans.PropertyValue")
        prop.Name, prop.Value = name, value
        out.append(prop)
    return tuple(out)


class Office:
    """One headless soffice with its own throwaway profile, reached over a named pipe."""

    def __init__(self, profile: Path, *, timeout: float = 60.0) -> None:
        self.profile = profile
        self.timeout = timeout
        self.uno = _import_uno()
        self.process: subprocess.Popen[bytes] | None = None
        self.desktop: Any = None
        self.context: Any = None

    def start(self) -> Office:
        pipe = f"fide-{uuid.uuid4().hex[:12]}"
        self.process = subprocess.Popen(
            [
                soffice_path(),
                "--headless",
                "--invisible",
                "--norestore",
                "--nodefault",
                "--nolockcheck",
                "--nologo",
                f"-env:UserInstallation={self.profile.resolve().as_uri()}",
                f"--accept=pipe,name={pipe};urp;",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=office_environment(),
            start_new_session=True,  # so that stop() ends every process it started
        )
        local = self.uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext(
            "com.sun.star.bridge.UnoUrlResolver", local
        )
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                self.context = resolver.resolve(
                    f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext"
                )
                break
            except Exception as error:  # NoConnectException until soffice listens
                if self.process.poll() is not None:
                    raise OfficeError(f"soffice exited with {self.process.returncode}") from error
                if time.monotonic() > deadline:
                    self.stop()
                    raise OfficeError("soffice did not answer in time") from error
                time.sleep(0.1)
        self.desktop = self.context.ServiceManager.createInstanceWithContext(
            "com.sun.star.frame.Desktop", self.context
        )
        return self

    def install(self, oxt: Path) -> None:
        """Install an extension into this profile, approving every question (its licence too);
        an extension LibreOffice refuses (a dependency not met) raises OfficeError."""
        uno = self.uno
        import unohelper  # type: ignore[import-not-found]
        from com.sun.star.task import XInteractionHandler  # type: ignore[import-not-found]
        from com.sun.star.ucb import XCommandEnvironment  # type: ignore[import-not-found]

        approve = uno.getTypeByName("com.sun.star.task.XInteractionApprove")

        class Approve(unohelper.Base, XInteractionHandler):  # type: ignore[misc]
            def handle(self, request: Any) -> None:
                for choice in request.getContinuations():
                    if choice.queryInterface(approve):
                        choice.select()
                        return

        class Environment(unohelper.Base, XCommandEnvironment):  # type: ignore[misc]
            def getInteractionHandler(self) -> Any:  # noqa: N802 - the UNO name
                return Approve()

            def getProgressHandler(self) -> None:  # noqa: N802 - the UNO name
                return None

        manager = self._extension_manager()
        added = manager.addExtension(
            oxt.resolve().as_uri(), (), "user", manager.createAbortChannel(), Environment()
        )
        if added is None:  # a dependency not met (the minimum version), or a damaged file
            raise OfficeError(f"LibreOffice {'.'.join(map(str, version()))} refused {oxt.name}")

    def _extension_manager(self) -> Any:
        return self.context.getValueByName("/singletons/com.sun.star.deployment.ExtensionManager")

    def extensions(self) -> list[dict[str, str]]:
        """The extensions installed in this profile, as the Extension Manager shows them."""
        manager = self._extension_manager()
        found = manager.getDeployedExtensions("user", manager.createAbortChannel(), None)
        return [
            {
                "identifier": p.getIdentifier().Value,
                "name": p.getDisplayName(),
                "version": p.getVersion(),
                "description": p.getDescription(),
                "publisher": p.getPublisherInfo().First,
            }
            for p in found
        ]

    def open(self, path: Path) -> Any:
        doc = self.desktop.loadComponentFromURL(
            path.resolve().as_uri(), "_blank", 0, _props(self.uno, Hidden=True)
        )
        if doc is None:
            raise OfficeError(f"LibreOffice could not open {path}")
        return doc

    def store(self, doc: Any, path: Path, filter_name: str) -> None:
        doc.storeToURL(
            path.resolve().as_uri(), _props(self.uno, FilterName=filter_name, Overwrite=True)
        )

    def stop(self) -> None:
        if self.desktop is not None:
            with contextlib.suppress(Exception):  # the bridge drops as soffice ends
                self.desktop.terminate()
            self.desktop = None
        process, self.process = self.process, None
        if process is None:
            return
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=15)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)

    def __enter__(self) -> Office:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def office_with_addin(profile: Path, oxt: Path) -> Iterator[Office]:
    """A running soffice whose fresh profile has the add-in installed.

    The extension is installed in a first run; soffice is then restarted on the same profile,
    since LibreOffice 25.2 restarts itself after an install.
    """
    with Office(profile) as first:
        first.install(oxt)
    with Office(profile) as office:
        yield office
