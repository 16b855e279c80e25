"""A rulebook written out: Markdown (pictures as SVG files beside it), a
self-contained HTML page (pictures inline; Markdown rendered by markdown-it-py,
which rich already brings), or PDF (that page printed by headless Chromium:
:mod:`rulepack.render.pdf`, the ``browser`` extra)."""

from __future__ import annotations

import html
import re
from pathlib import Path

from rulepack.rulebook.book import Rulebook

_CSS = """
body { font-family: Georgia, 'DejaVu Serif', serif; max-width: 46em; margin: 2em auto;
       padding: 0 1em; line-height: 1.45; color: #222; background: #fdfbf6; }
h1 { font-size: 2em; margin-bottom: 0.2em; } h2 { border-bottom: 1px solid #ccc; }
li { margin: 0.15em 0; } figure { margin: 1em 0; } figcaption { font-size: 0.9em; color: #555; }
figure svg { max-width: 100%; height: auto; }
"""


def markdown(book: Rulebook, picture_name: str | None = None) -> tuple[str, dict[str, str]]:
    """The rulebook as Markdown, and its pictures: file name → SVG text.

    :param picture_name: the pictures' file name stem (``multzo`` gives
        ``multzo-1.svg``...); ``None``: no pictures.
    """
    out = [f"# {book.title}", ""]
    files: dict[str, str] = {}
    for section in book.sections:
        out += [f"## {section.title}", ""]
        for paragraph in section.intro:
            out += [paragraph, ""]
        if section.listed:
            for line in section.lines:
                out.append("  " * line.depth + "- " + line.text)
        else:
            for line in section.lines:
                out += [line.text, ""]
        if section.lines:
            out.append("")
        for pic in section.pictures:
            if pic.svg is None or picture_name is None:
                continue
            name = f"{picture_name}-{len(files) + 1}.svg"
            files[name] = pic.svg
            out += [f"![{pic.caption}]({name})", "", f"*{pic.caption}*", ""]
    return "\n".join(out).rstrip() + "\n", files


def html_page(book: Rulebook) -> str:
    """The rulebook as one self-contained HTML page (pictures inline, no links out)."""
    from markdown_it import MarkdownIt
    text, _ = markdown(book, None)
    body = MarkdownIt("commonmark").render(text)
    pictures = []
    for section in book.sections:
        for pic in section.pictures:
            if pic.svg is not None:
                svg = re.sub(r"^<\?xml[^>]*>\s*", "", pic.svg)
                pictures.append((section.title, f"<figure>{svg}<figcaption>"
                                                f"{html.escape(pic.caption)}</figcaption>"
                                                "</figure>"))
    # each section's pictures after its text: before the next section's heading
    for title, figure in pictures:
        heading = f"<h2>{html.escape(title)}</h2>"
        at = body.find(heading)
        nxt = body.find("<h2>", at + len(heading)) if at >= 0 else -1
        body = body[:nxt] + figure + body[nxt:] if nxt >= 0 else body + figure
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(book.title)} — rules</title><style>{_CSS}</style></head>"
            f"<body>\n{body}</body></html>\n")


def write(book: Rulebook, path: Path) -> list[Path]:
    """Write the rulebook to ``path`` in the format its extension names (``.md``,
    ``.html``, ``.pdf``); returns the files written (a Markdown rulebook's
    pictures beside it).

    :raises ValueError: an extension that is none of these.
    :raises RuntimeError: a PDF without Selenium or Chromium (how to get them said).
    """
    suffix = path.suffix.lower()
    if suffix == ".md":
        text, files = markdown(book, path.stem)
        path.write_text(text, encoding="utf-8")
        written = [path]
        for name, svg in files.items():
            (path.parent / name).write_text(svg, encoding="utf-8")
            written.append(path.parent / name)
        return written
    if suffix in (".html", ".htm"):
        path.write_text(html_page(book), encoding="utf-8")
        return [path]
    if suffix == ".pdf":
        from rulepack.render.pdf import pdf_bytes
        path.write_bytes(pdf_bytes(html_page(book)))
        return [path]
    raise ValueError(f"a rulebook is written as .md, .html or .pdf, not {suffix or 'no extension'}")
