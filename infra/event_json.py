"""Stored events' JSON, read with ``orjson`` where that gives exactly what eventsourcing's reader gives.

eventsourcing's ``JSONTranscoder`` reads every stored event with ``json`` and an
``object_hook`` that Python calls for every JSON object, looking for the
``{"_type_": name, "_data_": value}`` form of custom types (timestamps, UUIDs).
Reading events is most of what the projection runner and a store fast-forward
do, and this hook made it the largest part of their cost.

``FastJSONTranscoder`` writes exactly as before. It reads with ``orjson`` and
then converts the custom-type objects that sit at the top level of the event
(the timestamp of every event). It counts the ``"_type_"`` keys in the raw text
first: unless each of them was one of those top-level objects, with no custom
type nested in another, it reads the event the standard way instead. Inside a
JSON string a quote is always escaped, so ``"_type_"`` with both quotes bare can
only be a key or a whole string value, never part of a longer string.
"""

from __future__ import annotations

import re
from typing import Any

import orjson
from eventsourcing.persistence import JSONTranscoder

_TYPE_KEY = b'"_type_"'
_LONG_DIGITS = re.compile(rb"[0-9]{19}")
"""orjson reads an integer beyond 64 bits as a float; json keeps it exact. Any run of
19 digits (even inside a string) sends the event to the standard reader."""


class FastJSONTranscoder(JSONTranscoder):
    """eventsourcing's JSON transcoder, with a faster reader for the common shape of an event."""

    def decode(self, data: bytes) -> Any:
        if _LONG_DIGITS.search(data):
            return super().decode(data)
        try:
            obj = orjson.loads(data)
        except orjson.JSONDecodeError:
            return super().decode(data)  # NaN or Infinity: json takes them
        expected = data.count(_TYPE_KEY)
        if expected == 0:
            return obj
        if isinstance(obj, dict) and self._decode_top_level(obj) == expected:
            return obj
        return super().decode(data)

    def _decode_top_level(self, obj: dict[str, Any]) -> int:
        """Decodes the custom-type values of ``obj`` in place; returns how many there were."""
        done = 0
        for key, value in obj.items():
            if type(value) is dict and len(value) == 2 and "_type_" in value and "_data_" in value:
                data = value["_data_"]
                if type(data) in (dict, list) or type(value["_type_"]) is not str:
                    return -1  # may hold nested custom types: leave it to the standard reader
                obj[key] = self._decode_obj(value)
                done += 1
        return done


__all__ = ["FastJSONTranscoder"]
