"""Positional encodings: the paper's sinusoids, and the alternatives the lecture weighs.

PE(pos, 2i)   = sin(pos / 10000^(2i/d_model))
PE(pos, 2i+1) = cos(pos / 10000^(2i/d_model))

(Marian and fairseq lay the same waves out in halves: the d_model/2 sines first, then the cosines.)
"""
import math

import torch

KINDS = ("sinusoidal", "index", "normalized", "binary")


def frequencies(d_model: int) -> torch.Tensor:
    """omega_i = 1 / 10000^(2i/d_model) for i = 0 .. d_model/2 - 1.  -> (d_model/2,)"""
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)
    return torch.exp(-math.log(10000.0) * two_i / d_model)


def sinusoids(positions: torch.Tensor, d_model: int) -> torch.Tensor:
    """PE at any (also fractional) positions: the continuous waves the table samples.
    positions: (N,) -> (N, d_model), float64."""
    if d_model % 2:
        raise ValueError("d_model must be even for sinusoidal encodings")
    angles = positions.to(torch.float64).unsqueeze(1) * frequencies(d_model)  # (N, d_model/2)
    pe = torch.zeros(len(positions), d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angles)
    pe[:, 1::2] = torch.cos(angles)
    return pe


def sinusoidal_encoding(max_len: int, d_model: int, layout: str = "interleaved") -> torch.Tensor:
    """The table PE, one row per position.  -> (max_len, d_model), float32.

    layout "interleaved": (sin, cos) in dims (2i, 2i+1), as above; "halves": sin in dims i, cos in d_model/2 + i.
    """
    pe = sinusoids(torch.arange(max_len), d_model)
    if layout == "halves":
        pe = torch.cat([pe[:, 0::2], pe[:, 1::2]], dim=1)
    elif layout != "interleaved":
        raise ValueError(f"unknown sinusoid layout: {layout!r}")
    return pe.float()


def rotation_matrix(k: int, d_model: int) -> torch.Tensor:
    """T(k), block-diagonal, with PE(pos + k) = T(k) @ PE(pos) for every pos.  -> (d_model, d_model)

    Each (sin, cos) pair of dimensions (2i, 2i+1) is rotated by the angle k·omega_i.
    """
    t = torch.zeros(d_model, d_model, dtype=torch.float64)
    for i, w in enumerate(frequencies(d_model).tolist()):
        c, s = math.cos(k * w), math.sin(k * w)
        t[2 * i, 2 * i], t[2 * i, 2 * i + 1] = c, s
        t[2 * i + 1, 2 * i], t[2 * i + 1, 2 * i + 1] = -s, c
    return t.float()


def encoding_table(kind: str, length: int, d_model: int) -> torch.Tensor:
    """Encodings of positions 0..length-1 for a sequence of that length.  -> (length, dim)

    sinusoidal: dim = d_model.  index: PE(a_i) = i.  normalized: PE(a_i) = i / T, T = length - 1
    (so values span 0..1).  binary: the bits of i, most significant first, dim = enough bits.
    """
    pos = torch.arange(length, dtype=torch.float32)
    if kind == "sinusoidal":
        return sinusoidal_encoding(length, d_model)
    if kind == "index":
        return pos.unsqueeze(1)
    if kind == "normalized":
        return (pos / max(length - 1, 1)).unsqueeze(1)
    if kind == "binary":
        bits = max(1, (length - 1).bit_length())
        shifts = torch.arange(bits - 1, -1, -1)
        return ((pos.long().unsqueeze(1) >> shifts) & 1).float()
    raise ValueError(f"unknown positional encoding kind: {kind!r}")


def check_criteria(kind: str, d_model: int = 64, lengths: tuple[int, int] = (16, 32)) -> dict[str, bool]:
    """The lecture's ideal criteria, checked numerically on two sequence lengths.

    unique:           every position gets its own encoding
    bounded:          values stay in [-1, 1] however long the sequence
    length_independent: position p is encoded the same in a short and a long sequence
    equal_distance:   distance(x, x+h) is the same for every x (h = 1, 2, 3)
    """
    short, long_ = (encoding_table(kind, n, d_model) for n in lengths)
    if kind == "binary":  # pad the shorter table's bits on the left, as a number would be
        short = torch.cat([torch.zeros(short.size(0), long_.size(1) - short.size(1)), short], dim=1)
    equal = True
    for h in (1, 2, 3):
        dist = (long_[h:] - long_[:-h]).norm(dim=1)
        equal &= bool(dist.max() - dist.min() < 1e-4)
    return {
        "unique": torch.unique(long_, dim=0).size(0) == long_.size(0),
        "bounded": bool(long_.abs().max() <= 1.0),
        "length_independent": bool(torch.allclose(short, long_[: short.size(0)])),
        "equal_distance": equal,
    }
