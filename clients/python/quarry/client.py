"""The Quarry client: market data in the terminal's shape (bdp, bdh) and the stored datasets, as pandas
DataFrames when pandas is installed and as lists of dicts otherwise."""

from __future__ import annotations

import os
import time
import warnings
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Union

from .transport import LastResponse, Transport

try:  # pandas is optional
    import pandas as _pd
except ImportError:  # pragma: no cover - exercised by the run without pandas
    _pd = None

Tickers = Union[str, Sequence[str]]

#: The API's per-request limits: /v1/data takes 50 tickers x 25 fields, /v1/history 10 x 5.
DATA_TICKERS, DATA_FIELDS = 50, 25
HISTORY_TICKERS, HISTORY_FIELDS = 10, 5
DEFAULT_BASE_URL = "http://127.0.0.1:8080"
#: /v1/actions takes 100 tickers; each action's members, as the client's rows name them.
ACTIONS_TICKERS = 100
ACTION_COLUMNS = ["date", "type", "amount", "numerator", "denominator", "knownAt", "file", "repaired", "inDividend"]
#: The bulk fields bds serves, and the action types each is made of.
BULK_FIELDS = {"DVD_HIST_ALL": ["dividend", "capitalGain"], "EQY_SPLIT_HIST": ["split"]}


def _list(value: Tickers) -> List[str]:
    return [value] if isinstance(value, str) else list(value)


def _chunks(items: List[str], size: int) -> Iterable[List[str]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


class Client:
    """A caller of one Quarry host. `key` serves both APIs' calls unless `datasets_key` (gds_) or
    `market_key` (svc_mcp_) is given; they default to QUARRY_API_KEY, and the host to QUARRY_BASE_URL."""

    def __init__(
        self,
        key: Optional[str] = None,
        base_url: Optional[str] = None,
        timeout: float = 30.0,
        datasets_key: Optional[str] = None,
        market_key: Optional[str] = None,
        max_wait: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        key = key or os.environ.get("QUARRY_API_KEY")
        url = base_url or os.environ.get("QUARRY_BASE_URL") or DEFAULT_BASE_URL
        self._market = Transport(url, market_key or key, timeout, max_wait, sleep=sleep)
        self._datasets = Transport(url, datasets_key or key, timeout, max_wait, sleep=sleep)
        self._last: Optional[Transport] = None

    @property
    def last(self) -> Optional[LastResponse]:
        """The standing the last answer reported: credits or units taken and what remains."""
        return self._last.last if self._last else None

    def _call(self, transport: Transport, method: str, path: str, **kwargs: Any) -> Any:
        self._last = transport
        return transport.request(method, path, **kwargs)

    # Market data ---------------------------------------------------------------------------------------

    def quotes(self, tickers: Tickers) -> Any:
        """Full quotes, a row per ticker as sent; an item that failed keeps its row with its error."""
        answer = self._call(self._market, "POST", "/v1/quotes", body={"tickers": _list(tickers)})
        rows = [
            {"input": item["input"], "status": item["status"], **(item.get("quote") or {}), "error": item.get("error")}
            for item in answer["items"]
        ]
        return _frame(rows, index="input")

    def bdp(self, tickers: Tickers, fields: Tickers, period: Optional[str] = None, as_of: Optional[str] = None) -> Any:
        """Current values: a row per ticker and a column per field, both as sent. Errors never raise: they are
        kept in `df.attrs["errors"]` ({ticker: {field: {code, message}}}) and named in a warning. What the
        values are is kept beside them: `attrs["currency"]` (the unit each ticker's prices are in: GBp for
        "BARC LN Equity", GBP for "BARC.L"), `attrs["currencies"]` (fields in another currency), `attrs["as_of"]`
        ({ticker: {field: when the value was true}}) and `attrs["stale"]` ({ticker: why its values are old})."""
        tickers, fields = _list(tickers), _list(fields)
        values: Dict[str, Dict[str, Any]] = {t: {f: None for f in fields} for t in tickers}
        errors: Dict[str, Dict[str, Any]] = {}
        standing = _Standing()
        for some_fields in _chunks(fields, DATA_FIELDS):
            for some_tickers in _chunks(tickers, DATA_TICKERS):
                body = {"tickers": some_tickers, "fields": some_fields, "period": period, "asOf": as_of}
                answer = self._call(self._market, "POST", "/v1/data", body=_given(body))
                for item in answer["items"]:
                    row = values.setdefault(item["input"], {f: None for f in fields})
                    row.update(item.get("values") or {})
                    _keep_errors(errors, item, some_fields)
                    standing.keep(item)
        _warn(errors)
        if _pd is None:
            return {"values": values, "errors": errors, **standing.members()}
        frame = _pd.DataFrame.from_dict(values, orient="index", columns=fields).reindex(tickers)
        frame.attrs["errors"] = errors
        frame.attrs.update(standing.members())
        return frame

    def bdh(
        self,
        tickers: Tickers,
        fields: Tickers,
        start: Optional[str] = None,
        end: Optional[str] = None,
        period: str = "daily",
        as_of: Optional[str] = None,
        adjust: Optional[str] = None,
    ) -> Any:
        """Rows between dates: a DatetimeIndex and (ticker, field) columns, requests split over the API's
        limits (10 tickers x 5 fields) and joined. `adjust` is "split" (the default), "none" (prices as traded)
        or "total" (dividends reinvested); TOT_RETURN_INDEX_GROSS_DVDS is the total-return index. Errors are kept in `df.attrs["errors"]`, as in bdp, and so are
        `attrs["currency"]` and `attrs["stale"]`; `attrs["held"]` ({ticker: {start, end}}) names the dates a
        ticker's rows cover where they cover less than the window: its columns are empty (NaN) outside them,
        and a warning says so. `attrs["repaired"]` ({ticker: [{date, field, from, to, reason}]}) names each bar
        value served otherwise than the source sent it (a price in the other unit, a split not applied)."""
        tickers, fields = _list(tickers), _list(fields)
        rows: List[Dict[str, Any]] = []
        errors: Dict[str, Dict[str, Any]] = {}
        standing = _Standing()
        for some_fields in _chunks(fields, HISTORY_FIELDS):
            for some_tickers in _chunks(tickers, HISTORY_TICKERS):
                body = {"tickers": some_tickers, "fields": some_fields, "start": start, "end": end}
                body.update({"period": period, "asOf": as_of, "adjust": adjust})
                answer = self._call(self._market, "POST", "/v1/history", body=_given(body))
                for item in answer["items"]:
                    _keep_errors(errors, item, some_fields)
                    standing.keep(item)
                    for row in item.get("rows") or []:
                        for field in some_fields:
                            if field in row:
                                rows.append({"date": row["date"], "ticker": item["input"], "field": field, "value": row[field]})
        _warn(errors)
        _warn_held(standing.held)
        if _pd is None:
            return {"rows": rows, "errors": errors, **standing.members()}
        columns = _pd.MultiIndex.from_product([tickers, fields], names=["ticker", "field"])
        if rows:
            long = _pd.DataFrame(rows)
            frame = long.pivot_table(index="date", columns=["ticker", "field"], values="value", aggfunc="last")
        else:
            frame = _pd.DataFrame()
        frame = frame.reindex(columns=columns)
        frame.index = _pd.DatetimeIndex(frame.index, name="date")
        frame.attrs["errors"] = errors
        frame.attrs.update(standing.members())
        return frame

    def actions(
        self,
        tickers: Tickers,
        start: Optional[str] = None,
        end: Optional[str] = None,
        types: Optional[Sequence[str]] = None,
        adjust: Optional[str] = None,
        as_of: Optional[str] = None,
    ) -> Any:
        """Corporate actions, a row each: ticker (as sent), ex-date, type (dividend, split, capitalGain), amount
        per share in the ticker's price currency (today's shares; as paid with adjust="none"), numerator and
        denominator of a split, when it became known, the `file` that loaded it (stored actions), `repaired` ({from, reason} where the amount served is not
        the one the source sent, else None) and `inDividend` (a capital gain inside the same day's dividend). Requests of up to 100 tickers, joined. Errors never
        raise: they are kept in attrs["errors"] ({ticker: {code, message}}) and named in a warning;
        attrs["currency"] gives each ticker's currency. `as_of` (a date) reads them as known at the end of it."""
        tickers = _list(tickers)
        rows: List[Dict[str, Any]] = []
        errors: Dict[str, Any] = {}
        currency: Dict[str, str] = {}
        for some in _chunks(tickers, ACTIONS_TICKERS):
            body = {"tickers": some, "start": start, "end": end, "adjust": adjust, "asOf": as_of}
            body["types"] = list(types) if types is not None else None
            answer = self._call(self._market, "POST", "/v1/actions", body=_given(body))
            for item in answer["items"]:
                if item.get("error"):
                    errors[item["input"]] = item["error"]
                    continue
                currency[item["input"]] = item["currency"]
                for action in item["actions"]:
                    rows.append({"ticker": item["input"], **{c: action.get(c) for c in ACTION_COLUMNS}})
        if errors:
            warnings.warn(f"quarry: no actions for {', '.join(errors)}; see .attrs['errors']", stacklevel=2)
        if _pd is None:
            return {"rows": rows, "errors": errors, "currency": currency}
        frame = _pd.DataFrame(rows, columns=["ticker", *ACTION_COLUMNS])
        frame["date"] = _pd.to_datetime(frame["date"])
        frame.attrs.update({"errors": errors, "currency": currency})
        return frame

    def bds(self, tickers: Tickers, field: str, **options: Any) -> Any:
        """The terminal's bulk fields: DVD_HIST_ALL (cash dividends and capital gains) and EQY_SPLIT_HIST
        (splits), as actions() answers them; `options` as actions takes (start, end, adjust, as_of)."""
        kinds = BULK_FIELDS.get(field.upper())
        if kinds is None:
            raise ValueError(f"bds serves {', '.join(BULK_FIELDS)}; not {field}")
        return self.actions(tickers, types=kinds, **options)

    def fields(self, query: Optional[str] = None) -> Any:
        """The field dictionary, or the fields whose id, mnemonic or description holds `query` (any case)."""
        answer = self._call(self._market, "GET", "/v1/fields")
        found = answer["fields"]
        if query:
            word = query.lower()
            found = [f for f in found if word in " ".join(str(v) for v in f.values()).lower()]
        return _frame(found)

    def search(self, text: str) -> Any:
        """Instruments whose symbol or name holds `text`."""
        return _frame(self._call(self._market, "GET", "/v1/search", query={"q": text})["items"])

    # Stored datasets ---------------------------------------------------------------------------------

    def cot(
        self,
        contract_code: Optional[str] = None,
        report: str = "legacy",
        trader_class: Optional[str] = None,
        as_of: Optional[str] = None,
    ) -> Any:
        """The COT board (every contract of the latest report), or one contract's history."""
        path = f"/v1/cftc/cot/contracts/{contract_code}" if contract_code else "/v1/cftc/cot"
        query = {"report": report, "traderClass": trader_class, "asOf": as_of}
        return _rows(self._call(self._datasets, "GET", path, query=query), "rows")

    def cpi(self, as_of: Optional[str] = None) -> Any:
        """The CPI board's components."""
        return _rows(self._call(self._datasets, "GET", "/v1/macro/cpi", query={"asOf": as_of}), "rows")

    def energy(self, as_of: Optional[str] = None) -> Any:
        """The energy inventories board's series."""
        return _rows(self._call(self._datasets, "GET", "/v1/energy/inventories", query={"asOf": as_of}), "series")

    def rates_curve(self, date: Optional[str] = None, as_of: Optional[str] = None) -> Any:
        """Treasury's par yield curve of `date` (default the newest): a row a tenor, with its yield and changes
        in basis points; the spreads (2s10s, 3m10y) and the days compared with in attrs["data"]."""
        answer = self._call(self._datasets, "GET", "/v1/rates/treasury/curve", query={"date": date, "asOf": as_of})
        return _rows(answer, "tenors")

    def rates(
        self,
        tenors: Union[str, Sequence[str]],
        start: Optional[str] = None,
        end: Optional[str] = None,
        series: str = "par",
        as_of: Optional[str] = None,
    ) -> Any:
        """Treasury rates between two days: a row a day, a column a tenor ("2Y", "10Y"; bills "13W" with
        series "bill-coupon" or "bill-discount"), in percent; a day a tenor lacks is NaN. One call a tenor.
        attrs keep the read's times, the newest of the tenors' (as_of, newest_period), and every gap."""
        names = [tenors] if isinstance(tenors, str) else list(tenors)
        answers = [
            self._call(
                self._datasets,
                "GET",
                f"/v1/rates/treasury/tenors/{_path(tenor)}",
                query={"series": series, "from": start, "to": end, "asOf": as_of},
            )
            for tenor in names
        ]
        days: Dict[str, Dict[str, float]] = {}
        for tenor, answer in zip(names, answers):
            for row in answer["data"]["rows"]:
                days.setdefault(row["date"], {})[tenor] = row["value"]
        if _pd is None:
            return [{"date": day, **values} for day, values in sorted(days.items())]
        frame = _pd.DataFrame.from_dict(days, orient="index", columns=names).sort_index()
        frame.index.name = "date"
        newest = max(answers, key=lambda a: a["meta"].get("asOf") or "")
        _standing(frame, newest)
        frame.attrs["newest_period"] = max((a["meta"].get("newestPeriod") or "" for a in answers), default="") or None
        gaps: List[str] = []
        for answer in answers:
            gaps.extend(g for g in answer["data"].get("gaps") or [] if g not in gaps)
        partial = any(a["data"].get("status") == "partial" for a in answers)
        frame.attrs["status"] = "partial" if partial else "available"
        frame.attrs["gaps"] = gaps
        frame.attrs["series"] = series
        return frame

    def awards(self, max_rows: Optional[int] = None, as_of: Optional[str] = None, **filters: Any) -> Any:
        """Awards matching the filters (as the API names them: agency, fiscalYear, query, …), every page
        followed through nextCursor up to `max_rows`; with `as_of`, as their sources had published them then."""
        rows: List[Dict[str, Any]] = []
        cursor = None
        first: Optional[Dict[str, Any]] = None
        while max_rows is None or len(rows) < max_rows:
            query = {**filters, "asOf": as_of, "cursor": cursor}
            answer = self._call(self._datasets, "GET", "/v1/awards", query=query)
            first = first or answer
            rows.extend(answer["data"]["rows"])
            cursor = answer["data"].get("nextCursor")
            if not cursor:
                break
        frame = _frame(rows[:max_rows] if max_rows is not None else rows)
        if _pd is not None and first is not None:
            # The first page's standing: awards come newest first, so it holds the newest of them.
            _standing(frame, first)
        return frame

    def award(self, award_id: str, as_of: Optional[str] = None) -> Dict[str, Any]:
        """One award with its details and revisions (the version known at `as_of`), as the API answers it."""
        path = f"/v1/awards/{_path(award_id)}"
        return self._call(self._datasets, "GET", path, query={"asOf": as_of})["data"]

    def events(self, symbol: str, limit: Optional[int] = None, as_of: Optional[str] = None) -> Any:
        """A company's 8-K events, newest first."""
        query = {"limit": limit, "asOf": as_of}
        return _rows(self._call(self._datasets, "GET", f"/v1/events/{_path(symbol)}", query=query), "events")

    def kpis(self, symbol: str, as_of: Optional[str] = None, **filters: Any) -> Any:
        """A company's reported KPIs (filters: metric, basis, from, to), as known at `as_of`."""
        query = {**filters, "asOf": as_of}
        return _rows(self._call(self._datasets, "GET", f"/v1/kpis/{_path(symbol)}", query=query), "series")

    def guidance(self, symbol: str, as_of: Optional[str] = None, **filters: Any) -> Any:
        """A company's guidance (filters as kpis), as known at `as_of`."""
        query = {**filters, "asOf": as_of}
        return _rows(self._call(self._datasets, "GET", f"/v1/guidance/{_path(symbol)}", query=query), "series")

    def exec_pay(self, symbol: str, year: Optional[int] = None, as_of: Optional[str] = None) -> Any:
        """A company's executive pay from its proxies, or for one fiscal year; the proxies filed by `as_of`."""
        path = f"/v1/exec-pay/{_path(symbol)}" + (f"/{year}" if year is not None else "")
        return _rows(self._call(self._datasets, "GET", path, query={"asOf": as_of}), "proxies")

    def changes(self, dataset: str, since: Optional[str] = None, limit: Optional[int] = None) -> Any:
        """The revisions of a dataset written after `since` (a cursor this call gave before; from the first
        revision without it), oldest first, every page followed to the end. The cursor to pass next time is
        `df.attrs["next_cursor"]` (without pandas: the answer's "next_cursor")."""
        changes: List[Dict[str, Any]] = []
        cursor = since
        while True:
            query = {"since": cursor, "limit": limit}
            answer = self._call(self._datasets, "GET", f"/v1/datasets/{_path(dataset)}/changes", query=query)
            page = answer["data"]["changes"]
            changes.extend(page)
            cursor = answer["data"]["nextCursor"]
            if not page:
                break
        if _pd is None:
            return {"changes": changes, "next_cursor": cursor}
        frame = _frame(changes)
        frame.attrs["next_cursor"] = cursor
        return frame

    def bulk(self, dataset: str, dest: str, format: str = "csv", as_of: Optional[str] = None) -> Dict[str, Any]:
        """The whole dataset (as known at `as_of`) in one file written to `dest`: csv, ndjson or parquet. One
        charged call (25 credits); a download that broke off is resumed from the bytes already held (in
        `dest + ".part"`), for nothing within a day of the charge. Returns the path, version, rows and ETag;
        `pandas.read_csv(dest)` reads a CSV file into a DataFrame."""
        query = {"format": format, "asOf": as_of}
        self._last = self._datasets
        return self._datasets.download(f"/v1/datasets/{_path(dataset)}/bulk", query, dest)

    def account(self) -> Dict[str, Any]:
        """The datasets key's account: plan and credits."""
        return self._call(self._datasets, "GET", "/v1/datasets/account")

    def usage(self) -> Dict[str, Any]:
        """The account's usage by day."""
        return self._call(self._datasets, "GET", "/v1/datasets/usage")

    def estimate(self, endpoint: str, **params: Any) -> Dict[str, Any]:
        """What a described call would cost (no key, no credits)."""
        return self._call(self._datasets, "GET", "/v1/datasets/cost", query={"endpoint": endpoint, **params})


def _given(body: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in body.items() if v is not None}


def _path(segment: str) -> str:
    from urllib.parse import quote

    return quote(segment, safe="")


def _keep_errors(errors: Dict[str, Dict[str, Any]], item: Dict[str, Any], fields: List[str]) -> None:
    if item.get("error"):
        for field in fields:
            errors.setdefault(item["input"], {})[field] = item["error"]
    for field, error in (item.get("errors") or {}).items():
        errors.setdefault(item["input"], {})[field] = error


class _Standing:
    """What a market answer says of its values, per ticker: the unit of its prices, fields in another currency,
    when each value was true, why it is old, the dates its rows cover, where each value came from (`sources`:
    {ticker: {field: the upstream that answered, or "stored"}}; `files`: {ticker: [{file, start, end}]}, the files
    stored rows were loaded from and the days each brought), and what was repaired (history: each bar
    value served otherwise than sent, {date, field, from, to, reason}; data: each computed field measured over
    repaired closes, and why)."""

    def __init__(self) -> None:
        self.currency: Dict[str, str] = {}
        self.currencies: Dict[str, Dict[str, str]] = {}
        self.as_of: Dict[str, Dict[str, str]] = {}
        self.stale: Dict[str, str] = {}
        self.held: Dict[str, Dict[str, str]] = {}
        self.repaired: Dict[str, Any] = {}
        self.sources: Dict[str, Dict[str, str]] = {}
        self.disputed: Dict[str, List[Dict[str, Any]]] = {}
        self.files: Dict[str, List[Dict[str, str]]] = {}

    def keep(self, item: Dict[str, Any]) -> None:
        ticker = item["input"]
        resolved = item.get("resolved") or {}
        if resolved.get("currency"):
            self.currency[ticker] = resolved["currency"]
        if item.get("currencies"):
            self.currencies.setdefault(ticker, {}).update(item["currencies"])
        if item.get("asOf"):
            self.as_of.setdefault(ticker, {}).update(item["asOf"])
        if item.get("stale"):
            self.stale[ticker] = item.get("staleReason") or "stale"
        if item.get("held"):
            self.held[ticker] = item["held"]
        # Each value's source: the item's, or the one `sources` names for it.
        source = item.get("source")
        if source:
            rows = item.get("rows") or []
            fields = list(item.get("values") or {}) or [f for f in (rows[0] if rows else {}) if f != "date"]
            named = item.get("sources") or {}
            self.sources.setdefault(ticker, {}).update({f: named.get(f, source) for f in fields})
        if item.get("disputed"):
            self.disputed.setdefault(ticker, []).extend(item["disputed"])
        if item.get("files"):
            self.files.setdefault(ticker, []).extend(item["files"])
        if isinstance(item.get("repaired"), list):
            self.repaired.setdefault(ticker, []).extend(item["repaired"])
        elif item.get("repaired"):
            self.repaired.setdefault(ticker, {}).update(item["repaired"])

    def members(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"currency": self.currency, "stale": self.stale}
        if self.currencies:
            out["currencies"] = self.currencies
        if self.as_of:
            out["as_of"] = self.as_of
        if self.held:
            out["held"] = self.held
        if self.repaired:
            out["repaired"] = self.repaired
        if self.sources:
            out["sources"] = self.sources
        if self.disputed:
            out["disputed"] = self.disputed
        if self.files:
            out["files"] = self.files
        return out


def _warn_held(held: Dict[str, Dict[str, str]]) -> None:
    if held:
        named = ", ".join(f"{t} ({h['start']} to {h['end']})" for t, h in held.items())
        warnings.warn(f"quarry: rows held only for {named}; the other dates are empty, see .attrs['held']", stacklevel=3)


def _warn(errors: Dict[str, Dict[str, Any]]) -> None:
    if errors:
        named = ", ".join(f"{t} ({', '.join(sorted(fs))})" for t, fs in errors.items())
        warnings.warn(f"quarry: no value for {named}; see .attrs['errors']", stacklevel=3)


def _frame(rows: List[Dict[str, Any]], index: Optional[str] = None) -> Any:
    if _pd is None:
        return rows
    frame = _pd.json_normalize(rows) if rows else _pd.DataFrame()
    return frame.set_index(index) if index and not frame.empty else frame


def _rows(answer: Dict[str, Any], member: str) -> Any:
    """A dataset answer's list as a frame, its other members (and meta) kept in attrs."""
    data = answer["data"]
    frame = _frame(data.get(member) or [])
    if _pd is not None:
        frame.attrs["data"] = {k: v for k, v in data.items() if k != member}
        _standing(frame, answer)
    return frame


def _standing(frame: Any, answer: Dict[str, Any]) -> None:
    """What a dataset answer says of itself, under the names every dataset shares: meta whole, and beside it
    the instant it was read as of (read_as_of), when its newest record became known (as_of, and from where:
    known_from), the newest period it holds (newest_period), and its status and gaps where it has them."""
    meta = answer.get("meta") or {}
    data = answer.get("data") or {}
    frame.attrs["meta"] = meta
    frame.attrs["read_as_of"] = meta.get("readAsOf")
    frame.attrs["as_of"] = meta.get("asOf")
    frame.attrs["known_from"] = meta.get("knownFrom")
    frame.attrs["newest_period"] = meta.get("newestPeriod")
    if isinstance(data.get("status"), str):
        frame.attrs["status"] = data["status"]
        frame.attrs["gaps"] = list(data.get("gaps") or [])
