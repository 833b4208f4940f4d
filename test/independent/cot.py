"""The COT board's derived figures, computed apart from the service from the CFTC's own year files.

Usage: cot.py FAMILY FILE...   (legacy: annual.txt zips, the non-commercial class; disaggregated: f_year.txt
zips, managed money). Reads every file, keeps one row per (contract, report date), and for each contract on the
newest report date prints its net, net as a percent of open interest, weekly change and the 1- and 3-year
percentiles (mid-rank among the nets of the 52 x years weekly slots ending on that date), unrounded.
"""

import json
import sys

import pandas as pd

COLUMNS = {
    "legacy": {
        "date": "As of Date in Form YYYY-MM-DD",
        "code": "CFTC Contract Market Code",
        "oi": "Open Interest (All)",
        "long": "Noncommercial Positions-Long (All)",
        "short": "Noncommercial Positions-Short (All)",
    },
    "disaggregated": {
        "date": "Report_Date_as_YYYY-MM-DD",
        "code": "CFTC_Contract_Market_Code",
        "oi": "Open_Interest_All",
        "long": "M_Money_Positions_Long_All",
        "short": "M_Money_Positions_Short_All",
    },
}


def read(family, files):
    names = COLUMNS[family]
    frames = []
    for path in files:
        raw = pd.read_csv(path, dtype=str, skipinitialspace=True)
        raw.columns = [c.strip() for c in raw.columns]
        frame = pd.DataFrame(
            {
                "date": pd.to_datetime(raw[names["date"]].str.strip().str[:10]),
                "code": raw[names["code"]].str.strip(),
                "oi": pd.to_numeric(raw[names["oi"]].str.strip()),
                "long": pd.to_numeric(raw[names["long"]].str.strip()),
                "short": pd.to_numeric(raw[names["short"]].str.strip()),
            }
        )
        frames.append(frame)
    rows = pd.concat(frames, ignore_index=True)
    rows = rows.drop_duplicates(subset=["code", "date"], keep="last")
    rows["net"] = rows["long"] - rows["short"]
    return rows.sort_values(["code", "date"])


def percentile(history, end, current, years):
    start = end - pd.Timedelta(weeks=52 * years - 1)
    samples = history[(history["date"] >= start) & (history["date"] <= end)]["net"]
    n = len(samples)
    below = int((samples < current).sum())
    equal = int((samples == current).sum())
    return {
        "value": None if n < 2 else 100 * (below + (equal - 1) / 2) / (n - 1),
        "rank": below + 1,
        "sampleCount": n,
        "windowStart": start.strftime("%Y-%m-%d"),
        "min": int(samples.min()),
        "max": int(samples.max()),
        "mean": float(samples.mean()),
    }


def main():
    family, files = sys.argv[1], sys.argv[2:]
    rows = read(family, files)
    newest = rows["date"].max()
    out = {}
    for code, history in rows.groupby("code"):
        today = history[history["date"] == newest]
        if today.empty:
            continue
        current = today.iloc[0]
        week_before = history[history["date"] == newest - pd.Timedelta(days=7)]
        out[code] = {
            "reportDate": newest.strftime("%Y-%m-%d"),
            "net": int(current["net"]),
            "netPercentOfOpenInterest": None if current["oi"] <= 0 else 100 * current["net"] / current["oi"],
            "weeklyChange": None if week_before.empty else int(current["net"] - week_before.iloc[0]["net"]),
            "percentile1Y": percentile(history, newest, current["net"], 1),
            "percentile3Y": percentile(history, newest, current["net"], 3),
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
