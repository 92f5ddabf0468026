"""Turn formatted message text (HTML, MarkdownV2, Markdown) into plain text plus entities.

Errors read like Telegram's "can't parse entities" answers; offsets count UTF-16 code units."""

import re
from typing import Any

Entity = dict[str, Any]


class EntityParseError(ValueError):
    """The text does not parse in the given parse_mode; str() is Telegram's reason."""


def utf16_len(text: str) -> int:
    """Length of text in UTF-16 code units, the unit of entity offsets."""
    return len(text.encode("utf-16-le")) // 2


def _byte_offset(text: str, index: int) -> int:
    return len(text[:index].encode("utf-8"))


class _Out:
    """Plain text being built, with its length in UTF-16 code units."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.pos = 0
        self.entities: list[Entity] = []

    def emit(self, text: str) -> None:
        self.parts.append(text)
        self.pos += utf16_len(text)

    def add(self, entity: Entity | None, start: int) -> None:
        if entity is not None and self.pos > start:
            self.entities.append({**entity, "offset": start, "length": self.pos - start})

    def result(self) -> tuple[str, list[Entity]]:
        entities = sorted(self.entities, key=lambda e: (e["offset"], -e["length"]))
        return "".join(self.parts), entities


def parse_text(text: str, parse_mode: str | None) -> tuple[str, list[Entity]]:
    """Parse text in the given parse_mode (None or "" for plain) into (plain text, entities)."""
    mode = (parse_mode or "").lower()
    if not mode:
        return text, []
    if mode == "html":
        return parse_html(text)
    if mode == "markdownv2":
        return parse_markdown_v2(text)
    if mode == "markdown":
        return parse_markdown(text)
    raise ValueError(f"unsupported parse_mode {parse_mode!r}")


# ---------------------------------------------------------------------------------------------
# HTML

_HTML_SIMPLE = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "code": "code",
    "pre": "pre",
}
_HTML_TAGS = {*_HTML_SIMPLE, "a", "span", "blockquote", "tg-emoji", "tg-time"}
_ATTR_RE = re.compile(r"""\s*([A-Za-z][A-Za-z0-9_-]*)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?""")
_TAG_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
_HTML_ENTITY_RE = re.compile(r"&(#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|lt|gt|amp|quot);")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}


def _parse_attrs(raw: str) -> dict[str, str] | None:
    attrs: dict[str, str] = {}
    pos = 0
    while pos < len(raw):
        if raw[pos:].strip() == "":
            break
        m = _ATTR_RE.match(raw, pos)
        if not m or m.end() == pos:
            return None
        value = m.group(2) or ""
        if value[:1] in "\"'":
            value = value[1:-1]
        attrs[m.group(1).lower()] = _unescape_html(value)
        pos = m.end()
    return attrs


def _unescape_html(text: str) -> str:
    return _HTML_ENTITY_RE.sub(lambda m: _decode_html_entity(m.group(1)), text)


def _decode_html_entity(body: str) -> str:
    if body in _NAMED:
        return _NAMED[body]
    code = int(body[2:], 16) if body[1:2] in "xX" else int(body[1:])
    return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"


def _html_entity(
    name: str, attrs: dict[str, str], stack: list[tuple[str, int, Entity | None]], where: str
) -> Entity | None:
    if name in ("a",):
        href = attrs.get("href", "")
        return {"type": "text_link", "url": href} if href else None
    if name == "span":
        if attrs.get("class") != "tg-spoiler":
            raise EntityParseError(f'Unsupported start tag "span" at byte offset {where}')
        return {"type": "spoiler"}
    if name == "blockquote":
        return {"type": "expandable_blockquote" if "expandable" in attrs else "blockquote"}
    if name == "tg-emoji":
        emoji_id = attrs.get("emoji-id", "")
        if not emoji_id:
            raise EntityParseError(
                "Custom emoji entity must contain a valid custom emoji identifier"
            )
        return {"type": "custom_emoji", "custom_emoji_id": emoji_id}
    if name == "tg-time":
        unix = attrs.get("unix", "")
        if not unix.lstrip("-").isdigit():
            raise EntityParseError("Date time entity must contain a valid unix time")
        entity: Entity = {"type": "date_time", "unix_time": int(unix)}
        if attrs.get("format"):
            entity["date_time_format"] = attrs["format"]
        return entity
    if name == "code" and stack and stack[-1][0] == "pre" and stack[-1][2] is not None:
        language = attrs.get("class", "")
        if language.startswith("language-"):
            stack[-1][2]["language"] = language[len("language-") :]
            return None
    return {"type": _HTML_SIMPLE[name]}


def parse_html(text: str) -> tuple[str, list[Entity]]:
    """Parse Telegram's HTML subset; raise EntityParseError where Telegram would refuse it."""
    out = _Out()
    stack: list[tuple[str, int, Entity | None]] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "<":
            where = str(_byte_offset(text, i))
            end = text.find(">", i)
            if end < 0:
                raise EntityParseError(f"Unclosed start tag at byte offset {where}")
            inner = text[i + 1 : end]
            if inner.startswith("/"):
                name = inner[1:].strip().lower()
                if not stack:
                    raise EntityParseError(f'Unexpected end tag "{name}" at byte offset {where}')
                open_name, start, entity = stack.pop()
                if name != open_name:
                    raise EntityParseError(
                        f'Can\'t find end tag corresponding to start tag "{open_name}"'
                    )
                out.add(entity, start)
            else:
                m = _TAG_NAME_RE.match(inner)
                name = m.group(0).lower() if m else inner.split(" ", 1)[0]
                attrs = _parse_attrs(inner[m.end() :]) if m else None
                if not m or name not in _HTML_TAGS or attrs is None:
                    raise EntityParseError(
                        f'Unsupported start tag "{name}" at byte offset {where}'
                    )
                stack.append((name, out.pos, _html_entity(name, attrs, stack, where)))
            i = end + 1
            continue
        if ch == ">":
            # Telegram tolerates a bare '>' but the bot should escape it; keep it as text.
            out.emit(ch)
            i += 1
            continue
        if ch == "&":
            m = _HTML_ENTITY_RE.match(text, i)
            if m:
                out.emit(_decode_html_entity(m.group(1)))
                i = m.end()
                continue
        out.emit(ch)
        i += 1
    if stack:
        raise EntityParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    return out.result()


# ---------------------------------------------------------------------------------------------
# MarkdownV2

_MDV2_RESERVED = frozenset("_*[]()~`>#+-=|{}.!")
_MDV2_MARKERS = {
    "*": ("bold", "Bold"),
    "_": ("italic", "Italic"),
    "__": ("underline", "Underline"),
    "~": ("strikethrough", "Strikethrough"),
    "||": ("spoiler", "Spoiler"),
}


def _reserved(ch: str) -> EntityParseError:
    return EntityParseError(
        f"Character '{ch}' is reserved and must be escaped with the preceding '\\'"
    )


def _read_until(text: str, i: int, closer: str, escapable_all: bool) -> tuple[str, int] | None:
    """Read from i up to an unescaped closer; return (content, index of closer) or None."""
    buf: list[str] = []
    n = len(text)
    while i < n:
        if text[i] == "\\" and i + 1 < n and (escapable_all or text[i + 1] in closer + "\\"):
            buf.append(text[i + 1])
            i += 2
            continue
        if text.startswith(closer, i):
            return "".join(buf), i
        buf.append(text[i])
        i += 1
    return None


def parse_markdown_v2(text: str) -> tuple[str, list[Entity]]:
    """Parse Telegram's MarkdownV2; raise EntityParseError where Telegram would refuse it."""
    out = _Out()
    stack: list[tuple[str, int, int]] = []  # marker, start, byte offset of the marker
    quote: tuple[int, bool] | None = None  # start of an open blockquote, expandable?
    i, n = 0, len(text)
    line_start = True
    while i < n:
        ch = text[i]
        at_line_start, line_start = line_start, False
        if ch == "\\":
            if i + 1 < n and 0 < ord(text[i + 1]) <= 126:
                out.emit(text[i + 1])
                i += 2
                continue
            raise _reserved("\\")
        if ch == "\n":
            if quote is not None and not text.startswith(">", i + 1):
                out.add({"type": "blockquote"}, quote[0])
                quote = None
            out.emit(ch)
            line_start = True
            i += 1
            continue
        if at_line_start and (ch == ">" or text.startswith("**>", i)):
            expandable = ch == "*"
            if quote is None:
                quote = (out.pos, expandable)
            i += 3 if expandable else 1
            continue
        at_line_end = i + 2 == n or text[i + 2 : i + 3] == "\n"
        if quote is not None and quote[1] and text.startswith("||", i) and at_line_end:
            out.add({"type": "expandable_blockquote"}, quote[0])
            quote = None
            i += 2
            continue
        if ch == "`":
            where = _byte_offset(text, i)
            if text.startswith("```", i):
                found = _read_until(text, i + 3, "```", escapable_all=False)
                if found is None:
                    raise EntityParseError(f"Can't find end of Pre entity at byte offset {where}")
                body, end = found
                entity: Entity = {"type": "pre"}
                first, sep, rest = body.partition("\n")
                if sep and first and " " not in first:
                    entity["language"] = first
                    body = rest
                start = out.pos
                out.emit(body)
                out.add(entity, start)
                i = end + 3
                continue
            found = _read_until(text, i + 1, "`", escapable_all=False)
            if found is None:
                raise EntityParseError(f"Can't find end of Code entity at byte offset {where}")
            body, end = found
            start = out.pos
            out.emit(body)
            out.add({"type": "code"}, start)
            i = end + 1
            continue
        marker = None
        if text.startswith("||", i):
            marker = "||"
        elif text.startswith("__", i):
            marker = "__"
        elif ch in "*_~":
            marker = ch
        if marker is not None:
            open_markers = [m for m, _, _ in stack]
            if open_markers and open_markers[-1] == marker:
                _, start, _ = stack.pop()
                out.add({"type": _MDV2_MARKERS[marker][0]}, start)
            elif marker in open_markers:
                kind = _MDV2_MARKERS[marker][1]
                where = stack[open_markers.index(marker)][2]
                raise EntityParseError(f"Can't find end of {kind} entity at byte offset {where}")
            else:
                stack.append((marker, out.pos, _byte_offset(text, i)))
            i += len(marker)
            continue
        if ch == "[" or text.startswith("![", i):
            stack.append((ch + "[" if ch == "!" else "[", out.pos, _byte_offset(text, i)))
            i += 2 if ch == "!" else 1
            continue
        if ch == "]":
            if not stack or stack[-1][0] not in ("[", "!["):
                raise _reserved("]")
            if not text.startswith("(", i + 1):
                raise _reserved("]")
            found = _read_until(text, i + 2, ")", escapable_all=False)
            if found is None:
                raise EntityParseError(
                    f"Can't find end of a url at byte offset {_byte_offset(text, i)}"
                )
            url, end = found
            opener, start, _ = stack.pop()
            if opener == "![":
                emoji_id = url.removeprefix("tg://emoji?id=")
                out.add({"type": "custom_emoji", "custom_emoji_id": emoji_id}, start)
            else:
                out.add({"type": "text_link", "url": url}, start)
            i = end + 1
            continue
        if ch in _MDV2_RESERVED:
            raise _reserved(ch)
        out.emit(ch)
        i += 1
    if stack:
        marker, _, where = stack[-1]
        kind = _MDV2_MARKERS[marker][1] if marker in _MDV2_MARKERS else "TextUrl"
        raise EntityParseError(f"Can't find end of {kind} entity at byte offset {where}")
    if quote is not None:
        out.add({"type": "expandable_blockquote" if quote[1] else "blockquote"}, quote[0])
    return out.result()


# ---------------------------------------------------------------------------------------------
# Markdown (legacy)

_MD_MARKERS = {"*": "bold", "_": "italic"}


def parse_markdown(text: str) -> tuple[str, list[Entity]]:
    """Parse Telegram's legacy Markdown (no nesting); raise EntityParseError on open entities."""
    out = _Out()
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and text[i + 1] in "_*`[":
            out.emit(text[i + 1])
            i += 2
            continue
        where = _byte_offset(text, i)
        unclosed = EntityParseError(
            f"Can't find end of the entity starting at byte offset {where}"
        )
        if ch in _MD_MARKERS or ch == "`":
            closer = "```" if text.startswith("```", i) else ch
            end = text.find(closer, i + len(closer))
            if end < 0:
                raise unclosed
            body = text[i + len(closer) : end]
            entity: Entity = {"type": _MD_MARKERS.get(ch, "pre" if closer == "```" else "code")}
            if closer == "```":
                first, sep, rest = body.partition("\n")
                if sep and first and " " not in first:
                    entity["language"] = first
                    body = rest
            start = out.pos
            out.emit(body)
            out.add(entity, start)
            i = end + len(closer)
            continue
        if ch == "[":
            close = text.find("]", i + 1)
            if close < 0:
                raise unclosed
            if text.startswith("(", close + 1):
                end = text.find(")", close + 2)
                if end < 0:
                    raise unclosed
                start = out.pos
                out.emit(text[i + 1 : close])
                out.add({"type": "text_link", "url": text[close + 2 : end]}, start)
                i = end + 1
                continue
        out.emit(ch)
        i += 1
    return out.result()
