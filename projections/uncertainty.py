"""Win rates with their sample size and a 95 % Wilson score interval, and a two-proportion
test between the best and worst of a set (is the difference more than noise?).

Wilson, not the normal approximation: it stays inside [0, 1] and behaves at small n and at
rates near 0 or 1, which is exactly where game statistics live (a new card, a rare seat
count). Written out here (a dozen lines of arithmetic) rather than pulling in scipy.
"""

from math import erfc, sqrt

Z95 = 1.959963984540054


def win_rate(wins: int, n: int) -> dict | None:
    """{"rate", "wins", "n", "ci95": [low, high]}; None when nothing was played."""
    if not n:
        return None
    p = wins / n
    centre = (p + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
    half = Z95 * sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / (1 + Z95 ** 2 / n)
    return {"rate": round(p, 4), "wins": wins, "n": n, "ci95": [round(max(0.0, centre - half), 4),
                                                                round(min(1.0, centre + half), 4)]}


def difference(rates: dict) -> dict | None:
    """Between the highest and the lowest of `rates` ({label: win_rate}): a two-sided
    two-proportion z-test. With several labels this is the widest gap, so p is an
    optimistic (small) bound; the verdict says so."""
    present = {label: rate for label, rate in rates.items() if rate}
    if len(present) < 2:
        return None
    high = max(present, key=lambda label: present[label]["rate"])
    low = min(present, key=lambda label: present[label]["rate"])
    a, b = present[high], present[low]
    pooled = (a["wins"] + b["wins"]) / (a["n"] + b["n"])
    spread = sqrt(pooled * (1 - pooled) * (1 / a["n"] + 1 / b["n"]))
    p_value = 1.0 if spread == 0 else erfc(abs(a["rate"] - b["rate"]) / spread / sqrt(2))
    significant = p_value < 0.05
    return {"highest": high, "lowest": low, "p_value": round(p_value, 4), "significant": significant,
            "verdict": (f"{high} above {low} is significant at 5 % (two-proportion z-test, widest gap of "
                        f"{len(present)})" if significant else
                        f"the difference between {high} and {low} is not significant at 5 % (p = {p_value:.3f}); "
                        "more matches are needed to tell them apart")}
