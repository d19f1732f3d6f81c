"""The database's tables (SQLAlchemy 2 models): what the server stores, and nothing more.

A game is stored as its record (yamen/records.py): options, seed and the actions in the game's
notation, one row each (:class:`ActionRow`, whose primary key lets only one writer store each
action). The schema is created and upgraded by Alembic migrations (yamen/server/migrations/),
which read these models; :func:`schema_problems` says what a database lacks.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    inspect,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class PlayerRow(Base):
    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 of the token
    created: Mapped[float] = mapped_column(Float)


class AccountRow(Base):
    """A guest who claimed an account: the player stays the identity (their games stay theirs);
    the account adds a name to sign in with and a password (Argon2, yamen/server/accounts.py)."""

    __tablename__ = "accounts"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))  # as the player wrote it
    name_key: Mapped[str] = mapped_column(String(160), unique=True)  # casefolded: one "Ann"
    password_hash: Mapped[str] = mapped_column(String(256))
    created: Mapped[float] = mapped_column(Float)


class SessionRow(Base):
    """A signed-in token of an account's player, stored hashed as guest tokens are; deleting
    the row revokes it."""

    __tablename__ = "sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 of the token
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    created: Mapped[float] = mapped_column(Float)


class RoomRow(Base):
    __tablename__ = "rooms"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict] = mapped_column(JSON)
    public: Mapped[bool] = mapped_column(Boolean)
    invite: Mapped[str] = mapped_column(String(32))
    host: Mapped[str] = mapped_column(ForeignKey("players.id"))
    settings: Mapped[dict] = mapped_column(JSON)  # turn timer, bot pace: the room's, not the game's
    created: Mapped[float] = mapped_column(Float)
    # the match totals of its finished games per seat, exact (engine.score_json: an int or
    # "n/d"), written with each game's result; null: no game finished yet. A room is loaded
    # from these and its last game, never by replaying every game (yamen/server/match.py)
    scores: Mapped[list | None] = mapped_column(JSON, nullable=True)


class SeatRow(Base):
    __tablename__ = "seats"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)


class GameRow(Base):
    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)  # internal
    # the game's name in URLs and room info: random, so that no one finds games by counting
    public_id: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)  # 1, 2, ... within the room's match
    # who sat in each seat when the game started (None: a bot): they may read its record
    players: Mapped[list | None] = mapped_column(JSON, nullable=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    result: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    started: Mapped[float] = mapped_column(Float)
    finished: Mapped[float | None] = mapped_column(Float, nullable=True)
    # why the game could not be replayed; set, it is never replayed again (its room is closed)
    quarantined: Mapped[str | None] = mapped_column(Text, nullable=True)


class ActionRow(Base):
    __tablename__ = "actions"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)  # a second writer collides
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)
    # why a person's seat was played by the stand-in bot (timeout, away, left, auto); None: not
    stand_in: Mapped[str | None] = mapped_column(String(8), nullable=True)


class ChatRow(Base):
    """A line of a room's chat; a room keeps its latest lines, none older than a week
    (yamen/server/chat.py)."""

    __tablename__ = "chat"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), index=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float, index=True)  # the sweep of old lines reads it


class OutcomeRow(Base):
    """One seat of a rated game (one with a person in it): who sat there (a player's id, or
    ``bot:<kind>``), their place (1 first), score and win, for player pages; ``stand_in``:
    a person's seat was played by the stand-in bot because they left or were away. A
    player's last games are read newest first through the index on (who, finished), a page
    at a time."""

    __tablename__ = "outcomes"
    __table_args__ = (Index("ix_outcomes_who_finished", "who", "finished", "game_id", "seat"),)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    who: Mapped[str] = mapped_column(String(48))
    game: Mapped[str] = mapped_column(String(40))
    place: Mapped[int] = mapped_column(Integer)
    score: Mapped[float] = mapped_column(Float)
    won: Mapped[bool] = mapped_column(Boolean)
    stand_in: Mapped[bool] = mapped_column(Boolean)
    finished: Mapped[float] = mapped_column(Float)


class RatingRow(Base):
    """A player's (or a bot kind's) OpenSkill rating in one game (yamen/server/ratings.py)."""

    __tablename__ = "ratings"
    who: Mapped[str] = mapped_column(String(48), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


class StatsRow(Base):
    """A player's (or a bot kind's) figures in one game, counted as each of their rated games is
    stored, in the same transaction as its outcomes (yamen/server/ratings.py): a player's page
    reads these rows, never their outcomes one by one."""

    __tablename__ = "player_stats"
    who: Mapped[str] = mapped_column(String(48), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    played: Mapped[int] = mapped_column(Integer)  # seats: a bot kind seated twice counts twice
    wins: Mapped[int] = mapped_column(Integer)
    points: Mapped[str] = mapped_column(Text)  # the exact sum of the scores: "7", "-3/2"
    places: Mapped[dict] = mapped_column(JSON)  # place ("1" first) -> how many times
    last: Mapped[float] = mapped_column(Float)  # when the latest of these games finished


class AnalysisRow(Base):
    """A finished game's post-game analysis for one seat (yamen/server/analysis.py): what the
    game's analyst found, with the playouts per decision it was given."""

    __tablename__ = "analyses"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    playouts: Mapped[int] = mapped_column(Integer)
    result: Mapped[dict] = mapped_column(JSON)
    created: Mapped[float] = mapped_column(Float)


class FollowRow(Base):
    """``follower`` follows ``followed``: one way, asked of nobody. Two players who follow each
    other are friends: they see each other's presence and may invite each other
    (yamen/server/friends.py). A player's follows are read newest first through the primary
    key's follower and the index on (follower, created); their followers through (followed,
    created)."""

    __tablename__ = "follows"
    __table_args__ = (
        Index("ix_follows_follower_created", "follower", "created", "followed"),
        Index("ix_follows_followed_created", "followed", "created", "follower"),
    )
    follower: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    followed: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    created: Mapped[float] = mapped_column(Float)


class PresenceRow(Base):
    """When a player was last seen on the site, and at which room: written from their live
    connections in batches, or when a page with none asks for its invites
    (yamen/server/presence.py); what their friends are told of them (friend_store.presence)."""

    __tablename__ = "presence"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    seen: Mapped[float] = mapped_column(Float)
    room_id: Mapped[str | None] = mapped_column(String(16), nullable=True)  # null: not a room


class InviteRow(Base):
    """A friend asked to a room (yamen/server/invites.py): shown to ``receiver`` until it is
    answered (``answered``: accepted or dismissed) or ``expires``; kept an hour after it was
    made, so that what a sender sent in the last hour can be counted."""

    __tablename__ = "invites"
    __table_args__ = (
        Index("ix_invites_receiver_expires", "receiver", "expires"),
        Index("ix_invites_sender_created", "sender", "created"),
    )
    id: Mapped[str] = mapped_column(String(24), primary_key=True)  # random: never counted
    sender: Mapped[str] = mapped_column(ForeignKey("players.id"))
    receiver: Mapped[str] = mapped_column(ForeignKey("players.id"))
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"))
    created: Mapped[float] = mapped_column(Float, index=True)  # the hourly sweep reads it
    expires: Mapped[float] = mapped_column(Float)
    answered: Mapped[float | None] = mapped_column(Float, nullable=True)


class SiteRow(Base):
    """Facts about the whole database: ``cluster_prefix``, the Redis prefix of the cluster of
    processes that runs its rooms (one cluster a database: yamen/server/cluster/)."""

    __tablename__ = "site"
    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


def schema_problems(conn: Any) -> list[str]:
    """What the models need that the database lacks: missing tables and columns."""
    inspector = inspect(conn)
    tables = set(inspector.get_table_names())
    problems = []
    for table in Base.metadata.sorted_tables:
        if table.name not in tables:
            problems.append(f"table {table.name} is missing")
            continue
        have = {column["name"] for column in inspector.get_columns(table.name)}
        lacking = [column.name for column in table.columns if column.name not in have]
        if lacking:
            problems.append(f"table {table.name} lacks column(s) {', '.join(lacking)}")
    return problems
