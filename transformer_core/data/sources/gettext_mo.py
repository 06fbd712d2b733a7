"""Read a compiled gettext catalogue (.mo): the binary format, parsed directly.

Layout (GNU gettext manual, "The Format of GNU MO Files"): a magic number that
also gives the byte order, a revision, the number of strings N, then two tables
of N (length, offset) pairs: the original strings and their translations.
"""
from __future__ import annotations

import struct
from pathlib import Path

MAGIC = 0x950412DE


def read_mo(path: str | Path) -> list[tuple[str, str, str]]:
    """(msgctxt, msgid, msgstr) for every singular, translated entry; the header
    (empty msgid) and plural entries are left out."""
    data = Path(path).read_bytes()
    for order in "<>":
        if struct.unpack_from(order + "I", data)[0] == MAGIC:
            break
    else:
        raise ValueError(f"{path}: not a gettext .mo file")
    _, n, originals, translations = struct.unpack_from(order + "4I", data, 4)

    def string(table: int, i: int) -> str:
        length, offset = struct.unpack_from(order + "2I", data, table + 8 * i)
        return data[offset:offset + length].decode("utf-8")

    entries = []
    for i in range(n):
        key, msgstr = string(originals, i), string(translations, i)
        if not key or not msgstr or "\0" in key:
            continue
        ctxt, _, msgid = key.rpartition("\x04")
        entries.append((ctxt, msgid, msgstr))
    return entries
