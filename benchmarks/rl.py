"""RL environment speed on one core: Yamen's environments against its raw engine, OpenSpiel's
and RLCard's Dou Dizhu and PettingZoo's Leduc Hold'em, in one run.

Every row plays whole games with uniformly random legal actions for a share of the budget; the
rows take turns in short rounds, so a slow spell of a shared machine hits them alike. One step
is one decision of one seat:

- ``engine``: the bare loop (``pending``, ``legal``, ``apply``), as benchmarks/selfplay.py;
- ``env``: ``yamen.rl.env(...)`` (PettingZoo's wrappers on), the usual AEC loop:
  ``last()`` (the seat's encoded observation and its mask), then ``step``; the action is drawn
  from the legal actions the info lists (the mask's ones, without scanning the mask);
- ``raw``: the same loop on ``raw_env`` (no wrappers);
- ``vector``: ``yamen.rl.vector_env(..., num_envs=VECTOR_GAMES)`` (observations, ragged legal
  ids and their action features), a random legal id per game drawn with numpy from the ragged
  array; "games" counts calls of ``VECTOR_STEPS`` steps of every game. Where the game has a
  compiled stepper (Baohuang's core, where it was built) the row runs it, and a ``vector
  python`` row runs the same environment on the Python engine (``compiled=False``);
- ``openspiel dou_dizhu``: OpenSpiel's C++ Dou Dizhu through its Python API, the loop a
  learner runs on it: the player's observation tensor, the legal actions, ``apply_action``;
- ``rlcard doudizhu``: RLCard's env, ``step`` returning the next player's encoded state;
- ``pettingzoo leduc_holdem``: PettingZoo's classic AEC env (on RLCard), the loop above.

    python benchmarks/rl.py [--seconds 10] [--rounds 5] [--seed 0] [--only TEXT] [--json]

The comparisons need ``pip install rlcard pygame open_spiel`` (PettingZoo's classic games
import the first two);
a row that cannot run is skipped with a note. The script prints figures only; it never
asserts a time.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from selfplay import Skipped, combine, measure, pin_to_one_core  # noqa: E402

from yamen.engine import game_type, get_game  # noqa: E402
from yamen.selfplay import play_random  # noqa: E402

PlayGame = Callable[[int], int]
TARGET_RATIO = 2.0  # the env may cost at most this many times the engine's time per step
VECTOR_GAMES, VECTOR_STEPS = 64, 16  # the vector row: games side by side, steps per call


def cases() -> list[tuple[str, dict[str, Any]]]:
    """Each learnable game once per value of its top-level choice options (as tests/rl)."""
    from yamen.rl import learnable_games

    found = []
    for name in learnable_games():
        choices = [
            o for o in game_type(name).declaration if o.kind == "choice" and o.applies is None
        ]
        found += [(name, {o.name: v}) for o in choices for v in o.choices] or [(name, {})]
    return found


def label(name: str, options: dict[str, Any]) -> str:
    return "/".join([name, *map(str, options.values())])


def engine_loop(name: str, options: dict[str, Any], seed: int) -> PlayGame:
    game = get_game(name, options)
    rng = random.Random(seed)
    return lambda game_seed: play_random(game.new_state(game_seed), rng)


def aec_loop(made: Any, seed: int, seeded: bool = True) -> PlayGame:
    """The AEC loop over any PettingZoo env with masks: ``last()`` then ``step``."""
    rng = random.Random(seed)

    def play(game_seed: int) -> int:
        made.reset(seed=game_seed if seeded else None)
        steps = 0
        for _agent in made.agent_iter():
            obs, _, terminated, truncated, info = made.last()
            if terminated or truncated:
                made.step(None)
                continue
            legal = info.get("legal_actions")
            if legal is None:  # PettingZoo's own envs: the mask only
                legal = [i for i, ok in enumerate(obs["action_mask"]) if ok]
            made.step(rng.choice(legal))
            steps += 1
        return steps

    return play


def env_loop(name: str, options: dict[str, Any], seed: int, wrapped: bool) -> PlayGame:
    try:
        from yamen.rl import env, raw_env
    except ImportError as exc:
        raise Skipped(f"the rl extra is not installed ({exc}; pip install -e '.[rl]')") from exc
    return aec_loop((env if wrapped else raw_env)(name, **options), seed)


def vector_loop(name: str, options: dict[str, Any], seed: int, compiled: bool = True) -> PlayGame:
    try:
        from yamen.rl import vector_env
    except ImportError as exc:
        raise Skipped(f"the rl extra is not installed ({exc}; pip install -e '.[rl]')") from exc
    import numpy as np

    made = vector_env(name, VECTOR_GAMES, compiled=compiled, **options)
    rng = np.random.default_rng(seed)
    step = made.reset(seed=seed)

    def play(_seed: int) -> int:
        nonlocal step
        for _ in range(VECTOR_STEPS):
            starts, ends = step.legal_offsets[:-1], step.legal_offsets[1:]
            picks = starts + (rng.random(VECTOR_GAMES) * (ends - starts)).astype(np.int64)
            step = made.step(step.legal_ids[picks])
        return VECTOR_STEPS * VECTOR_GAMES

    return play


def openspiel_doudizhu(seed: int) -> PlayGame:
    try:
        import pyspiel
    except ImportError as exc:
        raise Skipped("OpenSpiel not installed (pip install open_spiel)") from exc
    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(seed)

    def play(_seed: int) -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():  # the deal: uniform, so rng.choice samples it exactly
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            state.observation_tensor(state.current_player())  # what a learner reads a step
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return play


def rlcard_doudizhu(seed: int) -> PlayGame:
    try:
        import rlcard
    except ImportError as exc:
        raise Skipped("RLCard not installed (pip install rlcard)") from exc
    made = rlcard.make("doudizhu", config={"seed": seed})
    rng = random.Random(seed)

    def play(_seed: int) -> int:
        state, _ = made.reset()
        steps = 0
        while not made.is_over():
            state, _ = made.step(rng.choice(list(state["legal_actions"])))
            steps += 1
        return steps

    return play


def pettingzoo_leduc(seed: int) -> PlayGame:
    try:
        from pettingzoo.classic import leduc_holdem_v4
    except Exception as exc:  # pettingzoo missing, or its rlcard dependency
        raise Skipped(
            f"PettingZoo's leduc_holdem cannot run ({exc}; pip install rlcard pygame)"
        ) from exc
    return aec_loop(leduc_holdem_v4.env(), seed)


def rows(seed: int) -> Iterator[tuple[str, Callable[[], PlayGame]]]:
    for name, options in cases():
        tag = label(name, options)
        yield f"{tag} engine", lambda n=name, o=options: engine_loop(n, o, seed)
        yield f"{tag} env", lambda n=name, o=options: env_loop(n, o, seed, True)
        yield f"{tag} raw", lambda n=name, o=options: env_loop(n, o, seed, False)
        yield f"{tag} vector", lambda n=name, o=options: vector_loop(n, o, seed)
        if game_type(name).stepper is not None:
            yield f"{tag} vector python", lambda n=name, o=options: vector_loop(n, o, seed, False)
    yield "openspiel dou_dizhu", lambda: openspiel_doudizhu(seed)
    yield "rlcard doudizhu", lambda: rlcard_doudizhu(seed)
    yield "pettingzoo leduc_holdem", lambda: pettingzoo_leduc(seed)


def print_table(results: list[dict], cpu: int | None) -> None:
    print(f"RL environments, random legal actions, one core (cpu {cpu})")
    print(f"{'row':34} {'games':>7} {'steps':>10} {'steps/s':>10} {'us/step':>8} {'x engine':>9}")
    engines = {r["engine"][: -len(" engine")]: r for r in results if r["engine"].endswith("engine")}
    for r in results:
        rate = r["decisions_per_s"]
        base = engines.get(r["engine"].split(" ", 1)[0])
        ratio = f"{base['decisions_per_s'] / rate:.1f}" if base and rate else "-"
        micro = f"{1e6 / rate:.1f}" if rate else "-"
        print(
            f"{r['engine']:34} {r['games']:>7,} {r['decisions']:>10,} {rate:>10,.0f} "
            f"{micro:>8} {ratio:>9}"
        )
    print(f"(x engine: the env's time per step over the engine's; target <= {TARGET_RATIO})")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="budget per row")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds per row")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="the rows whose name holds this text (e.g. baohuang)")
    parser.add_argument("--json", action="store_true", help="one JSON object per row")
    args = parser.parse_args(argv)
    cpu = pin_to_one_core()
    players = {}
    for name, factory in rows(args.seed):
        if args.only is not None and args.only not in name:
            continue
        try:
            players[name] = factory()
        except Skipped as exc:
            print(f"{name}: skipped, {exc}", file=sys.stderr)
    parts: dict[str, list[dict]] = {name: [] for name in players}
    for _ in range(args.rounds):
        for name, play in players.items():
            played = sum(p["games"] for p in parts[name])
            part = measure(name, play, args.seconds / args.rounds, None, args.seed + played)
            parts[name].append(part)
    results = [combine(name, p) for name, p in parts.items()]
    if args.json:
        for row in results:
            print(json.dumps({**row, "cpu": cpu}))
    else:
        print_table(results, cpu)


if __name__ == "__main__":
    main()
