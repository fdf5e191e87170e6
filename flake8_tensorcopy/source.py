"""Reading source text faithfully: encoding (PEP 263 cookie, BOM), newlines, line offsets."""
from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from typing import List

_LINE_END = re.compile(r"\r\n|\r|\n")


class SourceError(Exception):
    """The bytes of a file cannot be turned into Python source text."""


@dataclass
class DecodedSource:
    text: str  # without BOM
    encoding: str
    bom: bool

    def encode(self, text: str) -> bytes:
        data = text.encode(self.encoding)
        return (b"\xef\xbb\xbf" + data) if self.bom else data


def decode(data: bytes) -> DecodedSource:
    """Decode file bytes the way Python would: BOM, then coding cookie, else UTF-8."""
    bom = data.startswith(b"\xef\xbb\xbf")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except (SyntaxError, LookupError) as exc:
        raise SourceError(f"cannot determine encoding: {exc}") from None
    if encoding == "utf-8-sig":
        encoding = "utf-8"
    body = data[3:] if bom else data
    try:
        text = body.decode(encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise SourceError(f"cannot decode as {encoding}: {exc}") from None
    if "\x00" in text:
        raise SourceError("source contains a null byte")
    return DecodedSource(text=text, encoding=encoding, bom=bom)


def line_starts(text: str) -> List[int]:
    """Offsets where each line begins, splitting on \\r\\n, \\r and \\n as the tokenizer does."""
    starts = [0]
    for m in _LINE_END.finditer(text):
        starts.append(m.end())
    return starts


def detect_newline(text: str) -> str:
    m = _LINE_END.search(text)
    return m.group(0) if m else "\n"
