"""The parse modes pinned on vectors that reach every branch of the three parsers: the text
and entities Telegram makes of each, or its error message word for word."""

from __future__ import annotations

import pytest

from bot.playground.api.formatting import Entity, FormatError, parse

VECTORS: list[tuple[str, str, tuple[str, list[Entity]] | str]] = [
    (
        "HTML",
        "<b>a</b><i>b</i><u>c</u><s>d</s><tg-spoiler>e</tg-spoiler><em>f</em><ins>g</ins><del>h</del>",
        (
            "abcdefgh",
            [
                {"offset": 0, "length": 1, "type": "bold"},
                {"offset": 1, "length": 1, "type": "italic"},
                {"offset": 2, "length": 1, "type": "underline"},
                {"offset": 3, "length": 1, "type": "strikethrough"},
                {"offset": 4, "length": 1, "type": "spoiler"},
                {"offset": 5, "length": 1, "type": "italic"},
                {"offset": 6, "length": 1, "type": "underline"},
                {"offset": 7, "length": 1, "type": "strikethrough"},
            ],
        ),
    ),
    (
        "HTML",
        "🏟<b>🏟 <I>x</I ></b>",
        (
            "🏟🏟 x",
            [
                {"offset": 2, "length": 4, "type": "bold"},
                {"offset": 5, "length": 1, "type": "italic"},
            ],
        ),
    ),
    ("HTML", "<b></b>x", ("x", [])),
    (
        "HTML",
        '<span class="tg-spoiler">x</span>',
        ("x", [{"offset": 0, "length": 1, "type": "spoiler"}]),
    ),
    (
        "HTML",
        '<a href="http://t.me/x?a=1&amp;b">t</a> <a>t.me</a> <a href="ftp://x">gone</a>',
        (
            "t t.me gone",
            [
                {"offset": 0, "length": 1, "type": "text_link", "url": "http://t.me/x?a=1&b"},
                {"offset": 2, "length": 4, "type": "text_link", "url": "http://t.me/"},
            ],
        ),
    ),
    (
        "HTML",
        "<a href=t.me>x</a>",
        ("x", [{"offset": 0, "length": 1, "type": "text_link", "url": "http://t.me/"}]),
    ),
    (
        "HTML",
        '<pre><code class="language-py">x</code></pre>',
        ("x", [{"offset": 0, "length": 1, "type": "pre", "language": "py"}]),
    ),
    (
        "HTML",
        '<code class="language-py">x</code><pre>y</pre>',
        (
            "xy",
            [{"offset": 0, "length": 1, "type": "code"}, {"offset": 1, "length": 1, "type": "pre"}],
        ),
    ),
    (
        "HTML",
        '<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji>',
        (
            "👍",
            [
                {
                    "offset": 0,
                    "length": 2,
                    "type": "custom_emoji",
                    "custom_emoji_id": "5368324170671202286",
                }
            ],
        ),
    ),
    (
        "HTML",
        "<blockquote expandable>q</blockquote><blockquote>r</blockquote>",
        (
            "qr",
            [
                {"offset": 0, "length": 1, "type": "expandable_blockquote"},
                {"offset": 1, "length": 1, "type": "blockquote"},
            ],
        ),
    ),
    ("HTML", "&#x1F600;&#128512;&lt;&gt;&amp;&quot;&unknown;&#0;&", ('😀😀<>&"&unknown;&#0;&', [])),
    ("HTML", '<tg-emoji emoji-id="0">x</tg-emoji>', "Invalid custom emoji identifier specified"),
    (
        "HTML",
        "&#xD800;",
        "Text contains invalid Unicode characters after decoding HTML entities, "
        "check for unmatched surrogate code units",
    ),
    ("HTML", "<x>", 'Unsupported start tag "x" at byte offset 0'),
    ("HTML", "</b>", "Unexpected end tag at byte offset 0"),
    ("HTML", "<b>x</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
    ("HTML", "<b>x", 'Can\'t find end tag corresponding to start tag "b"'),
    ("HTML", "<b =x>", 'Empty attribute name in the tag "b" at byte offset 0'),
    ("HTML", "<b a=", 'Unclosed start tag "b" at byte offset 0'),
    ("HTML", '<b a="x', "Unclosed start tag at byte offset 0"),
    ("HTML", "<b", "Unclosed start tag at byte offset 0"),
    ("HTML", "<b>x</b", "Unclosed end tag at byte offset 4"),
    (
        "HTML",
        "<b a>",
        'Expected equal sign in declaration of an attribute of the tag "b" at byte offset 0',
    ),
    ("HTML", "<b a=x,>", "Unexpected end of name token at byte offset 5"),
    ("HTML", "<span>x</span>", 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
    (
        "MarkdownV2",
        "*b* _i_ __u__ ~s~ ||sp|| `c`",
        (
            "b i u s sp c",
            [
                {"offset": 0, "length": 1, "type": "bold"},
                {"offset": 2, "length": 1, "type": "italic"},
                {"offset": 4, "length": 1, "type": "underline"},
                {"offset": 6, "length": 1, "type": "strikethrough"},
                {"offset": 8, "length": 2, "type": "spoiler"},
                {"offset": 11, "length": 1, "type": "code"},
            ],
        ),
    ),
    (
        "MarkdownV2",
        "🏟 *🏟 _x_*",
        (
            "🏟 🏟 x",
            [
                {"offset": 3, "length": 4, "type": "bold"},
                {"offset": 6, "length": 1, "type": "italic"},
            ],
        ),
    ),
    ("MarkdownV2", "___a___", "Can't find end of Italic entity at byte offset 6"),
    ("MarkdownV2", "`a*b\\`c`", ("a*b`c", [{"offset": 0, "length": 5, "type": "code"}])),
    (
        "MarkdownV2",
        "```python\nprint(1)\n```",
        ("print(1)\n", [{"offset": 0, "length": 9, "type": "pre", "language": "python"}]),
    ),
    ("MarkdownV2", "```\r\ncode```", ("code", [{"offset": 0, "length": 4, "type": "pre"}])),
    (
        "MarkdownV2",
        "[link](http://t.me/x\\)y) [t\\.me] [bad](no)",
        (
            "link t.me bad",
            [
                {"offset": 0, "length": 4, "type": "text_link", "url": "http://t.me/x)y"},
                {"offset": 5, "length": 4, "type": "text_link", "url": "http://t.me/"},
            ],
        ),
    ),
    (
        "MarkdownV2",
        "*a\n>b\nc*",
        (
            "a\nb\nc",
            [
                {"offset": 0, "length": 5, "type": "bold"},
                {"offset": 2, "length": 2, "type": "blockquote"},
            ],
        ),
    ),
    ("MarkdownV2", ">a *b\nc*", "Can't find end of Bold entity at byte offset 3"),
    (
        "MarkdownV2",
        "![👍](tg://emoji?id=5368324170671202286)",
        (
            "👍",
            [
                {
                    "offset": 0,
                    "length": 2,
                    "type": "custom_emoji",
                    "custom_emoji_id": "5368324170671202286",
                }
            ],
        ),
    ),
    (
        "MarkdownV2",
        ">quote\n>more\nafter",
        ("quote\nmore\nafter", [{"offset": 0, "length": 11, "type": "blockquote"}]),
    ),
    ("MarkdownV2", "a\n>q", ("a\nq", [{"offset": 2, "length": 1, "type": "blockquote"}])),
    ("MarkdownV2", "\\*\\_\\.", ("*_.", [])),
    ("MarkdownV2", "**", ("", [])),
    ("MarkdownV2", "![x](http://t.me)", "Custom emoji URL must have an emoji identifier"),
    ("MarkdownV2", "![x]", "Custom emoji entity must contain a tg://emoji URL"),
    ("MarkdownV2", "![x](tg://emoji?id=1", "Can't find end of a custom emoji URL at byte offset 5"),
    ("MarkdownV2", "[x](http://t.me", "Can't find end of a URL at byte offset 4"),
    ("MarkdownV2", "a.b", "Character '.' is reserved and must be escaped with the preceding '\\'"),
    ("MarkdownV2", "|x", "Character '|' is reserved and must be escaped with the preceding '\\'"),
    ("MarkdownV2", "!x", "Character '!' is reserved and must be escaped with the preceding '\\'"),
    ("MarkdownV2", "a>b", "Character '>' is reserved and must be escaped with the preceding '\\'"),
    ("MarkdownV2", "*bold\n*", ("bold\n", [{"offset": 0, "length": 5, "type": "bold"}])),
    ("MarkdownV2", "_a", "Can't find end of Italic entity at byte offset 0"),
    ("MarkdownV2", "```\ncode", "Can't find end of Pre entity at byte offset 0"),
    (
        "Markdown",
        "*b* _i_ `c` ```py\nx```",
        (
            "b i c x",
            [
                {"offset": 0, "length": 1, "type": "bold"},
                {"offset": 2, "length": 1, "type": "italic"},
                {"offset": 4, "length": 1, "type": "code"},
                {"offset": 6, "length": 1, "type": "pre", "language": "py"},
            ],
        ),
    ),
    ("Markdown", "🏟 *🏟*", ("🏟 🏟", [{"offset": 3, "length": 2, "type": "bold"}])),
    (
        "Markdown",
        "[t](http://t.me/x) [t.me] [](http://t.me) [x](bad)",
        (
            "t t.me (http://t.me) x",
            [
                {"offset": 0, "length": 1, "type": "text_link", "url": "http://t.me/x"},
                {"offset": 2, "length": 4, "type": "text_link", "url": "http://t.me/"},
            ],
        ),
    ),
    ("Markdown", "\\*a\\_ \\x", ("*a_ \\x", [])),
    ("Markdown", "```\nx```", ("x", [{"offset": 0, "length": 1, "type": "pre"}])),
    ("Markdown", "*unclosed", "Can't find end of the entity starting at byte offset 0"),
    (
        "Markdown",
        "[x](http://t.me",
        ("x", [{"offset": 0, "length": 1, "type": "text_link", "url": "http://t.me/"}]),
    ),
]


@pytest.mark.parametrize(("mode", "text", "expected"), VECTORS)
def test_parse_modes_give_telegrams_text_entities_and_errors(
    mode: str, text: str, expected: tuple[str, list[Entity]] | str
) -> None:
    if isinstance(expected, str):
        with pytest.raises(FormatError) as refused:
            parse(text, mode)
        assert str(refused.value) == expected
    else:
        assert parse(text, mode) == expected
