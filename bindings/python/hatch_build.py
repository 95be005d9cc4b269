"""Makes the wheel a platform wheel when it carries the library.

scripts/build-wheel.sh puts libcourier.so.1 in src/courier/_lib/ before building; the wheel is then
tagged for this platform (auditwheel retags it manylinux after bundling libcurl). Without the
library (an sdist, or `pip install ./bindings/python`), the wheel stays pure and finds the library
installed on the system.
"""
from __future__ import annotations

import sysconfig
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class BundledLibraryHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        if not (Path(self.root) / "src" / "courier" / "_lib" / "libcourier.so.1").is_file():
            return
        build_data["pure_python"] = False
        platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        build_data["tag"] = f"py3-none-{platform}"
