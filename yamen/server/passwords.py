"""Passwords, hashed with Argon2id (argon2-cffi, its recommended parameters), and account names.

Hashing takes tens of milliseconds and 64 MiB on purpose: it runs in a thread, a few at a time
(HASHING), so that sign-in attempts slow neither the event loop nor the machine. An unknown
name is checked against a hash all the same (:func:`check` with ``None``): a wrong name and a
wrong password take as long, and are told apart by nothing.
"""

from __future__ import annotations

import asyncio
import threading
import unicodedata

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from yamen.server.identity import clean_name

PASSWORD_MIN = 8
PASSWORD_MAX = 256
# hashes computed at once (each takes 64 MiB for a moment); waited for in the worker thread,
# so it holds for every event loop of the process
HASHING = threading.BoundedSemaphore(4)
hasher = PasswordHasher()
DUMMY = hasher.hash("an account that is not there")


def account_name(name: str) -> tuple[str, str]:
    """A name to sign in with, as shown (the rules of display names), and its key: two names
    that look alike up to case and width (NFKC, casefolded) are one name."""
    shown = clean_name(name)
    return shown, unicodedata.normalize("NFKC", shown).casefold()


def password_problem(password: str) -> bool:
    """Whether a new password breaks the rules: PASSWORD_MIN to PASSWORD_MAX characters."""
    return not PASSWORD_MIN <= len(password) <= PASSWORD_MAX


def _hash(password: str) -> str:
    with HASHING:
        return hasher.hash(password)


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hash, password)


def _verify(stored: str | None, password: str) -> bool:
    with HASHING:
        try:
            return hasher.verify(stored or DUMMY, password) and stored is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False


async def check(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` hashes (None: no such account, always False,
    in the same time)."""
    return await asyncio.to_thread(_verify, stored, password)


def needs_rehash(stored: str) -> bool:
    """Whether a hash was made with older parameters than the library's now."""
    return hasher.check_needs_rehash(stored)
