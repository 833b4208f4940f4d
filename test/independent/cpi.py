"""The demo's CPI board recomputed apart from the service: the BLS files in assets/bls/ read here with the
standard library and pandas, each (series, month) taking the value of the newest vintage that has it (the
March 2026 all-items file over the August 2025 component files). For the month given, every U.S. city average
item with a value: the month-on-month change of its seasonally adjusted index (else the unadjusted one), the
year-on-year change of its unadjusted index (else the adjusted one), and the 3- and 6-month changes of the
adjusted index compounded to annual rates, in percent, unrounded. Prints {item: {change, yoy, annualized3m,
annualized6m}} as JSON, with the items the item list names."""
import io
import json
import sys
import zipfile
from pathlib import Path

import pandas as pd

BLS = Path("assets/bls")


def table(text):
    frame = pd.read_csv(io.StringIO(text), sep="\t", dtype=str)
    frame.columns = [c.strip() for c in frame.columns]
    return frame.apply(lambda column: column.str.strip())


def read(path):
    if path.suffix == ".zip":
        with zipfile.ZipFile(path) as archive:
            return table(archive.read(archive.namelist()[0]).decode("utf-8"))
    return table(path.read_text(encoding="utf-8"))


def levels():
    # Oldest vintage first: a later file's value replaces an earlier one's for the same series and month.
    files = sorted((BLS / "cu_2025-08").glob("cu.data.*.zip")) + [BLS / "cu.data.1.AllItems"]
    frame = pd.concat([read(path) for path in files], ignore_index=True)
    frame = frame[frame["period"].str.match(r"^M(0[1-9]|1[0-2])$") & (frame["value"] != "-")]
    # U.S. city average (area 0000), monthly (R): CU + S|U + R + 0000 + the item code.
    frame = frame[frame["series_id"].str[3:8] == "R0000"]
    frame = frame.assign(
        seasonal=frame["series_id"].str[2],
        item=frame["series_id"].str[8:],
        month=frame["year"] + "-" + frame["period"].str[1:],
        value=frame["value"].astype(float),
    )
    return frame.drop_duplicates(["series_id", "month"], keep="last")


def shifted(month, back):
    year, number = map(int, month.split("-"))
    total = year * 12 + number - 1 - back
    return f"{total // 12}-{total % 12 + 1:02d}"


def change(series, month, back, annual=False):
    now, then = series.get(month), series.get(shifted(month, back))
    if now is None or then is None or then == 0:
        return None
    ratio = now / then
    return ((ratio ** (12 / back)) - 1) * 100 if annual else ratio * 100 - 100


def main():
    month = sys.argv[1]
    frame = levels()
    named = set(read(BLS / "cu.item")["item_code"])
    by_series = {key: dict(zip(group["month"], group["value"])) for key, group in frame.groupby(["item", "seasonal"])}
    out = {}
    for item in sorted(set(frame["item"]) & named):
        adjusted = by_series.get((item, "S")) or by_series.get((item, "U"))
        unadjusted = by_series.get((item, "U")) or by_series.get((item, "S"))
        if month not in adjusted and month not in unadjusted:
            continue
        out[item] = {
            "change": change(adjusted, month, 1),
            "yoy": change(unadjusted, month, 12),
            "annualized3m": change(adjusted, month, 3, annual=True),
            "annualized6m": change(adjusted, month, 6, annual=True),
        }
    print(json.dumps(out))


main()
