"""Mutation testing of one game's rules with that game's tests only, in a private copy.

    python bench/mutation.py cyberiad            # or: cybermancy
    python bench/mutation.py cyberiad --examples 4 --max-children 2

Copies the repository (without .venv, .git, mutants) to a scratch directory, configures
mutmut there to mutate the modules that hold the game's rules (every module of
domain/games/<game> but __init__, cards, view, bots and stats: rules.py, and for Cyberiad
effects.py and board.py; --module picks others) with tests/games/<game> as the test suite, runs it, and prints the kill rate per file and
every surviving mutant. Nothing is written inside the repository. Property tests read
ARBITER_PROPERTY_EXAMPLES (set by --examples) so a mutant is checked in seconds, not minutes.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
KILLED = {1, 3, 36, 24, -24, 152, 255}  # a failing test, a pytest error, or a timeout
SURVIVED = {0}


NOT_RULES = {"__init__.py", "cards.py", "view.py", "bots.py", "stats.py"}  # wiring, data, views, bots


def rule_modules(game: str) -> list[str]:
    folder = REPO / "domain" / "games" / game
    return sorted(p.name for p in folder.glob("*.py") if p.name not in NOT_RULES and not p.name.startswith("view"))


# Statements that only raise with a message for people (rule codes are asserted by the tests
# through the condition that raises, which is still mutated).
MESSAGES = [r"^\s*raise (IllegalAction|InvalidSetup|ValueError)\("]


def mutmut_config(game: str, modules: list[str], extra_pytest_args: list[str], messages: bool = False) -> str:
    pytest_args = ["-p", "no:randomly", "-p", "no:cacheprovider", "-x", "-q", *extra_pytest_args]
    return "\n".join([
        "",
        "[tool.mutmut]",
        'source_paths = ["domain"]',
        f"only_mutate = {json.dumps([f'domain/games/{game}/{m}' for m in modules])}",
        f'pytest_add_cli_args_test_selection = ["tests/games/{game}"]',
        f"pytest_add_cli_args = {json.dumps(pytest_args)}",
        "use_git_change_detection = false",
        f"do_not_mutate_patterns = {json.dumps([] if messages else MESSAGES)}",
        "",
    ])


def make_copy(workdir: Path, game: str, modules: list[str], extra_pytest_args: list[str], messages: bool) -> None:
    workdir.mkdir(parents=True, exist_ok=True)
    subprocess.run(["rsync", "-a", "--delete", "--exclude", ".venv", "--exclude", ".git", "--exclude", "mutants",
                    "--exclude", ".hypothesis", "--exclude", "__pycache__", "--exclude", ".pytest_cache",
                    f"{REPO}/", f"{workdir}/"], check=True)
    pyproject = workdir / "pyproject.toml"
    text = pyproject.read_text()
    if "[tool.mutmut]" in text:
        sys.exit("pyproject.toml already has a [tool.mutmut] table; this script writes its own")
    pyproject.write_text(text + mutmut_config(game, modules, extra_pytest_args, messages))


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
    parser.add_argument("--pytest-arg", action="append", default=[], help="extra pytest argument (repeatable)")
    args = parser.parse_args(argv)
    if not (REPO / "domain" / "games" / args.game).is_dir():
        parser.error(f"no game {args.game!r} in domain/games")
    workdir = args.workdir or Path(f"/tmp/mut-{args.game}")
    modules = args.module or rule_modules(args.game)
    if not args.report_only:
        if (workdir / "mutants").exists():
            shutil.rmtree(workdir / "mutants")
        make_copy(workdir, args.game, modules, args.pytest_arg, args.messages)
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
    print(f"\nkill rate per file ({args.game}, tests/games/{args.game} only):")
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
