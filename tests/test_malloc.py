"""The server's memory policy (pages/ui/model_state.py, _fix_mmap_threshold): once a large block has
been freed, glibc would serve the next large ones from the heap; with the threshold fixed they keep
their own mapping, returned to the system when freed.  Run in a fresh interpreter each, as a server is."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROBE = """
import ctypes, sys
class MallInfo2(ctypes.Structure):
    _fields_ = [(f, ctypes.c_size_t) for f in
                "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]
libc = ctypes.CDLL(None)
libc.malloc.restype, libc.free.argtypes, libc.mallinfo2.restype = ctypes.c_void_p, [ctypes.c_void_p], MallInfo2
if sys.argv[1] == "fixed":
    from pages.ui.model_state import _fix_mmap_threshold
    _fix_mmap_threshold()
libc.free(libc.malloc(8 << 20))                 # an 8 MiB block, freed
before = libc.mallinfo2().hblkhd                # bytes in blocks with their own mapping
block = libc.malloc(1 << 20)
print(libc.mallinfo2().hblkhd - before)
"""


def mapped_bytes_of_a_1_mib_block(mode: str) -> int:
    out = subprocess.run([sys.executable, "-c", PROBE, mode], cwd=ROOT, capture_output=True, text=True, check=True)
    return int(out.stdout.split()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc")
def test_large_blocks_keep_their_own_mapping_once_the_threshold_is_fixed():
    assert mapped_bytes_of_a_1_mib_block("dynamic") == 0            # glibc's own policy: from the heap
    assert mapped_bytes_of_a_1_mib_block("fixed") >= 1 << 20
