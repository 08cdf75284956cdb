"""How each fact changes the state: no checks, no randomness."""


def evolve(state, fact):
    kind = fact["f"]
    groups, cybermen = state["groups"], state["cybermen"]
    # The kinds in the order a search meets them most (a playout emits an "active" fact every
    # Cyberman move and "used" every ability: reading 27 kinds before "active" was 1 % of it).
    if kind == "active":
        state["active"] = fact["active"]
    elif kind == "used":
        state["moved"].append(fact["id"])
        state["used"] += 1
    elif kind == "phase":
        state.update(phase=fact["phase"], queue=list(fact.get("queue", [])), count=None, used=0, moved=[])
    elif kind == "roll":
        if fact["purpose"] == "move":
            state["roll"] = fact["allowance"]
        elif fact["purpose"] in ("cybermen", "abilities"):
            state["count"] = fact["value"]
    elif kind == "face":
        cybermen[fact["id"]]["facing"] = fact["facing"]
    elif kind == "move":
        cybermen[fact["id"]]["pos"] = list(fact["to"])
        state["moved"].append(fact["id"])
    elif kind == "hit":
        group = groups[fact["seat"]]
        if fact["effect"] == "injured":  # "for the next two turns"
            group["injured"] = 2
        else:
            group[fact["effect"]] = True
    elif kind == "draw":
        state["deck"].remove(fact["card"])
        groups[fact["seat"]]["hand"].append(fact["card"])
    elif kind == "turn":
        state.update(turn=fact["seat"], round=fact["round"], roll=None, active=None)
    elif kind == "group":
        groups[fact["seat"]].update(fact["set"])
    elif kind == "spawn":
        cybermen[fact["id"]] = {"pos": list(fact["pos"]), "facing": fact["facing"], "mark": fact["mark"],
                                "role": fact["role"], "seat": fact["seat"], "origin": fact["origin"], "carrying": []}
        state["next_id"] += 1
        if fact.get("supply"):
            state["supply"][str(fact["mark"])] -= 1
    elif kind == "move_group":
        group = groups[fact["seat"]]
        group.update(pos=list(fact["to"]), fatigue=group["fatigue"] - fact["fatigue"], mind=False)
    elif kind == "attack":
        pass  # the combat roll, kept in the log for the record
    elif kind == "prompt":
        state["prompt"] = fact["prompt"]
    elif kind == "vp":
        groups[fact["seat"]]["vp"] += fact["n"]
    elif kind == "queue":
        state["queue"] = list(fact["queue"])
    elif kind == "refill":
        state["deck"], state["discard"] = sorted(state["discard"]), []
    elif kind == "discard":
        groups[fact["seat"]]["hand"].remove(fact["card"])
        state["discard"].append(fact["card"])
    elif kind == "give":
        groups[fact["from"]]["hand"].remove(fact["card"])
        groups[fact["to"]]["hand"].append(fact["card"])
    elif kind == "escape":
        group = groups[fact["seat"]]
        group["escaped"] += group["members"]
        group["members"] = []
    elif kind == "cyberman":
        cybermen[fact["id"]].update(fact["set"])
    elif kind == "capture":
        group = groups[int(fact["char"].split(".")[0])]
        group["members"].remove(fact["char"])
        if fact["char"] not in group["lost"]:  # "This character's ability can no longer be used."
            group["lost"].append(fact["char"])
        cybermen[fact["id"]]["carrying"].append(fact["char"])
    elif kind == "release":
        cybermen[fact["id"]]["carrying"].remove(fact["char"])
        groups[int(fact["char"].split(".")[0])]["members"].append(fact["char"])
    elif kind == "convert":
        cybermen[fact["id"]]["carrying"].remove(fact["char"])
        groups[int(fact["char"].split(".")[0])]["converted"].append(fact["char"])
    elif kind == "remove_cyberman":
        del cybermen[fact["id"]]
    elif kind == "unit":
        state["units"][fact["id"]] = list(fact["pos"])
        state["next_id"] += 1
    elif kind == "remove_unit":
        del state["units"][fact["id"]]
    elif kind == "tech":
        state["tech"] = fact["mark"]
    elif kind == "leader":
        state["leader"] = fact["seat"]
    elif kind == "lieutenants":
        state["lieutenants"] = list(fact["order"])
    elif kind == "sabotage":
        groups[fact["seat"]]["tried"].append(fact["unit"])
    elif kind == "over":
        state.update(over=fact["reason"], winners=fact["winners"], phase="over", prompt=None, active=None, queue=[])
    else:
        raise ValueError(f"unknown fact {kind!r}")
    return state
