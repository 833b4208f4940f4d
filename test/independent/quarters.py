"""A company's fourth fiscal quarters that its filings do not state, computed apart from the service from
EDGAR's company facts: the fiscal year less its first three quarters, all four from one concept.

Usage: quarters.py COMPANYFACTS_JSON CONCEPT...   For each fiscal year (a duration of 350 to 380 days) of the
first concept listed that states it, when no quarter (80 to 100 days) of any concept listed ends on the year's
end (a filing states that quarter) and exactly three quarters of the year's concept lie inside the year, prints year end -> {concept, value} with value the
year's figure less the three quarters' (each period at its latest filed value), unrounded, in the facts' unit.
"""

import json
import sys

import pandas as pd


def periods(facts, concept):
    entries = facts["facts"]["us-gaap"].get(concept, {}).get("units", {}).get("USD", [])
    frame = pd.DataFrame([e for e in entries if "start" in e])
    if frame.empty:
        return frame
    frame["start"] = pd.to_datetime(frame["start"])
    frame["end"] = pd.to_datetime(frame["end"])
    frame["days"] = (frame["end"] - frame["start"]).dt.days
    # Each period at the value of its latest filing.
    frame = frame.sort_values("filed").drop_duplicates(subset=["start", "end"], keep="last")
    return frame


def main():
    path, concepts = sys.argv[1], sys.argv[2:]
    with open(path) as f:
        facts = json.load(f)
    out = {}
    claimed = set()
    frames = {concept: periods(facts, concept) for concept in concepts}
    stated = set()
    for frame in frames.values():
        if not frame.empty:
            ends = frame[(frame["days"] >= 80) & (frame["days"] <= 100)]["end"]
            stated.update(ends.dt.strftime("%Y-%m-%d"))
    for concept in concepts:
        frame = frames[concept]
        if frame.empty:
            continue
        years = frame[(frame["days"] >= 350) & (frame["days"] <= 380)]
        quarters = frame[(frame["days"] >= 80) & (frame["days"] <= 100)]
        for _, year in years.iterrows():
            end = year["end"].strftime("%Y-%m-%d")
            if end in claimed:
                continue  # an earlier concept of the list states this year
            claimed.add(end)
            if end in stated:
                continue
            inside = quarters[(quarters["start"] >= year["start"]) & (quarters["end"] < year["end"])]
            inside = inside.drop_duplicates(subset=["end"], keep="last")
            if len(inside) != 3:
                continue
            out[end] = {"concept": concept, "value": float(year["val"] - inside["val"].sum())}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
