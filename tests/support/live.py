"""Reading a live region's answer: its HTML and its ETag."""

from __future__ import annotations


def text(res) -> str:
    return res.get_data(as_text=True)


def etag_of(res) -> str:
    return res.headers["ETag"].strip('"')
