"""The table as a person sees it, for docs/web.md: a whole Baohuang game in each of the four
languages, screenshotted at 390 px (a phone) and 1280 px (a desktop) at three moments: the
person's first decision, a long trick (12 or more entries on the table at their turn to play)
and the results. One deal on a fixed seed, so that the four languages show the same deal (the
bots play it their own way each time): the person passes, while others play on, until the long
trick is taken, then plays the hint's set whenever there is one.

    python tools/screenshots.py [--out docs/screenshots]

Needs the browser tests' extras (Playwright and Debian's Chromium: .ci/run installs both).
Not a test (pytest collects tests/ only): the tests check the same screens (tests/web/)."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the tests' helpers: the server in a thread, a person's page

from playwright.sync_api import sync_playwright  # noqa: E402

import yamen.server.operations as operations  # noqa: E402
from tests.server.helpers import ServerThread  # noqa: E402
from tests.web.baohuang_table import LOCALES, LONG_TRICK  # noqa: E402
from tests.web.helpers import CHROMIUM, DESKTOP, PHONE, act_once, person, start_game  # noqa: E402

SIZES = {390: PHONE, 1280: DESKTOP}
NAMES = {"en": "Ann", "zh-Hant": "阿美", "zh-Hans": "小红", "ja": "葵"}
SEED = 7
MOMENTS = {  # each moment, and whether the page shows it now
    "first": lambda page: bool(page.locator(".your-move").count()),
    "long-trick": lambda page: (
        bool(page.locator("#play").count()) and page.evaluate(LONG_TRICK) >= 12
    ),
    "results": lambda page: bool(page.locator("#result").count()),
}


def shoot(page, out: Path, moment: str, lang: str) -> list[Path]:
    taken = []
    for width, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(150)  # laid out again
        path = out / f"journey-{moment}-{lang}-{width}.png"
        page.screenshot(path=str(path), animations="disabled")
        taken.append(path)
    page.set_viewport_size(SIZES[390])
    return taken


def one_game(browser, url: str, lang: str, out: Path) -> list[Path]:
    page = person(browser, url, NAMES[lang], SIZES[390], LOCALES[lang])
    page.emulate_media(reduced_motion="reduce")  # no card in mid-flight
    start_game(page, "baohuang", {"deals": 1}, lang=lang)
    taken: list[Path] = []
    due = list(MOMENTS)
    deadline = time.monotonic() + 300
    while due:
        if time.monotonic() > deadline:
            raise SystemExit(f"{lang}: never reached {due}")
        if MOMENTS[due[0]](page):
            taken += shoot(page, out, due.pop(0), lang)
            continue
        if due[0] == "long-trick" and page.locator("#result").count():
            raise SystemExit(f"{lang}: the deal ended with no long trick (try another --seed)")
        if "long-trick" not in due and page.locator("#bh-hint:enabled").count():
            page.click("#bh-hint")  # after the long trick: the hint's set, as people play
            page.click("#play")
        elif page.locator(".your-move").count():
            act_once(page)
        time.sleep(0.03)
    if page.errors:
        raise SystemExit(f"{lang}: the page failed: {page.errors}")
    return taken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--seed", type=int, default=SEED, help="the deal (one with a long trick)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    operations.new_seed = lambda: args.seed  # the same deal in every language
    folder = tempfile.mkdtemp()
    with ServerThread(f"sqlite:///{folder}/shots.db") as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for lang in LOCALES:
            for path in one_game(browser, server.url, lang, args.out):
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
        browser.close()


if __name__ == "__main__":
    main()
