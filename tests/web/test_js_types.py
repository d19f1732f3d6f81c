"""The web client type-checks: every module of yamen/web opts in with `// @ts-check`, and the
TypeScript compiler pinned in package.json (`tsc --noEmit -p tsconfig.json`) finds nothing in
it. Nothing is built: tsc only reads the JSDoc types and the .d.ts files beside the modules.

The compiler comes from the npm registry: `npm ci` at the repository root installs the pinned
copy (CI does). Without Node or without that copy the check is skipped, saying how to get it."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.paths import ROOT, WEB

TSC = ROOT / "node_modules" / "typescript" / "bin" / "tsc"
INSTALL = "`npm ci` at the repository root (Node.js 18 or later; package.json pins TypeScript)"


def _pinned() -> str:
    return json.loads((ROOT / "package.json").read_text())["devDependencies"]["typescript"]


def test_every_module_opts_in():
    """A module without `// @ts-check` first would be skipped by editors checking one file;
    tsconfig's checkJs checks it anyway, but the header says so to whoever opens it."""
    modules = sorted(WEB.rglob("*.js"))
    assert modules
    missing = [
        str(p.relative_to(ROOT)) for p in modules if not p.read_text().startswith("// @ts-check\n")
    ]
    assert not missing, f"no // @ts-check on the first line: {missing}"


MAX_LINES = 500  # as for the Python modules (tests/core/test_architecture.py): split it by job


def test_every_module_is_small():
    long = {
        str(path.relative_to(ROOT)): lines
        for path in [*WEB.rglob("*.js"), *WEB.rglob("*.d.ts")]
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) >= MAX_LINES
    }
    assert long == {}


def test_the_checker_is_pinned_and_strict():
    """An exact version (a range would let a new release change what passes), locked, and the
    strict checks on for every module of yamen/web."""
    pinned = _pinned()
    assert pinned[0].isdigit(), f"package.json pins typescript to a range: {pinned!r}"
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/typescript"]["version"] == pinned
    config = json.loads((ROOT / "tsconfig.json").read_text())
    options = config["compilerOptions"]
    assert options["strict"] and options["checkJs"] and options["allowJs"] and options["noEmit"]
    assert "yamen/web/**/*.js" in config["include"]


def test_tsc_finds_nothing():
    node = shutil.which("node")
    if node is None:
        pytest.skip(f"no Node.js, so no TypeScript compiler: install Node.js, then {INSTALL}")
    if not TSC.exists():
        pytest.skip(f"the pinned TypeScript compiler is not installed: {INSTALL}")
    installed = json.loads((TSC.parent.parent / "package.json").read_text())["version"]
    assert installed == _pinned(), f"TypeScript {installed} here, {_pinned()} pinned: {INSTALL}"
    done = subprocess.run(
        [node, str(TSC), "--noEmit", "-p", "tsconfig.json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
