"""Cyberspace in simulation: bot matches in every mode, and what they did.

    .venv/bin/python bench/balance_cyberspace.py [matches per mode]      (default 200)

For each mode and pairing (random vs random, greedy vs greedy, greedy vs random with the
greedy seats alternating): how many matches, mean actions and rounds, how often a drawn
tile was unplayable and set aside, hacks tried and won, hijacked sessions, remaps, the
winners by bot kind and the first player's share of wins, draws, mean winning score.
Every seat plays the same pieces, so a greedy-vs-greedy table measures seat order only.
Card-duel modes (the default duels) also count cards played, blocks, Secret Cards
deployed, assists, duplicates and the win share of each Hero.
"""

import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.games.cyberspace import RULESET  # noqa: E402
from domain.kernel.rng import RandomStream  # noqa: E402

BIT = {"duels": "bit"}
MODES = [({}, 2), ({}, 3), ({"assistance": True}, 3), ({}, 4), ({"assistance": True}, 4), ({"teams": True}, 4),
         (BIT, 2), (BIT, 3), (BIT, 4), ({**BIT, "teams": True}, 4), ({**BIT, "handicap": [0]}, 3), ({}, 1)]
PAIRINGS = [("random", "random"), ("greedy", "greedy"), ("greedy", "random")]


def play(options, seats, seed, bots):
    rand = random.Random(seed)
    key = rand.randbytes(32)
    state = RULESET.setup(options, [f"s{i}" for i in range(seats)], RandomStream(key, "sim", 1))
    kinds = [bots[(seat + seed) % 2] for seat in range(seats)]  # alternate who plays which bot
    counts, seq = Counter(), 1
    while RULESET.outcome(state) is None:
        seq += 1
        (seat,) = RULESET.to_act(state)
        action = RULESET.bots[kinds[seat]](state, seat, rand)
        counts[action["type"]] += 1
        if action["type"] == "duel":
            counts[f"card:{action['duel']['type']}"] += 1
        for fact in RULESET.decide(state, seat, action, RandomStream(key, "sim", seq)):
            counts[f"fact:{fact['f']}"] += 1
            if fact["f"] == "duel" and fact["fact"].get("f") == "hc.commit":
                counts["assists"] += 1
            if fact["f"] == "attack_result":
                counts["hacks_won"] += fact["success"]
            state = RULESET.evolve(state, fact)
    return RULESET.outcome(state), state, kinds, counts, seq - 1


def main(matches):
    report = {}
    for options, seats in MODES:
        for bots in PAIRINGS if seats > 1 else [("random", "random"), ("greedy", "greedy")]:
            wins, first, draws, totals, scores, rounds, actions = Counter(), 0.0, 0, Counter(), [], [], []
            heroes, hero_seats = Counter(), Counter()
            for seed in range(matches):
                outcome, state, kinds, counts, taken = play(options, seats, seed, bots)
                totals.update(counts)
                actions.append(taken)
                rounds.append(-(-state["turn_number"] // seats))
                scores.append(max(outcome["scores"]))
                draws += len(outcome["winners"]) > 1 and not options.get("teams")
                for winner in outcome["winners"]:
                    wins[kinds[winner]] += 1 / len(outcome["winners"])
                    first += (winner == state["first"]) / len(outcome["winners"])
                    if state["cards"] is not None:
                        heroes[state["cards"]["players"][winner]["hero"]] += 1 / len(outcome["winners"])
                if state["cards"] is not None:
                    hero_seats.update(p["hero"] for p in state["cards"]["players"])
            name = f"{json.dumps(options)} x{seats} {bots[0]}-{bots[1]}"
            report[name] = {
                "matches": matches, "mean_actions": round(sum(actions) / matches, 1),
                "mean_rounds": round(sum(rounds) / matches, 1),
                "set_aside_per_match": round(totals["fact:set_aside"] / matches, 3),
                "hacks_per_match": round(totals["fact:attack"] / matches, 2),
                "hacks_won_share": round(totals["hacks_won"] / max(1, totals["fact:attack_result"]), 3),
                "hijacks_per_match": round(totals["fact:hijack"] / matches, 2),
                "remaps_per_match": round(totals["fact:remap"] / matches, 2),
                "reboots_per_match": round(totals["reboot"] / matches, 2),
                "win_share_by_bot": {k: round(v / matches, 3) for k, v in sorted(wins.items())},
                "first_player_win_share": round(first / matches, 3),
                "draws": draws, "mean_best_score": round(sum(scores) / matches, 1),
                # how often each action type is chosen (issue 29); Cyberspace has no designed safety
                # end (README 28): a match ends only when the stack runs out
                "action_mix_per_match": {k: round(v / matches, 2) for k, v in sorted(totals.items())
                                         if k not in ("hacks_won", "assists") and not k.startswith("fact:")},
            }
            if hero_seats:
                report[name].update({
                    "cards_played_per_match": round((totals["card:play"] + totals["attack"]) / matches, 1),
                    "secrets_deployed_per_match": round(totals["card:deploy"] / matches, 2),
                    "assists_per_match": round(totals["assists"] / matches, 2),
                    "duplicates_per_match": round(totals["fact:duplicate_result"] / matches, 2),
                    "purged_hacks_per_match": round(totals["fact:attack_cancelled"] / matches, 2),
                    # wins per seat the Hero held (1/seats is even)
                    "hero_win_rate": {h: round(heroes[h] / hero_seats[h], 3) for h in sorted(hero_seats)},
                })
            print(name, json.dumps(report[name]), flush=True)
    return report


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
