"""What the Criminal Poker and Bao Qing-tian table tests read off a page: the words a person
sees (text and aria-labels), raw notation in them, and a screenshot saved as a test artifact."""

from __future__ import annotations

import re
from pathlib import Path

from tests.web.helpers import artifacts

# Everything a person reads or hears on a table: visible text and the aria-labels.
SHOWN = """(sel) => { const root = document.querySelector(sel); if (!root) return [];
  const texts = [...root.querySelectorAll('*')].filter(e => e.children.length === 0)
    .map(e => e.textContent.trim());
  const labels = [...root.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label'));
  return texts.concat(labels).filter(Boolean); }"""

BQ_CODES = re.compile(r"\b(EMP|JUD|WANG|MA|THF|ROB|MUR|PKP|COM|ADD|SUB|MUL|DIV|SEV|EXE)\b")
CP_CODES = re.compile(r"\b[PSW][1-9]\b|^weapon$")  # an evidence id, as cards.json has them


def shown(page, selector: str) -> list[str]:
    return page.evaluate(SHOWN, selector)


def screenshot(page, name: str) -> Path:
    path = artifacts() / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, animations="disabled")
    return path


def result_is_words(page) -> str:
    """The result section's text, checked for raw data: no JSON braces, no null."""
    text = page.locator("#result").inner_text()
    assert "{" not in text and "}" not in text, f"JSON in the result: {text}"
    assert not re.search(r"\bnull\b|\bundefined\b|NaN", text), f"raw data in the result: {text}"
    assert not page.locator("#result details pre").count()
    return text
