"""Philippine mobile numbers, and reminder texts that fit one SMS (160 GSM-7 characters)."""

from __future__ import annotations

import re
import unicodedata
from datetime import date

from babel.dates import format_date
from flask_babel import gettext as _

from ..errors import Invalid

MOBILE_RE = re.compile(r"^(?:09|\+639)(\d{9})$")
SMS_LIMIT = 160
# The GSM 03.38 default alphabet (one septet each) and its extension table (two each).
GSM7 = set(
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡"
    "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
)
GSM7_EXTENDED = set("^{}\\[~]|€")


def clean_mobile(raw: object) -> str:
    """09XXXXXXXXX or +639XXXXXXXXX (spaces and hyphens allowed) -> +639XXXXXXXXX; raises
    Invalid naming `mobile` otherwise."""
    text = re.sub(r"[\s-]", "", raw) if isinstance(raw, str) else ""
    match = MOBILE_RE.match(text)
    if not match:
        raise Invalid(
            _("Mobile number must be a Philippine mobile: 09XXXXXXXXX or +639XXXXXXXXX."), field="mobile"
        )
    return "+639" + match.group(1)


def local_form(number: str) -> str:
    """Gateways write the sender as 639XXXXXXXXX (no plus): give it the plus clean_mobile wants."""
    text = re.sub(r"[\s-]", "", number)
    return "+" + text if text.startswith("639") else text


def gsm7_length(text: str) -> int | None:
    """Septets the text takes in GSM-7, None when a character is not in the alphabet."""
    length = 0
    for char in text:
        if char in GSM7:
            length += 1
        elif char in GSM7_EXTENDED:
            length += 2
        else:
            return None
    return length


def to_gsm7(text: str) -> str:
    """Names made GSM-7: accents GSM-7 lacks dropped ("Ã" -> "A"), anything else left out."""
    out = []
    for char in text:
        if char in GSM7 or char in GSM7_EXTENDED:
            out.append(char)
            continue
        plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
        out.append(plain if gsm7_length(plain) is not None else "")
    return "".join(out)


TEMPLATES = {
    "en": "SIBOL {barangay}: food waste pickup tomorrow {day}{window}, {area}. Put it out tonight. Stop: {stop}",
    "fil": "SIBOL {barangay}: kuha ng tirang pagkain bukas {day}{window}, {area}. Ilabas ngayong gabi. Ihinto: {stop}",
}


def clean_window(raw: object) -> str:
    """The collection's time window ("6-8 AM"): at most 20 GSM-7 characters, may be blank."""
    window = " ".join(raw.split()) if isinstance(raw, str) else ""
    if len(window) > 20 or gsm7_length(window) is None:
        raise Invalid(
            _("Time window must be at most 20 plain characters, for example 6-8 AM."),
            field="collectionWindow",
        )
    return window


def sms_text(language: str, barangay: str, area: str, day: date, stop_url: str, window: str = "") -> str:
    """The reminder in one SMS: names shortened when needed so the whole fits 160 GSM-7."""
    language = language if language in TEMPLATES else "fil"
    day_text = to_gsm7(format_date(day, "EEE d MMM", locale="fil" if language == "fil" else "en"))
    barangay, area = to_gsm7(barangay), to_gsm7(area)
    while True:
        text = TEMPLATES[language].format(
            barangay=barangay, area=area, day=day_text, window=f" {window}" if window else "", stop=stop_url
        )
        if (gsm7_length(text) or SMS_LIMIT + 1) <= SMS_LIMIT:
            return text
        if len(area) > 6:
            area = area[: len(area) - 1]
        elif len(barangay) > 6:
            barangay = barangay[: len(barangay) - 1]
        elif window:
            window = ""  # the last thing to give up: the day, area and stop link matter more
        else:
            raise ValueError("the stop link is too long for one SMS")
