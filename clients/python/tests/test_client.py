"""The client against a real Quarry server started by the project's test run (test/clients/python.test.ts),
which loads the recorded files and passes the host and keys: QUARRY_BASE_URL, QUARRY_MARKET_KEY,
QUARRY_DATASETS_KEY. Each answer is compared with what the REST API itself answers to the same call."""

import json
import os
import urllib.request

import pytest

import quarry
from quarry import client as client_module

BASE = os.environ["QUARRY_BASE_URL"]
MARKET = os.environ["QUARRY_MARKET_KEY"]
DATASETS = os.environ["QUARRY_DATASETS_KEY"]
PANDAS = client_module._pd is not None


def rest(method, path, key, body=None):
    """The REST answer, read here without the client."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"authorization": f"Bearer {key}", "content-type": "application/json"}
    with urllib.request.urlopen(urllib.request.Request(BASE + path, data=data, headers=headers, method=method)) as res:
        return json.loads(res.read().decode())


@pytest.fixture
def client():
    return quarry.Client(base_url=BASE, market_key=MARKET, datasets_key=DATASETS)


def test_one_key_from_the_environment_serves_calls(monkeypatch):
    monkeypatch.setenv("QUARRY_API_KEY", MARKET)
    monkeypatch.setenv("QUARRY_BASE_URL", BASE)
    assert quarry.Client().search("barclays") is not None


def test_bdp_rows_as_sent_columns_as_sent_errors_kept(client):
    tickers, fields = ["AAPL", "BARC LN Equity", "NOPE.XX"], ["PX_LAST", "EQY_BETA"]
    expected = rest("POST", "/v1/data", MARKET, {"tickers": tickers, "fields": fields})["items"]
    with pytest.warns(UserWarning, match="NOPE.XX"):
        answer = client.bdp(tickers, fields)
    values = {item["input"]: item.get("values") or {} for item in expected}
    if PANDAS:
        assert list(answer.index) == tickers and list(answer.columns) == fields
        assert answer.loc["AAPL", "PX_LAST"] == values["AAPL"]["PX_LAST"]
        assert answer.loc["BARC LN Equity", "PX_LAST"] == values["BARC LN Equity"]["PX_LAST"]
        errors = answer.attrs["errors"]
    else:
        assert answer["values"]["AAPL"]["PX_LAST"] == values["AAPL"]["PX_LAST"]
        errors = answer["errors"]
    # A field that does not apply, and a ticker that is not found, each keep their row with the API's code.
    assert errors["BARC LN Equity"]["EQY_BETA"]["code"] == "not_applicable"
    assert errors["NOPE.XX"]["PX_LAST"]["code"] == "not_found"


def test_bdp_keeps_what_the_values_are_currency_time_and_staleness(client):
    tickers, fields = ["BARC LN Equity", "BARC.L", "AAPL"], ["PX_LAST", "CUR_MKT_CAP"]
    expected = {item["input"]: item for item in rest("POST", "/v1/data", MARKET, {"tickers": tickers, "fields": fields})["items"]}
    answer = client.bdp(tickers, fields)
    attrs = answer.attrs if PANDAS else answer
    # Pence under the terminal form, pounds under the exchange suffix: the two columns are 100x apart, and say so.
    assert attrs["currency"]["BARC LN Equity"] == "GBp" and attrs["currency"]["BARC.L"] == "GBP"
    for ticker in tickers:
        assert attrs["currency"][ticker] == expected[ticker]["resolved"]["currency"]
        assert attrs["as_of"][ticker] == expected[ticker]["asOf"]
        if expected[ticker].get("stale"):
            assert attrs["stale"][ticker] == expected[ticker]["staleReason"]
        else:
            assert ticker not in attrs["stale"]
    assert attrs["stale"], "the recorded files are old: some item is stale"


def test_bdh_says_which_dates_a_ticker_holds_when_the_window_runs_past_them(client):
    tickers, window = ["BARC.L", "AAPL"], {"start": "2023-08-01", "end": "2023-12-29"}
    expected = {item["input"]: item for item in rest("POST", "/v1/history", MARKET, {"tickers": tickers, "fields": ["PX_LAST"], **window})["items"]}
    with pytest.warns(UserWarning, match="rows held only for"):
        answer = client.bdh(tickers, ["PX_LAST"], **window)
    attrs = answer.attrs if PANDAS else answer
    held = {t: item["held"] for t, item in expected.items() if item.get("held")}
    assert held and attrs["held"] == held
    for ticker in tickers:
        assert attrs["currency"][ticker] == expected[ticker]["resolved"]["currency"]


def test_bdh_splits_over_the_limits_and_joins(client):
    # Six fields: more than a history request takes (five), so two requests, joined.
    fields = ["PX_LAST", "PX_OPEN", "PX_HIGH", "PX_LOW", "PX_VOLUME", "PX_LAST"][:5] + ["CHG_PCT_1D"]
    tickers = ["BARC.L", "AAPL"]
    window = {"start": "2023-08-21", "end": "2023-08-25"}
    frame = client.bdh(tickers, fields, **window)
    first = rest("POST", "/v1/history", MARKET, {"tickers": tickers, "fields": fields[:5], **window})["items"]
    by_ticker = {item["input"]: item["rows"] for item in first}
    if PANDAS:
        assert list(frame.columns.names) == ["ticker", "field"]
        assert frame.shape == (5, 12)
        assert str(frame.index.dtype).startswith("datetime64")
        for ticker in tickers:
            for row in by_ticker[ticker]:
                assert frame.loc[row["date"], (ticker, "PX_LAST")] == row["PX_LAST"]
    else:
        served = [r for r in frame["rows"] if r["ticker"] == "BARC.L" and r["field"] == "PX_LAST"]
        assert [r["value"] for r in served] == [row["PX_LAST"] for row in by_ticker["BARC.L"]]


def test_quotes_and_the_last_answer_standing(client):
    answer = client.quotes(["AAPL", "BARC.L"])
    expected = rest("POST", "/v1/quotes", MARKET, {"tickers": ["AAPL", "BARC.L"]})["items"]
    prices = [item["quote"]["price"] for item in expected]
    if PANDAS:
        assert list(answer["price"]) == prices
    else:
        assert [row["price"] for row in answer] == prices
    # A market call reports its units; a dataset call its credits and what remains of the period and minute.
    assert client.last.units == 1
    client.cpi()
    assert client.last.credits_charged == 1
    assert client.last.credits_remaining is not None and client.last.minute_remaining is not None


def test_cot_board_and_contract(client):
    board = client.cot()
    expected = rest("GET", "/v1/cftc/cot", DATASETS)["data"]["rows"]
    # deafut_2026-04-14.txt: 353 markets reported on 14 April 2026.
    assert len(board) == len(expected) == 353
    contract = client.cot("067651", trader_class="noncommercial")
    if PANDAS:
        assert list(contract["reportDate"]) == ["2026-04-14"]
        assert list(contract["position.long"]) == [390468]
        assert contract.attrs["meta"]["dataset"] == "cot"
        # The same times under the names every dataset shares, as the route's meta says them.
        meta = rest("GET", "/v1/cftc/cot/contracts/067651?traderClass=noncommercial&asOf=2026-04-20", DATASETS)["meta"]
        then = client.cot("067651", trader_class="noncommercial", as_of="2026-04-20")
        assert then.attrs["read_as_of"] == meta["readAsOf"] == "2026-04-20T23:59:59.999Z"
        # The report of 14 April came out on Friday 17 April, 15:30 in New York.
        assert then.attrs["as_of"] == meta["asOf"] == "2026-04-17T19:30:00.000Z"
        assert then.attrs["newest_period"] == meta["newestPeriod"] == "2026-04-14"
        assert then.attrs["status"] == "available" and then.attrs["gaps"] == []
    else:
        assert contract[0]["position"]["long"] == 390468
    # A contract's history is a history call: 2 credits.
    assert client.last.credits_charged == 2


def test_awards_follow_the_cursor(client):
    every = rest("GET", "/v1/awards?limit=200", DATASETS)["data"]["rows"]
    paged = client.awards(limit=2, max_rows=5)
    ids = list(paged["id"]) if PANDAS else [row["id"] for row in paged]
    assert ids == [row["id"] for row in every[:5]]


def test_awards_as_known_on_a_date(client):
    # The TED notice was published on 31 March 2020; the DoD-MIT search rows were loaded by the test run.
    then = client.awards(as_of="2020-03-31")
    expected = rest("GET", "/v1/awards?asOf=2020-03-31&limit=200", DATASETS)["data"]["rows"]
    ids = list(then["id"]) if PANDAS else [row["id"] for row in then]
    sources = set(then["source"]) if PANDAS else {row["source"] for row in then}
    assert ids == [row["id"] for row in expected] and len(ids) > 0
    assert sources == {"ted"}
    assert client.award(ids[0], as_of="2020-03-31")["knownAt"] == "2020-03-31T00:00:00.000Z"
    with pytest.raises(quarry.NotFound, match="published by 2020-03-30"):
        client.award(ids[0], as_of="2020-03-30")


def test_energy_and_cpi_boards(client):
    energy = client.energy()
    expected = rest("GET", "/v1/energy/inventories", DATASETS)["data"]["series"]
    ids = list(energy["id"]) if PANDAS else [series["id"] for series in energy]
    assert ids == [series["id"] for series in expected] and "WCESTUS1" in ids
    # No CPI file is loaded: the board answers no rows, as the REST API does.
    cpi = client.cpi()
    assert len(cpi) == len(rest("GET", "/v1/macro/cpi", DATASETS)["data"]["rows"]) == 0


def test_treasury_rates_a_row_a_day_a_column_a_tenor(client):
    frame = client.rates(["2Y", "10Y"], start="2019-08-20", end="2019-08-30")
    twos = rest("GET", "/v1/rates/treasury/tenors/2Y?from=2019-08-20&to=2019-08-30", DATASETS)["data"]["rows"]
    tens = rest("GET", "/v1/rates/treasury/tenors/10Y?from=2019-08-20&to=2019-08-30", DATASETS)["data"]["rows"]
    if PANDAS:
        assert list(frame.columns) == ["2Y", "10Y"]
        assert list(frame.index) == [r["date"] for r in twos]
        assert list(frame["2Y"]) == [r["value"] for r in twos] and list(frame["10Y"]) == [r["value"] for r in tens]
        # 27 August 2019: the 10-year below the 2-year, as Treasury's file has them (1.49 and 1.53).
        assert round((frame.loc["2019-08-27", "10Y"] - frame.loc["2019-08-27", "2Y"]) * 100) == -4
        assert frame.attrs["newest_period"] == "2019-08-30" and frame.attrs["series"] == "par"
    else:
        assert [row["date"] for row in frame] == [r["date"] for r in twos]
        assert [row["10Y"] for row in frame] == [r["value"] for r in tens]
    curve = client.rates_curve(date="2019-08-27")
    answer = rest("GET", "/v1/rates/treasury/curve?date=2019-08-27", DATASETS)["data"]
    assert len(curve) == len(answer["tenors"])
    if PANDAS:
        assert curve.attrs["data"]["spreads"]["2s10s"] == {"long": "10Y", "short": "2Y", "bp": -4, "inverted": True}


@pytest.mark.parametrize("call", ["events", "kpis", "guidance", "exec_pay"])
def test_a_company_not_held_is_not_found(client, call):
    with pytest.raises(quarry.NotFound, match="ZZZZ"):
        getattr(client, call)("ZZZZ")


def test_changes_follow_the_feed_and_give_the_cursor_to_poll_with(client):
    expected = rest("GET", "/v1/datasets/cot/changes?limit=1000", DATASETS)["data"]["changes"]
    assert len(expected) == 353  # the 353 markets of 14 April 2026, each a first revision
    feed = client.changes("cot", limit=100)
    if PANDAS:
        keys = list(feed["key.contractCode"])
        cursor = feed.attrs["next_cursor"]
    else:
        keys = [change["key"]["contractCode"] for change in feed["changes"]]
        cursor = feed["next_cursor"]
    assert keys == [change["key"]["contractCode"] for change in expected]
    later = client.changes("cot", since=cursor)
    assert len(later) == 0 if PANDAS else later["changes"] == []


def test_bulk_writes_the_whole_dataset_and_resumes_a_broken_download_for_nothing(tmp_path):
    # An account of its own, which has not downloaded the file today.
    client = quarry.Client(base_url=BASE, datasets_key=os.environ["QUARRY_BULK_KEY"])
    dest = str(tmp_path / "cot.csv")
    first = client.bulk("cot", dest)
    assert client.last.credits_charged == 25
    with open(dest, "rb") as f:
        whole = f.read()
    lines = whole.decode().splitlines()
    assert lines[0].startswith("reportFamily,contractCode,reportDate,")
    assert len(lines) == 1 + 353  # the header, then the 353 markets of 14 April 2026
    # A download that broke off after 1,000 bytes: the rest is asked for, for nothing.
    with open(dest + ".part", "wb") as f:
        f.write(whole[:1000])
    with open(dest + ".part.etag", "w", encoding="utf-8") as f:
        f.write(first["etag"])
    again = client.bulk("cot", dest)
    assert again["resumed"] and client.last.credits_charged == 0
    with open(dest, "rb") as f:
        assert f.read() == whole
    if PANDAS:
        import pandas as pd

        wti = pd.read_csv(dest).set_index("contractCode").loc["067651"]
        # WTI of 14 April 2026 as the CFTC published it.
        assert (wti["openInterest"], wti["noncommercialLong"]) == (2094492, 390468)


def test_account_and_estimate(client):
    assert client.account()["plan"] == "basic"
    assert client.estimate("cot.board")["credits"] == 1
    # The period's usage: the calls this key made so far are counted in it (usage itself costs nothing).
    usage = client.usage()
    assert usage["plan"] == "basic"
    assert usage["totals"] == rest("GET", "/v1/datasets/usage", DATASETS)["totals"]
    assert usage["totals"]["calls"] >= 1


def test_typed_errors_carry_code_message_and_request_id(client):
    with pytest.raises(quarry.InvalidKey) as refused:
        quarry.Client(key="svc_mcp_" + "x" * 40, base_url=BASE).quotes(["AAPL"])
    assert refused.value.code == "invalid_key" and refused.value.request_id
    with pytest.raises(quarry.WrongKey):
        quarry.Client(key=MARKET, base_url=BASE).cpi()
    with pytest.raises(quarry.MissingKey):
        quarry.Client(key="", base_url=BASE).quotes(["AAPL"])
    with pytest.raises(quarry.InvalidParams, match="asOf"):
        client.cpi(as_of="2999-01-01")
    with pytest.raises(quarry.NotFound):
        client.award("f" * 40)
    assert issubclass(quarry.WrongKey, quarry.AuthenticationError)


def test_a_429_is_waited_out_as_its_retry_after_says():
    waits = []
    key = os.environ["QUARRY_LIMITED_KEY"]
    limited = quarry.Client(market_key=key, base_url=BASE, sleep=waits.append)
    hundred = [f"U{i}" for i in range(100)]
    # 100 tickers are five units: 24 calls take a minute's 120 and the next is answered 429 (a few more pass
    # when the loop runs across the start of a minute).
    answered = 0
    with pytest.raises(quarry.RateLimited):
        while answered < 60:
            limited.quotes(hundred)
            answered += 1
    assert answered >= 24
    # Three waits, each what the answer's Retry-After asked (at most the minute), then the error.
    assert len(waits) == 3
    assert all(0 < wait <= 60 for wait in waits)


@pytest.mark.parametrize(
    "variable, call, error, code",
    [
        ("QUARRY_ENDED_KEY", lambda c: c.cpi(), quarry.PlanRequired, "plan_required"),
        ("QUARRY_POOR_KEY", lambda c: c.awards(max_rows=1), quarry.InsufficientCredits, "insufficient_credits"),
        ("QUARRY_UNCONFIRMED_KEY", lambda c: c.quotes(["AAPL"]), quarry.Forbidden, "key_disabled"),
        ("QUARRY_FULL_KEY", lambda c: c.quotes(["AAPL"]), quarry.Forbidden, "key_too_broad"),
    ],
)
def test_each_refusal_of_a_key_raises_its_error(variable, call, error, code):
    refused = quarry.Client(key=os.environ[variable], base_url=BASE)
    with pytest.raises(error) as raised:
        call(refused)
    assert raised.value.code == code and raised.value.status in (402, 403)


def _error_codes(path):
    """The error codes an OpenAPI document of the server declares (its Error schema), read without the client."""
    with urllib.request.urlopen(BASE + path) as res:
        return json.loads(res.read().decode())["components"]["schemas"]["Error"]["properties"]["error"]["enum"]


def test_every_code_the_api_declares_has_its_own_error_class():
    codes = set(_error_codes("/v1/datasets/openapi.json")) | set(_error_codes("/v1/openapi.json"))
    assert {"invalid_params", "rate_limited", "key_too_broad"} <= codes
    for code in codes:
        error = quarry.errors.error_for(code, "message", 400, "req_1")
        assert type(error) is not quarry.QuarryError, code
        assert isinstance(error, quarry.QuarryError) and error.code == code


def test_actions_and_bds_as_the_rest_api_answers_them(client):
    expected = rest("POST", "/v1/actions", MARKET, {"tickers": ["MSFT"]})["items"][0]
    dividends = [a for a in expected["actions"] if a["type"] == "dividend"]
    assert len(dividends) == 4
    with pytest.warns(UserWarning, match="no actions for NOPE.XX"):
        answer = client.actions(["MSFT", "NOPE.XX"])
    if PANDAS:
        assert list(answer.columns) == [
            "ticker", "date", "type", "amount", "numerator", "denominator", "knownAt", "file", "repaired",
            "inDividend",
        ]
        assert list(answer["amount"]) == [a["amount"] for a in expected["actions"]]
        assert list(answer["file"]) == [a["file"] for a in expected["actions"]]
        assert [d.strftime("%Y-%m-%d") for d in answer["date"]] == [a["date"] for a in expected["actions"]]
        attrs = answer.attrs
    else:
        assert [r["amount"] for r in answer["rows"]] == [a["amount"] for a in expected["actions"]]
        attrs = answer
    assert attrs["errors"]["NOPE.XX"]["code"] == "not_found"
    assert attrs["currency"] == {"MSFT": "USD"}
    splits = client.bds("MSFT", "EQY_SPLIT_HIST")
    assert len(splits if PANDAS else splits["rows"]) == 0
    paid = client.bds("MSFT", "DVD_HIST_ALL", start="2021-11-01")
    rows = paid.to_dict("records") if PANDAS else paid["rows"]
    assert [r["amount"] for r in rows] == [d["amount"] for d in dividends if d["date"] >= "2021-11-01"]
    with pytest.raises(ValueError, match="DVD_HIST_ALL"):
        client.bds("MSFT", "DVD_HIST_GROSS")
    # As known on a day before the server loaded them: none were.
    with pytest.warns(UserWarning, match="no actions for MSFT"):
        before = client.actions("MSFT", as_of="2000-01-03")
    assert (before.attrs if PANDAS else before)["errors"]["MSFT"]["message"].endswith("were known by 2000-01-03.")


def test_bdh_total_return_as_the_rest_api_answers_it(client):
    window = {"start": "2021-02-01", "end": "2022-01-28", "adjust": "total"}
    expected = rest("POST", "/v1/history", MARKET, {"tickers": ["MSFT"], "fields": ["PX_LAST"], **window})
    assert expected["adjust"] == "total"
    frame = client.bdh("MSFT", ["PX_LAST", "TOT_RETURN_INDEX_GROSS_DVDS"], **window)
    rows = expected["items"][0]["rows"]
    if PANDAS:
        assert list(frame[("MSFT", "PX_LAST")]) == [r["PX_LAST"] for r in rows]
        assert list(frame[("MSFT", "TOT_RETURN_INDEX_GROSS_DVDS")]) == [r["PX_LAST"] for r in rows]
    else:
        served = [r["value"] for r in frame["rows"] if r["field"] == "PX_LAST"]
        assert served == [r["PX_LAST"] for r in rows]


def test_repaired_values_say_so_as_the_rest_api_answers_them(client):
    # REL.L from yfinance's table: prices in pounds, its 2022-04-28 dividend sent as 35.5 (pence).
    expected = rest("POST", "/v1/actions", MARKET, {"tickers": ["REL.L"], "start": "2022-04-28", "end": "2022-04-28"})
    sent = expected["items"][0]["actions"][0]
    assert sent["amount"] == 0.355 and sent["repaired"]["from"] == 35.5
    answer = client.actions("REL.L", start="2022-04-28", end="2022-04-28")
    rows = answer.to_dict("records") if PANDAS else answer["rows"]
    assert rows[0]["amount"] == 0.355
    assert rows[0]["repaired"] == sent["repaired"]
    # BARC.L's 2022-06-14, sent in pounds among pence: the row holds the repaired close, attrs say what was sent.
    window = {"start": "2022-06-13", "end": "2022-06-15"}
    history = rest("POST", "/v1/history", MARKET, {"tickers": ["BARC.L"], "fields": ["PX_LAST"], **window})
    repaired = history["items"][0]["repaired"]
    assert [r["date"] for r in repaired] == ["2022-06-14"] * 4
    frame = client.bdh("BARC.L", "PX_LAST", **window)
    attrs = frame.attrs if PANDAS else frame
    assert attrs["repaired"] == {"BARC.L": repaired}


def test_sources_say_where_each_value_came_from(client):
    # The server's store holds AAPL's bars and Yahoo quote (quarry ingest): every value is "stored".
    expected = rest("POST", "/v1/data", MARKET, {"tickers": ["AAPL"], "fields": ["PX_LAST", "VOLATILITY_30D"]})
    item = expected["items"][0]
    assert item["source"] == "stored" and "sources" not in item
    frame = client.bdp("AAPL", ["PX_LAST", "VOLATILITY_30D"])
    attrs = frame.attrs if PANDAS else frame
    # Each field named with its source, the item's where it names none of its own.
    assert attrs["sources"] == {"AAPL": {"PX_LAST": "stored", "VOLATILITY_30D": "stored"}}
    # History's stored rows name the files they were loaded from, and the days each brought.
    window = {"start": "2023-08-21", "end": "2023-08-25"}
    history = rest("POST", "/v1/history", MARKET, {"tickers": ["BARC.L"], "fields": ["PX_LAST"], **window})
    files = history["items"][0]["files"]
    assert [f["file"] for f in files] == ["BARC.L.csv"]
    frame = client.bdh("BARC.L", "PX_LAST", **window)
    attrs = frame.attrs if PANDAS else frame
    assert attrs["files"] == {"BARC.L": files}
