"""Untrusted checkpoint uploads: a .zip of a checkpoint folder, or the folder's files one by one.

    folder = stage_upload(files, parent, limits)       # checked copies in a fresh temp dir, or UploadError
    ckpt = load_staged(folder, limits)                 # pre-checks, then load_checkpoint (CheckpointError)
    ckpt = load_upload(files, parent, limits)          # both; the temp dir is removed on any failure

Nothing here imports Streamlit; the Models page (pages/models.py) calls it with st.file_uploader's files.

What an upload can never do
- be unpickled: weights are read only with safetensors; pickle-based files (.pt, .bin, .pkl, …) are
  refused by name, and a model.safetensors that is really a pickle or a torch.save zip by its first bytes;
- exceed the caps (UploadLimits): each file, all files together, the archive, the number of members;
  for a zip the sizes its headers declare are checked first, and then every byte actually inflated is
  counted while streaming, so a bomb whose headers lie is stopped at the cap (memory stays at one
  chunk, disk at the cap);
- choose a path: an archive member is matched only by its base name against the known file names
  (files.FILES), at most one folder deep (a zip of the folder), and written into a fresh temp dir
  under the caller's (per-session) dir with the canonical name; members with "..", absolute or drive
  paths, symlinks or encryption make the whole archive refused; unknown names and nested archives are
  skipped, never opened;
- make the server build a huge model or record a huge run: the model config.json describes must have at
  most 16 heads of at least 8 dimensions, 12 layers a stack, 8,192 positions, an FFN at most 8 times
  d_model and 131,072 pieces, and its size, counted without building it, must fit the weights file and
  the caps before anything is allocated (runs.RECORD_BUDGET then bounds each run);
- make the server read a huge small file: each file has a cap by its name (validate.file_cap: 1 MB for
  JSON and the card), checked when it is copied and again when it is read.

A Hugging Face Marian folder (marian.py) is accepted too: config.json, model.safetensors, source.spm,
target.spm and vocab.json (its pytorch_model.bin is a pickle, refused like any other).
"""
from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import struct
import tempfile
import time
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from . import marian
from .files import CONFIG, FILES, REQUIRED, WEIGHTS, Checkpoint, CheckpointError
from .load import load_checkpoint
from .validate import file_cap, read_json

MB = 1024 * 1024
CHUNK = 1 * MB
# Pickle-based formats: never opened, refused with a pointer to safetensors.
PICKLE_SUFFIXES = (".pt", ".pth", ".bin", ".pkl", ".pickle", ".ckpt", ".joblib", ".dill", ".npy", ".npz")
ARCHIVE_SUFFIXES = (".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".zst")
UPLOAD_PREFIX = "atlas-upload-"
_CANONICAL = {name.lower(): name for name in (*FILES, *marian.FILES)}
_DRIVE = re.compile(r"^[A-Za-z]:")


class UploadError(ValueError):
    """An upload that is refused.  code names the fault (for translated messages), params fill them in;
    str(err) is a plain English message."""

    def __init__(self, code: str, message: str, **params):
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class UploadLimits:
    max_total_bytes: int = 200 * MB    # all extracted files together (and the archive itself)
    max_file_bytes: int = 200 * MB     # any one file
    max_members: int = 32              # entries in a zip (files and folders)
    max_files: int = 16                # files picked in one upload
    max_layers: int = 12               # n_encoder_layers, and n_decoder_layers, in config.json
    max_heads: int = 16                # n_heads
    min_d_k: int = 8                   # d_model / n_heads
    max_positions: int = 8192          # max_len
    max_ffn_ratio: int = 8             # d_ff / d_model
    max_vocab: int = 131_072           # vocab_size (OPUS-MT's are at most ~80,000)
    max_model_bytes: int = 0           # the model in memory (float32 parameters + buffers); 0: 2 × max_file_bytes + 64 MB

    @property
    def model_bytes(self) -> int:
        return self.max_model_bytes or 2 * self.max_file_bytes + 64 * MB

    @classmethod
    def from_env(cls, environ=None) -> UploadLimits:
        """ATLAS_UPLOAD_MAX_MB (total, default 200) and ATLAS_UPLOAD_MAX_FILE_MB (each file, default: the total)."""
        environ = os.environ if environ is None else environ

        def megabytes(name: str, default: float) -> int:
            try:
                value = float(environ.get(name, "") or default)
            except ValueError:
                value = default
            return int(max(value, 0.001) * MB)

        total = megabytes("ATLAS_UPLOAD_MAX_MB", 200)
        return cls(max_total_bytes=total, max_file_bytes=min(total, megabytes("ATLAS_UPLOAD_MAX_FILE_MB", total / MB)))


def mb(n: int) -> str:
    """Bytes as megabytes for messages: 200, 0.5."""
    value = n / MB
    return f"{value:.0f}" if value >= 10 else f"{value:.3g}"


# --- names ----------------------------------------------------------------------------------------

def _parts(name: str) -> list[str]:
    return [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]


def _unsafe_path(name: str) -> bool:
    norm = name.replace("\\", "/")
    return (norm.startswith("/") or bool(_DRIVE.match(norm)) or "\x00" in norm
            or any(p == ".." for p in norm.split("/")))


def classify_name(name: str) -> tuple[str, str]:
    """("file", canonical name) | ("pickle", base) | ("archive", base) | ("unknown", base) for a base name."""
    base = _parts(name)[-1] if _parts(name) else ""
    lower = base.lower()
    if lower in _CANONICAL:
        return "file", _CANONICAL[lower]
    if lower.endswith(PICKLE_SUFFIXES):
        return "pickle", base
    if lower.endswith(ARCHIVE_SUFFIXES):
        return "archive", base
    return "unknown", base


def _refuse_pickle(base: str):
    raise UploadError("pickle", f"'{base}' is a pickle-based file: pickles can run code when loaded, so only "
                      f"safetensors weights ({WEIGHTS}) are accepted", name=base)


# --- byte-counted copies --------------------------------------------------------------------------

class _Budget:
    """Bytes still allowed for all files together."""

    def __init__(self, limits: UploadLimits):
        self.limits = limits
        self.left = limits.max_total_bytes


DISK_FULL = (errno.ENOSPC, errno.EDQUOT)


def _disk_full(err: OSError):
    raise UploadError("disk_full", f"the server's disk is full: the upload could not be stored ({err.strerror})",
                      error=str(err.strerror)) from None


def copy_capped(src: BinaryIO, dest: Path, limit: int, on_exceed) -> int:
    """Stream src into the new file dest, CHUNK bytes at a time, reading at most limit + 1 bytes:
    one byte over the limit calls on_exceed() (which raises).  Returns the bytes written.
    A full disk (ENOSPC, EDQUOT) raises UploadError "disk_full"."""
    written = 0
    try:
        with open(dest, "xb") as out:
            while True:
                chunk = src.read(min(CHUNK, limit + 1 - written))
                if not chunk:
                    return written
                written += len(chunk)
                if written > limit:
                    on_exceed()
                out.write(chunk)
    except OSError as err:
        if err.errno in DISK_FULL:
            _disk_full(err)
        raise


def _declared_size(fileobj) -> int | None:
    size = getattr(fileobj, "size", None)
    if isinstance(size, int):
        return size
    try:
        if fileobj.seekable():
            pos = fileobj.tell()
            end = fileobj.seek(0, os.SEEK_END)
            fileobj.seek(pos)
            return end - pos
    except (AttributeError, OSError, ValueError):
        pass
    return None


def _too_large_file(name: str, limits: UploadLimits):
    raise UploadError("file_too_large", f"'{name}' is larger than {mb(limits.max_file_bytes)} MB, "
                      "the most one file may be", name=name, limit_mb=mb(limits.max_file_bytes))


def _too_large_total(limits: UploadLimits):
    raise UploadError("total_too_large", f"the upload is larger than {mb(limits.max_total_bytes)} MB in all, "
                      "the most this server accepts", limit_mb=mb(limits.max_total_bytes))


def _check_size(name: str, size: int | None, budget: _Budget) -> None:
    if size is None:
        return
    cap = file_cap(name)
    if cap is not None and cap < budget.limits.max_file_bytes and size > cap:
        _too_large_for_its_kind(name, cap)
    if size > budget.limits.max_file_bytes:
        _too_large_file(name, budget.limits)
    if size > budget.left:
        _too_large_total(budget.limits)


def _too_large_for_its_kind(name: str, cap: int):
    raise UploadError("file_too_large", f"'{name}' is larger than {mb(cap)} MB, the most a {name} may be",
                      name=name, limit_mb=mb(cap))


def _copy_member(src: BinaryIO, dest: Path, name: str, budget: _Budget, declared: int | None = None) -> None:
    """Copy one file; a zip member (declared = the size its headers give) may not inflate past that."""
    limits = budget.limits
    cap = file_cap(name) or limits.max_file_bytes
    limit = min(limits.max_file_bytes, cap, budget.left)
    if declared is not None:
        limit = min(limit, declared)

    def exceeded():
        if cap < limits.max_file_bytes and limit == cap:
            _too_large_for_its_kind(name, cap)
        if declared is not None:
            raise UploadError("zip_bomb", f"'{name}' inflates to more than the {declared:,} bytes its archive "
                              "declares: the archive was refused", name=name, declared=f"{declared:,}")
        if limit == limits.max_file_bytes:
            _too_large_file(name, limits)
        _too_large_total(limits)

    budget.left -= copy_capped(src, dest, limit, exceeded)


# --- zip archives ---------------------------------------------------------------------------------

def _zip_directory_size(fileobj) -> tuple[int, int] | None:
    """(entries, bytes) of the central directory from the end record, read before zipfile parses it."""
    end_record = getattr(zipfile, "_EndRecData", None)
    if end_record is None:
        return None
    try:
        rec = end_record(fileobj)
    except (OSError, struct.error, ValueError):
        return None
    if not rec:
        return None
    return rec[zipfile._ECD_ENTRIES_TOTAL], rec[zipfile._ECD_SIZE]


def _bad_zip(name: str, err: Exception):
    raise UploadError("bad_zip", f"'{name}' is not a readable zip archive ({err})", name=name, error=str(err))


def _extract_zip(name: str, fileobj, folder: Path, found: dict[str, str], ignored: list[str],
                 budget: _Budget) -> None:
    limits = budget.limits
    size = _declared_size(fileobj)
    if size is not None and size > limits.max_total_bytes:
        _too_large_total(limits)
    if not (hasattr(fileobj, "seekable") and fileobj.seekable()):
        _bad_zip(name, ValueError("not seekable"))
    directory = _zip_directory_size(fileobj)
    if directory is not None:
        entries, cd_bytes = directory
        if entries > limits.max_members or cd_bytes > limits.max_members * 4096:
            raise UploadError("too_many_members", f"'{name}' holds more than {limits.max_members} entries",
                              name=name, limit=limits.max_members)
    try:
        fileobj.seek(0)
        archive = zipfile.ZipFile(fileobj)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError, struct.error) as err:
        _bad_zip(name, err)
    with archive:
        infos = archive.infolist()
        if len(infos) > limits.max_members:
            raise UploadError("too_many_members", f"'{name}' holds more than {limits.max_members} entries",
                              name=name, limit=limits.max_members)
        chosen = []
        for info in infos:
            member = info.filename
            if _unsafe_path(member):
                raise UploadError("unsafe_member", f"'{name}' holds an entry with an unsafe path ({member!r}): "
                                  "the archive was refused", name=name, member=member)
            if stat.S_ISLNK(info.external_attr >> 16):
                raise UploadError("unsafe_member", f"'{name}' holds a symbolic link ({member!r}): "
                                  "the archive was refused", name=name, member=member)
            if info.is_dir():
                continue
            parts = _parts(member)
            kind, base = classify_name(member)
            if kind == "pickle":
                _refuse_pickle(base)
            if kind != "file" or len(parts) > 2:          # unknown names, nested archives, deeper folders
                ignored.append(member)
                continue
            if info.flag_bits & 0x1:
                raise UploadError("encrypted", f"'{name}' is encrypted; upload it without a password", name=name)
            if base in found:
                raise UploadError("duplicate", f"'{base}' appears more than once in the upload", name=base)
            found[base] = member
            chosen.append((base, info))
        declared = sum(info.file_size for _, info in chosen)
        for base, info in chosen:
            _check_size(base, info.file_size, budget)
        if declared > budget.left:
            _too_large_total(limits)
        for base, info in chosen:
            try:
                with archive.open(info) as src:
                    _copy_member(src, folder / base, base, budget, declared=info.file_size)
            except UploadError:
                raise
            except (zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError, EOFError, OSError,
                    ValueError, struct.error) as err:
                _bad_zip(name, err)


# --- staging --------------------------------------------------------------------------------------

def _open(item) -> tuple[str, BinaryIO, bool]:
    """(name, binary file object, whether we opened it) for a path or a named file object."""
    if isinstance(item, (str, Path)):
        path = Path(item)
        return path.name, open(path, "rb"), True
    name = getattr(item, "name", None)
    if not isinstance(name, str) or not hasattr(item, "read"):
        raise TypeError("upload items are paths or file objects with a .name")
    try:
        if item.seekable():
            item.seek(0)                  # a retry gets the same file objects again
    except (AttributeError, OSError, ValueError):
        pass
    return name, item, False


def new_upload_dir(parent: str | Path) -> Path:
    """A fresh, private temp dir under parent (created if needed)."""
    parent = Path(parent)
    try:
        parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        return Path(tempfile.mkdtemp(prefix=UPLOAD_PREFIX, dir=parent))
    except OSError as err:
        if err.errno in DISK_FULL:
            _disk_full(err)
        raise


@dataclass
class Staged:
    folder: Path                 # a fresh temp dir holding only canonical file names
    ignored: list[str]           # names that were skipped (unknown, nested archives, too deep)
    label: str                   # a display name: the archive's or the folder's name


def _label(names: list[str], found: dict[str, str]) -> str:
    for source in found.values():
        parts = _parts(source)
        if len(parts) == 2:
            return parts[0]
    zips = [n for n in names if n.lower().endswith(".zip")]
    if zips:
        return Path(_parts(zips[0])[-1] if _parts(zips[0]) else "upload").stem
    return "upload"


def stage_upload(files: Iterable, parent: str | Path, limits: UploadLimits | None = None) -> Staged:
    """Check the uploaded files (paths or file objects with .name) and write the checkpoint's files into
    a fresh temp dir under parent.  Raises UploadError (and leaves nothing behind) on any fault."""
    limits = limits or UploadLimits()
    files = list(files)
    if not files:
        raise UploadError("empty", "nothing was uploaded")
    if len(files) > limits.max_files:
        raise UploadError("too_many_files", f"at most {limits.max_files} files can be uploaded at once",
                          limit=limits.max_files)
    budget = _Budget(limits)
    folder = new_upload_dir(parent)
    found: dict[str, str] = {}
    ignored: list[str] = []
    names: list[str] = []
    try:
        for item in files:
            name, fileobj, opened = _open(item)
            names.append(name)
            try:
                kind, base = classify_name(name)
                if kind == "pickle":
                    _refuse_pickle(base)
                if base.lower().endswith(".zip"):
                    _extract_zip(base, fileobj, folder, found, ignored, budget)
                elif kind == "file":
                    if base in found:
                        raise UploadError("duplicate", f"'{base}' appears more than once in the upload", name=base)
                    _check_size(base, _declared_size(fileobj), budget)     # before reading anything
                    found[base] = name
                    _copy_member(fileobj, folder / base, base, budget)
                else:
                    ignored.append(base)
            finally:
                if opened:
                    fileobj.close()
        model_type = marian.hf_model_type(folder / CONFIG) if CONFIG in found else None
        if model_type not in (None, "marian"):       # T5, BART, …: say so, rather than which files it lacks
            raise marian.UnsupportedModel(model_type)
        required = marian.REQUIRED if found.keys() & {marian.SOURCE_SPM, marian.TARGET_SPM, marian.VOCAB} else REQUIRED
        missing = [f for f in required if f not in found]
        if missing:
            raise UploadError("missing", f"the upload lacks {', '.join(missing)} (a checkpoint holds "
                              f"{', '.join(required)})" + (f"; skipped: {', '.join(ignored[:8])}" if ignored else ""),
                              missing=", ".join(missing), required=", ".join(required),
                              ignored=", ".join(ignored[:8]))
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return Staged(folder, ignored, _label(names, found))


# --- checks before load_checkpoint ----------------------------------------------------------------

def sniff_weights(path: Path) -> None:
    """Refuse a model.safetensors that is a pickle (or a torch.save zip of pickles), without unpickling it."""
    with open(path, "rb") as f:
        head = f.read(16)
    if head[8:9] == b"{":                    # an 8-byte header length, then the JSON header: safetensors-shaped
        return
    pickled = len(head) > 1 and head[0] == 0x80 and 2 <= head[1] <= 5      # PROTO opcode, protocol 2-5
    if pickled or head[:4] == b"PK\x03\x04":                                  # or torch.save's zip of pickles
        raise UploadError("pickle_weights", f"{WEIGHTS} is a pickle (a torch.save file), not safetensors: it was "
                          "not opened. Save the weights with safetensors.torch.save_file.", name=WEIGHTS)


def model_size(config) -> tuple[int, int]:
    """(parameters, bytes in memory) of the model config describes, counted: nothing is built or allocated.
    Parameters are float32 (4 B); the sine table is computed in float64 with temporaries (20 B an element,
    measured at its peak)."""
    from ..model.transformer import sizes

    params, buffers = sizes(config)
    return params, 4 * params + 20 * buffers


def described_models(data: dict):
    """(largest, smallest) model config.json (its parsed content) may describe: the same config for this
    project's own; a Marian config.json does not say whether the embeddings are tied (its weights do), so
    both bounds."""
    from ..model.config import ModelConfig

    if marian.model_type(data) == "marian":
        smallest = marian.marian_config(data, ("src", "tgt"), unk_id=0)
        return ModelConfig(**{**vars(smallest), "share_src_embedding": False, "tie_output": False}), smallest
    config = ModelConfig.from_dict(data)
    return config, config


def _model_too_large(what: str, limit: str):
    raise UploadError("model_too_large", f"{CONFIG} describes a model too large for this server: {what} "
                      f"(the limit is {limit})", what=what, limit=limit)


def check_shapes(config, limits: UploadLimits) -> None:
    """What one run of the model may record grows with layers × heads × length²: bound each."""
    for stack in ("n_encoder_layers", "n_decoder_layers"):
        if getattr(config, stack) > limits.max_layers:
            _model_too_large(f"{stack} = {getattr(config, stack)}", f"{limits.max_layers} layers a stack")
    if config.n_heads > limits.max_heads:
        _model_too_large(f"n_heads = {config.n_heads}", f"{limits.max_heads} heads")
    if config.d_k < limits.min_d_k:
        _model_too_large(f"d_k = {config.d_k}", f"d_k of at least {limits.min_d_k}")
    if config.max_len > limits.max_positions:
        _model_too_large(f"max_len = {config.max_len}", f"{limits.max_positions:,} positions")
    if config.d_ff > limits.max_ffn_ratio * config.d_model:
        _model_too_large(f"d_ff = {config.d_ff}", f"d_ff of at most {limits.max_ffn_ratio} × d_model")
    if config.vocab_size > limits.max_vocab:
        _model_too_large(f"vocab_size = {config.vocab_size:,}", f"{limits.max_vocab:,} pieces")


def check_folder(folder: str | Path, limits: UploadLimits | None = None) -> dict | None:
    """The checks an untrusted checkpoint folder (an upload, a Hub snapshot) passes before load_checkpoint
    may allocate anything: file sizes (each within its cap), weights not a pickle, and a model whose shape
    and size fit the caps and the weights.  -> config.json's content (parsed once), or None when it cannot
    be read (load_checkpoint then reports it)."""
    limits = limits or UploadLimits()
    folder = Path(folder)
    total = 0
    for name in dict.fromkeys((*FILES, *marian.FILES, marian.README, marian.TORCH_WEIGHTS)):   # each file once
        path = folder / name
        if path.is_file():
            size = path.stat().st_size
            cap = file_cap(name)
            if cap is not None and cap < limits.max_file_bytes and size > cap:
                _too_large_for_its_kind(name, cap)
            if size > limits.max_file_bytes:
                _too_large_file(name, limits)
            total += size
    if total > limits.max_total_bytes:
        _too_large_total(limits)
    if (folder / WEIGHTS).is_file():
        sniff_weights(folder / WEIGHTS)
    try:
        data = read_json(folder / CONFIG)
        config, smallest = described_models(data)
    except Exception:        # noqa: BLE001 - load_checkpoint reports a bad config.json with its own message
        return None
    check_shapes(config, limits)
    params, nbytes = model_size(config)
    weights_file = next((f for f in (folder / WEIGHTS, folder / marian.TORCH_WEIGHTS) if f.is_file()), None)
    if nbytes > limits.model_bytes:
        _model_too_large(f"{params:,} parameters ({mb(nbytes)} MB)", f"{mb(limits.model_bytes)} MB")
    params = model_size(smallest)[0]
    if weights_file and params > weights_file.stat().st_size:
        raise UploadError("weights_too_small", f"{CONFIG} describes {params:,} parameters, but {weights_file.name} "
                          f"holds only {weights_file.stat().st_size:,} bytes: the weights cannot match the config",
                          params=f"{params:,}", size=f"{weights_file.stat().st_size:,}", name=weights_file.name)
    return data


def load_checked(folder: str | Path, limits: UploadLimits | None = None) -> Checkpoint:
    """check_folder, then load_checkpoint; any other exception from the loader becomes CheckpointError."""
    data = check_folder(folder, limits)
    try:
        return load_checkpoint(folder, data)
    except CheckpointError:
        raise
    except Exception as err:   # noqa: BLE001 - e.g. a bare ValueError from config validation
        raise CheckpointError(f"the checkpoint cannot be loaded ({type(err).__name__}: {err})") from None


def load_upload(files: Iterable, parent: str | Path, limits: UploadLimits | None = None) -> tuple[Checkpoint, Staged]:
    """stage_upload + load_checked.  On failure the staged dir is removed and the error re-raised."""
    staged = stage_upload(files, parent, limits)
    try:
        return load_checked(staged.folder, limits), staged
    except BaseException:
        shutil.rmtree(staged.folder, ignore_errors=True)
        raise


def sweep_stale(parent: str | Path, max_age_s: float = 24 * 3600, prefix: str = UPLOAD_PREFIX) -> int:
    """Remove prefix* dirs under parent not modified for max_age_s (left over by a crashed server)."""
    parent = Path(parent)
    removed = 0
    if not parent.is_dir():
        return 0
    now = time.time()
    for path in parent.iterdir():
        try:
            if path.name.startswith(prefix) and path.is_dir() and not path.is_symlink() \
                    and now - path.stat().st_mtime > max_age_s:
                shutil.rmtree(path, ignore_errors=True)
                removed += 1
        except OSError:
            continue
    return removed


# --- messages: CheckpointError text -> a kind the UI can translate ---------------------------------

_KINDS = (
    ("checkpoint is missing", "missing"),
    ("checkpoint folder not found", "missing"),
    ("is not a valid safetensors file", "bad_weights"),
    ("tensors, more than the", "bad_weights"),
    ("lacks tensors", "weights_mismatch"),
    ("has tensors the config does not know", "weights_mismatch"),
    ("but config.json implies", "weights_mismatch"),
    ("expected float32", "bad_values"),
    ("MB, the most it may be", "file_too_large"),
    ("holds compressed or oversized members", "bad_torch_weights"),
    ("training.json", "bad_training"),
    ("NaN or infinite", "bad_values"),
    ("vocabulary mismatch", "vocab_mismatch"),
    (f"{CONFIG}:", "bad_config"),
    ("spm.model:", "bad_tokenizer"),
    ("examples.json", "bad_examples"),
    ("generation_config.json", "bad_generation"),
    ("vocab.json", "bad_vocab"),
    (".spm:", "bad_tokenizer"),
    ("tokenizer_config.json", "bad_config"),
    ("is not in the local Hugging Face cache", "hf_not_cached"),
    ("was not found", "hf_not_found"),
    ("is not a valid Hugging Face repo id", "hf_bad_id"),
    ("could not download", "hf_download"),
)


def checkpoint_error_kind(err: Exception | str) -> str:
    """A short kind for a CheckpointError's message ("weights_mismatch", "bad_config", …; else "other")."""
    text = str(err)
    for needle, kind in _KINDS:
        if needle in text:
            return kind
    return "other"
