"""Faults a test injects: error answers and slow answers to the next calls of a method."""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from testing.fake_telegram.core import ChatLike, Core
from testing.fake_telegram.validation import ApiError


@dataclass
class _Fault:
    method: str
    status: int
    description: str
    parameters: dict[str, Any] | None
    times: int
    chat_id: int | None


@dataclass
class _Delay:
    method: str
    seconds: float
    times: int


class Faults(Core):
    """Injected failures and delays."""

    def fail_next(
        self,
        method: str,
        *,
        status: int = 429,
        retry_after: int | None = None,
        description: str | None = None,
        times: int = 1,
        chat_id: ChatLike | None = None,
    ) -> None:
        """Answer the next `times` calls of method (to chat_id, if given) with an error."""
        name = self._method_name(method)
        parameters = None
        if status == 429:
            retry_after = 1 if retry_after is None else retry_after
        if retry_after is not None:
            parameters = {"retry_after": retry_after}
        if description is None and status == 429:
            description = f"Too Many Requests: retry after {retry_after}"
        elif description is None and status == 400:
            description = "Bad Request: injected failure"
        elif description is None:
            try:
                description = HTTPStatus(status).phrase
            except ValueError:
                description = "Error"
        with self._cond:
            self._faults.append(
                _Fault(
                    name,
                    status,
                    description,
                    parameters,
                    times,
                    None if chat_id is None else self._cid(chat_id),
                )
            )

    def delay_next(self, method: str, seconds: float, times: int = 1) -> None:
        """Answer the next `times` calls of method only after `seconds`."""
        with self._cond:
            self._delays.append(_Delay(self._method_name(method), seconds, times))

    def clear_faults(self) -> None:
        """Forget pending failures and delays."""
        with self._cond:
            self._faults.clear()
            self._delays.clear()

    def _network(self) -> float:
        """The latency a call sits out on its way (`latency`, 0 by default), recorded."""
        if self.latency <= 0:
            return 0.0
        with self._cond:
            self.slept.append(self.latency)
        return self.latency

    def _take_delay(self, method: str) -> float:
        with self._cond:
            for delay in self._delays:
                if delay.method == method:
                    delay.times -= 1
                    if delay.times <= 0:
                        self._delays.remove(delay)
                    return delay.seconds
        return 0.0

    def _take_fault(self, method: str, raw: dict[str, Any]) -> None:
        for fault in self._faults:
            if fault.method != method:
                continue
            if fault.chat_id is not None and str(raw.get("chat_id")) != str(fault.chat_id):
                continue
            fault.times -= 1
            if fault.times <= 0:
                self._faults.remove(fault)
            raise ApiError(
                fault.status, fault.description, parameters=fault.parameters, kind="injected"
            )
