"""The energy board's derived figures, computed apart from the service from the EIA's own workbook.

Usage: energy.py PSW01_XLS DATE   Reads every series of the weekly petroleum stocks workbook (psw01.xls, its
Data sheets: a Sourcekey row names each column's series) with xlrd, and for the week ending DATE prints, per
series: its value, the previous week's, the week change, the year-ago value (the week ending within three days
of the same date a year before) and the five-year average (the same week in each of the five years before, all
five held), unrounded. A series without a value that week is left out.
"""

import json
import sys

import pandas as pd
import xlrd


def series_of(path):
    book = xlrd.open_workbook(path)
    columns = {}
    for name in book.sheet_names():
        if not name.startswith("Data"):
            continue
        sheet = book.sheet_by_name(name)
        keys = sheet.row_values(1)
        for col in range(1, sheet.ncols):
            points = {}
            for row in range(3, sheet.nrows):
                date, value = sheet.cell_value(row, 0), sheet.cell_value(row, col)
                if value == "" or date == "":
                    continue
                day = pd.Timestamp(xlrd.xldate_as_datetime(date, book.datemode)).normalize()
                points[day] = float(value)
            columns[keys[col]] = pd.Series(points).sort_index()
    return columns


def same_week(series, day, years):
    target = day - pd.DateOffset(years=years)
    near = series[(series.index >= target - pd.Timedelta(days=3)) & (series.index <= target + pd.Timedelta(days=3))]
    return None if near.empty else float(near.iloc[0])


def main():
    path, date = sys.argv[1], pd.Timestamp(sys.argv[2])
    out = {}
    for key, series in series_of(path).items():
        if date not in series.index:
            continue
        value = float(series[date])
        before = series[series.index < date]
        previous = float(before.iloc[-1]) if len(before) else None
        years = [same_week(series, date, n) for n in range(1, 6)]
        out[key] = {
            "value": value,
            "weekChange": None if previous is None else value - previous,
            "yearAgo": years[0],
            "fiveYear": None if any(v is None for v in years) else sum(years) / 5,
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
