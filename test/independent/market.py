"""Beta and volatility of the demo's US listings, computed apart from the service with pandas, from the price
files themselves (assets/market/). Prints one JSON object: per ticker, raw and adjusted beta against the
S&P 500 with the first and last dates of the window, and volatility over 30, 90 and 260 days.

Beta: weekly closes (the last close of each Monday-to-Sunday week, dated that day), the weeks both the listing
and the index hold, the last 105 of them, simple returns, the least-squares slope of the listing's returns on
the index's; adjusted 0.67 x raw + 0.33. Volatility: the sample standard deviation of the last N daily log
returns x sqrt(260), in percent. A price written as a single-precision number (280.1400146484375) is read as
the shortest decimal numpy gives that single-precision number (280.14), as Yahoo published it.
"""
import json
import math
import sys

import numpy as np
import pandas as pd

MARKET = "assets/market"
LISTINGS = f"{MARKET}/ahmedhussain47-Praktikum-Equity-Analysis-Embedding"


def published(value):
    """numpy prints a float32 as the shortest decimal that reads back as it."""
    single = np.float32(value)
    return float(str(single)) if float(single) == value else value


def closes(path, date_column, close_column, through=None):
    frame = pd.read_csv(path, float_precision="round_trip")
    # The dashboard's file stamps each day with its time zone ("2024-07-01 00:00:00-04:00"): the day is the date.
    values = [published(v) for v in frame[close_column].values]
    series = pd.Series(values, index=frame[date_column].astype(str).str[:10])
    if through is not None:
        series = series[series.index <= through]
    return series.sort_index()


def sp500():
    # Two files: 2021-01-04..2025-12-31, and 2024-07-01..2026-06-29 whose last day was still trading (dropped).
    older = closes(f"{MARKET}/jaiveer28-ets-simulator/^GSPC.csv", "date", "Close")
    newer = closes(f"{MARKET}/fsoaz-financial-market-dashboard/^GSPC.csv", "date", "close", through="2026-06-26")
    joined = pd.concat([older, newer])
    return joined[~joined.index.duplicated(keep="last")].sort_index()


def weekly(series):
    frame = series.to_frame("close")
    dates = pd.to_datetime(frame.index)
    frame["week"] = (dates - pd.to_timedelta(dates.weekday, unit="D")).strftime("%Y-%m-%d")
    frame["date"] = frame.index
    return frame.groupby("week").last()


def beta(listing, index, weeks=104):
    both = weekly(listing).join(weekly(index), lsuffix="_listing", rsuffix="_index", how="inner").tail(weeks + 1)
    x = both["close_index"].pct_change().dropna()
    y = both["close_listing"].pct_change().dropna()
    raw = x.cov(y) / x.var()
    first = both.iloc[0]
    last = both.iloc[-1]
    return {
        "betaRaw": raw,
        "betaAdjusted": 0.67 * raw + 0.33,
        "from": min(first["date_listing"], first["date_index"]),
        "to": min(last["date_listing"], last["date_index"]),
    }


def volatility(series, days):
    returns = [math.log(b / a) for a, b in zip(series.values[-(days + 1):-1], series.values[-days:])]
    return pd.Series(returns).std() * math.sqrt(260) * 100


def main():
    index = sp500()
    out = {}
    for ticker in sys.argv[1:]:
        listing = closes(f"{LISTINGS}/{ticker}.csv", "Date", "close")
        out[ticker] = {
            **beta(listing, index),
            **{f"volatility{d}d": volatility(listing, d) for d in (30, 90, 260)},
            "lastClose": listing.index[-1],
        }
    print(json.dumps(out))


main()
