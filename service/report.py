"""The balance report: one self-contained HTML file (plots inlined as PNG) with the tables
behind every plot, from the statistics and ratings read models.

Every win rate is drawn with its 95 % Wilson interval and printed with its sample size,
and each comparison says whether its difference is significant. Plots are drawn with
matplotlib (Agg, no display): the well-kept standard for static scientific plots, whose
PNGs embed in one file that needs no network to open.
"""

import base64
import html
import io

import matplotlib

import domain.games  # noqa: F401  (registers every ruleset, whose words name cards and factions)
from domain.kernel import ruleset as rulesets
from domain.kernel.errors import UnknownRuleset

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TOP_CARDS = 25


def namer(game: str):
    """A card's or faction's name in the game's words (cards.json, heroes.json...), its id where
    the data names none (an element, a faction)."""
    try:
        words = rulesets.latest(game).words
    except UnknownRuleset:
        words = None
    return lambda key: (words.name(key) if words else None) or key


def _png(figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    plt.close(figure)
    return base64.b64encode(buffer.getvalue()).decode()


def tick_style(labels: list[str]) -> tuple[int, str]:
    """Slanted labels where level ones would run into each other: many bars, or names longer
    than a bar is wide (about 9 characters at this size; Cybermen's groups are 9 to 18)."""
    crowded = len(labels) > 6 or max(map(len, labels), default=0) > 9
    return (45, "right") if crowded else (0, "center")


def _rate_plot(title: str, labels: list[str], rates: list[dict], fair: float | None = None) -> str:
    figure, axes = plt.subplots(figsize=(max(4.0, 0.55 * len(labels) + 2), 3.2))
    values = [r["rate"] for r in rates]
    errors = [[r["rate"] - r["ci95"][0] for r in rates], [r["ci95"][1] - r["rate"] for r in rates]]
    axes.bar(range(len(labels)), values, yerr=errors, capsize=4, color="#4c78a8")
    rotation, align = tick_style(labels)
    axes.set_xticks(range(len(labels)), labels, rotation=rotation, ha=align)
    axes.set_ylim(0, 1)
    axes.set_ylabel("win rate (95 % Wilson)")
    if fair is not None:
        axes.axhline(fair, color="#e45756", linestyle="--", linewidth=1, label=f"fair share {fair:.2f}")
        axes.legend(loc="upper right", fontsize=8)
    axes.set_title(title, fontsize=10)
    return _png(figure)


def _histogram_plot(title: str, histogram: dict, xlabel: str) -> str:
    figure, axes = plt.subplots(figsize=(5, 3))
    buckets = sorted(histogram, key=float)
    axes.bar([float(b) for b in buckets], [histogram[b] for b in buckets], width=0.8 * (
        (float(buckets[1]) - float(buckets[0])) if len(buckets) > 1 else 1), color="#72b7b2")
    axes.set_xlabel(xlabel)
    axes.set_ylabel("matches")
    axes.set_title(title, fontsize=10)
    return _png(figure)


def _table(headers: list[str], rows: list[list]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_cell(v))}</td>" for v in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _cell(value) -> str:
    if isinstance(value, dict) and "rate" in value:
        return f"{value['rate']:.3f}  [{value['ci95'][0]:.3f}, {value['ci95'][1]:.3f}]  n={value['n']}"
    if isinstance(value, float):
        return f"{value:.3f}"
    return "" if value is None else str(value)


def _section(title: str, image: str | None, table: str, note: str = "") -> str:
    picture = f'<img alt="{html.escape(title)}" src="data:image/png;base64,{image}">' if image else ""
    note = f"<p class=note>{html.escape(note)}</p>" if note else ""
    return f"<section><h2>{html.escape(title)}</h2>{note}{picture}{table}</section>"


def balance_report(stats: dict, leaderboard: dict) -> str:
    """The HTML text of the report for one game."""
    game = stats["game"]
    sections = [f"<p>{stats['matches_ended']} ended matches ({stats['matches_drawn']} drawn), "
                f"{stats['matches_abandoned']} abandoned, {stats['resigns']} resigns; simulated matches: "
                f"{html.escape(stats['simulated'])}.</p>"]
    for seats, rates in stats["win_rate_by_seat"].items():
        present = [(f"seat {i}", r) for i, r in enumerate(rates) if r]
        verdict = (stats["seat_difference"].get(seats) or {}).get("verdict", "")
        sections.append(_section(
            f"Win rate by seat, {seats} players", _rate_plot(f"{game}: {seats} players", [p[0] for p in present],
                                                            [p[1] for p in present], 1 / int(seats)) if present else None,
            _table(["seat", "win rate [95 % CI] n"], [[label, rate] for label, rate in present]), verdict))
    first = stats["first_player_win_rate"]
    if first:
        verdict = ("the first player's rate differs from the fair share (outside the 95 % interval)"
                   if stats["first_player_advantage_significant"] else
                   "no first-player advantage shows: the fair share lies inside the 95 % interval")
        sections.append(_section("First player", _rate_plot("first player", ["first player"], [first],
                                                            stats["first_player_fair_share"]),
                                 _table(["", "win rate [95 % CI] n", "fair share"],
                                        [["first player", first, stats["first_player_fair_share"]]]), verdict))
    name = namer(game)
    factions = {name(key): f for key, f in stats["factions"].items() if f["win_rate"]}
    if factions:
        names = sorted(factions)
        sections.append(_section(
            "Win rate by faction (Constructor, Hero, element...)",
            _rate_plot("by faction", names, [factions[n]["win_rate"] for n in names]),
            _table(["faction", "seats played", "win rate [95 % CI] n"],
                   [[n, factions[n]["matches"], factions[n]["win_rate"]] for n in names]),
            (stats.get("faction_difference") or {}).get("verdict", "")))
    cards = sorted(((name(key), c) for key, c in stats["cards"].items() if c["win_rate_when_played"]),
                   key=lambda item: -item[1]["matches"])[:TOP_CARDS]
    if cards:
        ended = max(stats["matches_ended"], 1)
        sections.append(_section(
            f"Cards: the {len(cards)} played in most matches",
            _rate_plot("win rate when played", [n for n, _ in cards], [c["win_rate_when_played"] for _, c in cards]),
            _table(["card", "plays", "play rate (matches played in / ended)", "win rate when played [95 % CI] n"],
                   [[n, c["plays"], c["matches"] / ended, c["win_rate_when_played"]] for n, c in cards])))
    for kind, label in (("actions", "actions (buckets of 10)"), ("rounds", "rounds")):
        length = stats["length"][kind]
        if length["histogram"]:
            sections.append(_section(
                f"Match length in {kind}", _histogram_plot(f"length in {kind}", length["histogram"], label),
                _table([label, "matches"], [[k, v] for k, v in length["histogram"].items()]),
                f"median {length['median']}, mean {length['mean']} over {length['matches']} matches"))
    players = leaderboard["players"]
    if players:
        figure, axes = plt.subplots(figsize=(5, 3))
        axes.hist([p["ordinal"] for p in players], bins=min(20, max(5, len(players))), color="#f58518")
        axes.set_xlabel("OpenSkill ordinal (mu - 3 sigma)")
        axes.set_ylabel("players")
        axes.set_title("rating distribution", fontsize=10)
        sections.append(_section("Ratings", _png(figure), _table(
            ["rank", "player", "mu", "sigma", "ordinal", "matches"],
            [[p["rank"], p["player"], p["mu"], p["sigma"], p["ordinal"], p["matches"]] for p in players[:50]]),
            leaderboard["model"]))
    style = ("body{font:14px/1.45 system-ui,sans-serif;max-width:980px;margin:2em auto;color:#222}"
             "table{border-collapse:collapse;margin:.6em 0 1.4em}td,th{border:1px solid #ccc;padding:3px 8px;"
             "text-align:left;font-variant-numeric:tabular-nums}th{background:#f3f3f3}img{max-width:100%}"
             ".note{color:#555;font-style:italic}section{border-top:1px solid #ddd;padding-top:.4em}")
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>Arbiter balance report: "
            f"{html.escape(game)}</title><style>{style}</style></head><body><h1>Balance report: "
            f"{html.escape(game)}</h1>{''.join(sections)}</body></html>")
