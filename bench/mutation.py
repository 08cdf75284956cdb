"""Mutation testing of one game's modules with that game's tests, in a private copy.

    python bench/mutation.py cyberiad            # or: cybermancy
    python bench/mutation.py cyberiad --examples 4 --max-children 2
    python bench/mutation.py cyberiad 'domain.games.cyberiad.words.*' --max-children 1  # names right after the game

Copies the repository (without .venv, .git, mutants) to a scratch directory, configures
mutmut there to mutate the game's modules (every module of domain/games/<game> but __init__,
cards, view, bots and stats; --module picks others) and runs it, then prints the kill rate
per file and every surviving mutant. Nothing is written inside the repository.

The tests are tests/games/<game> and that game's cases of the cross-game tests
(tests/games/test_*.py, tests/web/test_words.py): the log's words, the terminal board and
the clock audit of every game are tested there, each parametrized by game, so without them
words.py and render.py would count as untested. A cross-game test is taken when its node id
(function name and parameter id) names this game and no other one, except the two that parse
the modules' source (READS_SOURCE); --own-tests-only leaves them all out. Property tests read
ARBITER_PROPERTY_EXAMPLES (set by --examples) so a mutant is checked in seconds, not minutes.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
KILLED = {1, 3, 36, 24, -24, 152, 255}  # a failing test, a pytest error, or a timeout
SURVIVED = {0}


# Tests of every game at once, each parametrized (or named) by game; tests/web's others are browser tests.
CROSS_GAME_TESTS = ["tests/games/test_*.py", "tests/web/test_words.py"]
# Tests that parse the game's source text (the fact kinds its modules write): under mutmut a module
# holds every mutant at once, so they fail on the unmutated code too and would stop the run.
READS_SOURCE = ("test_every_fact_kind_a_game_writes_is_listed_in_its_words",
                "test_every_fact_kind_cyberspace_writes_is_listed_in_its_words")

NOT_RULES = {"__init__.py", "cards.py", "view.py", "bots.py", "stats.py"}  # wiring, data, views, bots


def rule_modules(game: str) -> list[str]:
    folder = REPO / "domain" / "games" / game
    return sorted(p.name for p in folder.glob("*.py") if p.name not in NOT_RULES and not p.name.startswith("view"))


def game_names() -> list[str]:
    return sorted(p.parent.name for p in (REPO / "domain" / "games").glob("*/__init__.py"))


def games_named(test: str, names: list[str]) -> set[str]:
    """The games a test's name and parameter id name: `test_cyberiad_shows_...`, `...[cyberiad-3-default]`
    (a name is bounded by anything but a letter, so cybermen is never read in cybermancy)."""
    return {name for name in names if re.search(rf"(?<![a-z]){name}(?![a-z])", test)}


def cross_game_tests(game: str, root: Path) -> list[str]:
    """Node ids of the cross-game tests that are this game's cases (they name it and no other game)."""
    files = sorted({str(p.relative_to(root)) for pattern in CROSS_GAME_TESTS for p in root.glob(pattern)})
    collected = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-o", "addopts=",
                                "-p", "no:randomly", "-p", "no:cacheprovider", *files],
                               cwd=root, capture_output=True, text=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    if collected.returncode != 0:
        sys.exit(f"could not collect the cross-game tests:\n{collected.stdout}{collected.stderr}")
    names = game_names()
    ids = [line.strip() for line in collected.stdout.splitlines() if "::" in line]
    return [node for node in ids if games_named(node.split("::", 1)[1], names) == {game}
            and node.split("::", 1)[1].split("[")[0] not in READS_SOURCE]


# Statements that only raise with a message for people (rule codes are asserted by the tests
# through the condition that raises, which is still mutated).
MESSAGES = [r"^\s*raise (IllegalAction|InvalidSetup|ValueError)\("]


def mutmut_config(game: str, modules: list[str], tests: list[str], extra_pytest_args: list[str],
                  messages: bool = False, timeout_multiplier: float = 3.0) -> str:
    pytest_args = ["-p", "no:randomly", "-p", "no:cacheprovider", "-x", "-q", *extra_pytest_args]
    return "\n".join([
        "",
        "[tool.mutmut]",
        'source_paths = ["domain"]',
        f"only_mutate = {json.dumps([f'domain/games/{game}/{m}' for m in modules])}",
        f"pytest_add_cli_args_test_selection = {json.dumps(tests)}",
        f"pytest_add_cli_args = {json.dumps(pytest_args)}",
        "use_git_change_detection = false",
        # mutmut's CPU limit per mutant is (tests' time + 1 s) x this x 2; its default 15 let a
        # mutant that loops for ever (a queue that never empties) run half an hour.
        f"timeout_multiplier = {timeout_multiplier}",
        f"do_not_mutate_patterns = {json.dumps([] if messages else MESSAGES)}",
        "",
    ])


def make_copy(workdir: Path, game: str, modules: list[str], extra_pytest_args: list[str], messages: bool,
              cross_game: bool, timeout_multiplier: float) -> list[str]:
    """The scratch copy, configured; returns the tests it runs (pytest arguments)."""
    workdir.mkdir(parents=True, exist_ok=True)
    subprocess.run(["rsync", "-a", "--delete", "--exclude", ".venv", "--exclude", ".git", "--exclude", "mutants",
                    "--exclude", ".hypothesis", "--exclude", "__pycache__", "--exclude", ".pytest_cache",
                    f"{REPO}/", f"{workdir}/"], check=True)
    tests = [f"tests/games/{game}", *(cross_game_tests(game, workdir) if cross_game else [])]
    pyproject = workdir / "pyproject.toml"
    text = pyproject.read_text()
    if "[tool.mutmut]" in text:
        sys.exit("pyproject.toml already has a [tool.mutmut] table; this script writes its own")
    pyproject.write_text(text + mutmut_config(game, modules, tests, extra_pytest_args, messages,
                                                 timeout_multiplier))
    return tests


def kill_rates(workdir: Path, game: str, modules: list[str]) -> tuple[dict, list[str]]:
    """Per mutated file: Counter of killed / survived / other, and the surviving mutant names."""
    per_file, survivors = {}, []
    folder = workdir / "mutants" / "domain" / "games" / game
    for meta in sorted(folder / f"{m}.meta" for m in modules if (folder / f"{m}.meta").exists()):
        results = json.loads(meta.read_text())["exit_code_by_key"]
        counts = Counter()
        for name, code in sorted(results.items()):
            if code in KILLED:
                counts["killed"] += 1
            elif code in SURVIVED:
                counts["survived"] += 1
                survivors.append(name)
            else:
                counts[f"exit {code}"] += 1
        per_file[meta.name.removesuffix(".meta")] = counts
    return per_file, survivors


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a folder of domain/games, e.g. cyberiad or cybermancy")
    parser.add_argument("--workdir", type=Path, help="scratch copy (default /tmp/mut-<game>)")
    parser.add_argument("--max-children", type=int, default=os.cpu_count())
    parser.add_argument("--examples", type=int, default=4,
                        help="hypothesis examples per property test while checking mutants")
    parser.add_argument("--module", action="append", help="a module of the game to mutate (repeatable); "
                        "default: every module but __init__, cards, view, bots, stats")
    parser.add_argument("--messages", action="store_true",
                        help="also mutate raise statements (their message text for people)")
    parser.add_argument("mutants", nargs="*", help="only these mutant names or globs (mutmut's names), "
                        "e.g. 'domain.games.cyberiad.rules.x_settle__*'")
    parser.add_argument("--report-only", action="store_true", help="print the last run's results again")
    parser.add_argument("--own-tests-only", action="store_true",
                        help="run tests/games/<game> only, not the game's cases of the cross-game tests")
    parser.add_argument("--timeout-multiplier", type=float, default=3.0,
                        help="a mutant's CPU limit is (its tests' time + 1 s) x this x 2 (mutmut's default: 15)")
    parser.add_argument("--pytest-arg", action="append", default=[], help="extra pytest argument (repeatable)")
    args = parser.parse_args(argv)
    if not (REPO / "domain" / "games" / args.game).is_dir():
        parser.error(f"no game {args.game!r} in domain/games")
    workdir = args.workdir or Path(f"/tmp/mut-{args.game}")
    modules = args.module or rule_modules(args.game)
    if not args.report_only:
        if (workdir / "mutants").exists():
            shutil.rmtree(workdir / "mutants")
        tests = make_copy(workdir, args.game, modules, args.pytest_arg, args.messages, not args.own_tests_only,
                          args.timeout_multiplier)
        print(f"tests: {' '.join(tests)}")
        env = {**os.environ, "ARBITER_PROPERTY_EXAMPLES": str(args.examples)}
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "mutmut", "run", "--max-children", str(args.max_children),
                        *args.mutants],
                       cwd=workdir, env=env, check=False)
        print(f"\nmutmut took {time.monotonic() - started:.0f} s in {workdir}")
    per_file, survivors = kill_rates(workdir, args.game, modules)
    if not per_file:
        print("no mutation results found", file=sys.stderr)
        return 1
    print(f"\nkill rate per file ({args.game}; tests as configured in {workdir / 'pyproject.toml'}):")
    print(f"  (mutated: {', '.join(modules)})")
    for name, counts in per_file.items():
        total = sum(counts.values())
        others = ", ".join(f"{k} {v}" for k, v in counts.items() if k not in ("killed", "survived"))
        print(f"  {name}: {counts['killed']}/{total} killed = {100 * counts['killed'] / max(total, 1):.1f} %"
              f" ({counts['survived']} survived{', ' + others if others else ''})")
    if survivors:
        print(f"\nsurviving mutants ({len(survivors)}); see one with: cd {workdir} && "
              f"{sys.executable} -m mutmut show <name>")
        for name in survivors:
            print(f"  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
