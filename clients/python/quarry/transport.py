"""HTTP to one Quarry host with the standard library: JSON in and out, typed errors, and the waits the API
asks for (a 429's Retry-After; a 503 or a broken connection retried with backoff for idempotent calls)."""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional

from .errors import QuarryError, Unavailable, error_for


@dataclass
class LastResponse:
    """What the last answer said of the caller's standing (None where the route does not say)."""

    status: int
    request_id: Optional[str]
    credits_charged: Optional[int]
    credits_remaining: Optional[int]
    units: Optional[int]
    #: What remains of the minute's credits or units (the RateLimit header's r).
    minute_remaining: Optional[int]


def _number(headers: Mapping[str, str], name: str) -> Optional[int]:
    value = headers.get(name)
    return int(value) if value is not None and value.lstrip("-").isdigit() else None


class Transport:
    """Sends requests to `base_url` with `key`, waiting and retrying as the answers ask."""

    def __init__(
        self,
        base_url: str,
        key: Optional[str],
        timeout: float = 30.0,
        max_wait: float = 60.0,
        retries: int = 3,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.key = key
        self.timeout = timeout
        self.max_wait = max_wait
        self.retries = retries
        self.sleep = sleep
        self.last: Optional[LastResponse] = None

    def request(
        self,
        method: str,
        path: str,
        query: Optional[Mapping[str, Any]] = None,
        body: Optional[Any] = None,
    ) -> Any:
        """The JSON answer of one call; raises the error's QuarryError subclass when refused."""
        url = self._url(path, query)
        data = json.dumps(body).encode() if body is not None else None
        headers = {"accept": "application/json"}
        if data is not None:
            headers["content-type"] = "application/json"
        if self.key:
            headers["authorization"] = f"Bearer {self.key}"
        # A POST of this API reads and charges but changes nothing: every call here is safe to repeat.
        attempt = 0
        while True:
            attempt += 1
            try:
                with urllib.request.urlopen(
                    urllib.request.Request(url, data=data, headers=headers, method=method), timeout=self.timeout
                ) as res:
                    self._remember(res.status, res.headers)
                    return json.loads(res.read().decode())
            except urllib.error.HTTPError as error:
                self._remember(error.code, error.headers)
                answer = _json(error.read())
                retry_after = _number(error.headers, "retry-after")
                waits = error.code == 429 or (error.code == 503 and answer.get("error") != "data_api_disabled")
                if waits and attempt <= self.retries:
                    wait = retry_after if retry_after is not None else 2 ** (attempt - 1)
                    if wait <= self.max_wait:
                        self.sleep(float(wait))
                        continue
                raise _refusal(error, answer) from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
                if attempt <= self.retries:
                    self.sleep(float(2 ** (attempt - 1)))
                    continue
                raise Unavailable("unavailable", f"no answer from {self.base_url}: {error}") from None

    def download(self, path: str, query: Mapping[str, Any], dest: str) -> Dict[str, Any]:
        """Writes the file at `path` to `dest`, resuming a download broken before: the bytes held in
        `dest + ".part"` are kept and the rest asked for with Range, if the file is still the same version
        (If-Range with its ETag); a newer version is downloaded whole. Returns the file's headers."""
        url = self._url(path, query)
        part, tag_file = dest + ".part", dest + ".part.etag"
        headers = {"authorization": f"Bearer {self.key}"} if self.key else {}
        held = os.path.getsize(part) if os.path.exists(part) and os.path.exists(tag_file) else 0
        if held:
            with open(tag_file, encoding="utf-8") as tag:
                headers.update({"range": f"bytes={held}-", "if-range": tag.read()})
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=self.timeout) as res:
                self._remember(res.status, res.headers)
                with open(tag_file, "w", encoding="utf-8") as tag:
                    tag.write(res.headers.get("etag", ""))
                with open(part, "ab" if res.status == 206 else "wb") as out:
                    while True:
                        chunk = res.read(1 << 20)
                        if not chunk:
                            break
                        out.write(chunk)
                os.replace(part, dest)
                os.remove(tag_file)
                return {
                    "path": dest,
                    "version": _number(res.headers, "x-bulk-version"),
                    "rows": _number(res.headers, "x-bulk-rows"),
                    "etag": res.headers.get("etag"),
                    "resumed": res.status == 206,
                }
        except urllib.error.HTTPError as error:
            self._remember(error.code, error.headers)
            raise _refusal(error, _json(error.read())) from None
        except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
            raise Unavailable("unavailable", f"download from {self.base_url} broke off: {error}") from None

    def _url(self, path: str, query: Optional[Mapping[str, Any]]) -> str:
        """The address of `path` with the query's given members (None ones left out)."""
        given = {k: v for k, v in (query or {}).items() if v is not None}
        return self.base_url + path + ("?" + urllib.parse.urlencode({k: _text(v) for k, v in given.items()}) if given else "")

    def _remember(self, status: int, headers: Mapping[str, str]) -> None:
        self.last = LastResponse(
            status=status,
            request_id=headers.get("x-request-id"),
            credits_charged=_number(headers, "x-credits-cost"),
            credits_remaining=_number(headers, "x-credits-remaining"),
            units=_number(headers, "x-service-units"),
            minute_remaining=_remaining(headers.get("ratelimit")),
        )


def _refusal(error: urllib.error.HTTPError, answer: Dict[str, Any]) -> QuarryError:
    """The error class of the answer's code, with its message and request id."""
    return error_for(
        str(answer.get("error", "unavailable" if error.code >= 500 else "invalid_params")),
        str(answer.get("message", error.reason)),
        error.code,
        answer.get("requestId") or error.headers.get("x-request-id"),
    )


def _remaining(header: Optional[str]) -> Optional[int]:
    """r= of a RateLimit header ('"units";r=118;t=42')."""
    for part in (header or "").split(";"):
        name, _, value = part.strip().partition("=")
        if name == "r" and value.isdigit():
            return int(value)
    return None


def _text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _json(raw: bytes) -> Dict[str, Any]:
    try:
        answer = json.loads(raw.decode() or "{}")
    except ValueError:
        return {}
    return answer if isinstance(answer, dict) else {}


__all__ = ["LastResponse", "QuarryError", "Transport"]
