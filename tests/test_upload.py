"""Untrusted uploads (transformer_core/checkpoints/upload.py) and the Hub helpers (transformer_core/checkpoints/hub.py).

Every hostile input is generated here: pickles that write a file when unpickled, wrong shapes,
oversized files, deflate bombs (with honest and with forged headers), zip-slip and absolute paths,
symlinks, nested archives.  Nothing touches the network: Hugging Face runs offline on a cache
built by hand.
"""
import io
import json
import pathlib
import pickle
import shutil
import stat
import struct
import tracemalloc
import zipfile

import huggingface_hub.constants
import pytest
import torch
from safetensors.torch import load_file, save_file

from transformer_core.checkpoints import hub
from transformer_core.checkpoints.files import CARD, CONFIG, FILES, LOG, TOKENIZER, WEIGHTS, CheckpointError
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.checkpoints.upload import (
    MB,
    UploadError,
    UploadLimits,
    check_folder,
    checkpoint_error_kind,
    copy_capped,
    load_upload,
    sniff_weights,
    stage_upload,
    sweep_stale,
)

pytestmark = pytest.mark.usefixtures("one_thread")

CARD_TEXT = "# Toy model\n\nA *tiny* random model. <script>alert(1)</script>\n"
COMMIT = "fedcba9876543210fedcba9876543210fedcba98"


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)


@pytest.fixture
def folder(tmp_path, toy_checkpoints):
    """A copy of the toy checkpoint "toy-en" with a model card and a training log."""
    out = tmp_path / "my-model"
    shutil.copytree(toy_checkpoints / "toy-en", out)
    (out / CARD).write_text(CARD_TEXT, encoding="utf-8")
    (out / LOG).write_text('{"step": 1, "lr": 0.001, "loss": 3.0}\n', encoding="utf-8")
    return out


@pytest.fixture
def sessions(tmp_path):
    """The per-session parent dir uploads are staged under."""
    return tmp_path / "session"


def zip_bytes(entries, compression=zipfile.ZIP_DEFLATED) -> bytes:
    """entries: [(member name or ZipInfo, bytes)]."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as zf:
        for name, data in entries:
            zf.writestr(name, data)
    return buf.getvalue()


def folder_entries(folder, prefix="my-model/"):
    return [(prefix + p.name, p.read_bytes()) for p in sorted(folder.iterdir())]


def named(name, data: bytes):
    """An in-memory upload like Streamlit's UploadedFile: a BytesIO with .name and .size."""
    f = io.BytesIO(data)
    f.name, f.size = name, len(data)
    return f


def outside_files(root, inside):
    """Every file under root that is not under inside."""
    inside = inside.resolve()
    return sorted(p for p in root.rglob("*") if p.is_file() and inside not in p.resolve().parents)


# --- the good cases ------------------------------------------------------------------------------

def test_zip_of_a_folder_loads(folder, sessions):
    upload = named("my-model.zip", zip_bytes(folder_entries(folder)))
    ckpt, staged = load_upload([upload], sessions)
    assert staged.label == "my-model" and staged.ignored == []
    assert staged.folder.parent == sessions and staged.folder.name.startswith("atlas-upload-")
    assert sorted(p.name for p in staged.folder.iterdir()) == sorted(p.name for p in folder.iterdir())
    assert ckpt.card == CARD_TEXT and ckpt.config == load_checkpoint(folder).config
    for name, tensor in load_checkpoint(folder).model.state_dict().items():
        assert torch.equal(ckpt.model.state_dict()[name], tensor)


def test_flat_zip_and_single_files_load(folder, sessions):
    ckpt, staged = load_upload([named("ckpt.zip", zip_bytes(folder_entries(folder, prefix="")))], sessions)
    assert staged.label == "ckpt" and ckpt.card == CARD_TEXT
    files = [named(p.name, p.read_bytes()) for p in folder.iterdir()]
    ckpt2, staged2 = load_upload(files, sessions)
    assert staged2.folder != staged.folder and ckpt2.config == ckpt.config
    ckpt3, _ = load_upload([folder / n for n in (CONFIG, WEIGHTS, TOKENIZER)], sessions)   # paths work too
    assert ckpt3.card == "" and ckpt3.log_path is None


def test_unknown_names_are_skipped_and_reported(folder, sessions):
    entries = folder_entries(folder) + [("my-model/README.txt", b"hi"), ("__MACOSX/my-model/._config.json", b"x"),
                                        ("my-model/sub/deeper/config.json", b"{}"), ("my-model/.gitattributes", b"")]
    ckpt, staged = load_upload([named("m.zip", zip_bytes(entries))], sessions)
    assert sorted(staged.ignored) == sorted(["my-model/README.txt", "__MACOSX/my-model/._config.json",
                                             "my-model/sub/deeper/config.json", "my-model/.gitattributes"])
    assert sorted(p.name for p in staged.folder.iterdir()) == sorted(p.name for p in folder.iterdir())


def test_missing_required_file(folder, sessions):
    entries = [e for e in folder_entries(folder) if not e[0].endswith(TOKENIZER)]
    with pytest.raises(UploadError) as info:
        stage_upload([named("m.zip", zip_bytes(entries + [("notes.txt", b"")]))], sessions)
    assert info.value.code == "missing" and info.value.params["missing"] == TOKENIZER
    assert str(info.value) == (f"the upload lacks {TOKENIZER} (a checkpoint holds {CONFIG}, {WEIGHTS}, {TOKENIZER})"
                               "; skipped: notes.txt")
    assert list(sessions.iterdir()) == []          # the staged dir was removed


def test_duplicate_names_are_refused(folder, sessions):
    entries = folder_entries(folder) + [("other/config.json", (folder / CONFIG).read_bytes())]
    with pytest.raises(UploadError) as info:
        stage_upload([named("m.zip", zip_bytes(entries))], sessions)
    assert info.value.code == "duplicate"
    with pytest.raises(UploadError, match="appears more than once"):
        stage_upload([named(CONFIG, b"{}"), named("CONFIG.JSON", b"{}")], sessions)


# --- pickles: refused, never unpickled -----------------------------------------------------------

class Payload:
    """Unpickling this touches `marker`: proof that something was unpickled."""

    def __init__(self, marker):
        self.marker = pathlib.Path(marker)

    def __reduce__(self):
        return pathlib.Path.touch, (self.marker,)


def test_the_bait_is_real(tmp_path):
    proof = tmp_path / "proof"
    pickle.loads(pickle.dumps(Payload(proof)))
    assert proof.exists()


@pytest.mark.parametrize("how", ["raw pickle", "torch.save"])
def test_pickle_as_model_safetensors(folder, sessions, tmp_path, how):
    marker = tmp_path / "pwned"
    if how == "raw pickle":
        data = pickle.dumps({"w": Payload(marker)}, protocol=4)
    else:
        buf = io.BytesIO()
        torch.save({"w": Payload(marker)}, buf)
        data = buf.getvalue()
    files = [named(CONFIG, (folder / CONFIG).read_bytes()), named(WEIGHTS, data),
             named(TOKENIZER, (folder / TOKENIZER).read_bytes())]
    for upload in (files, [named("m.zip", zip_bytes([(f.name, f.getvalue()) for f in files]))]):
        with pytest.raises(UploadError) as info:
            load_upload(upload, sessions)
        assert info.value.code == "pickle_weights"
        assert str(info.value).startswith(f"{WEIGHTS} is a pickle (a torch.save file), not safetensors")
    assert not marker.exists()
    assert list(sessions.iterdir()) == []


@pytest.mark.parametrize("name", ["model.pt", "pytorch_model.bin", "weights.pkl", "my-model/model.ckpt"])
def test_pickle_files_by_name(folder, sessions, tmp_path, name):
    marker = tmp_path / "pwned"
    buf = io.BytesIO()
    torch.save({"w": Payload(marker)}, buf)
    entries = [e for e in folder_entries(folder) if not e[0].endswith(WEIGHTS)] + [(name, buf.getvalue())]
    with pytest.raises(UploadError) as info:
        load_upload([named("m.zip", zip_bytes(entries))], sessions)
    base = name.rsplit("/", 1)[-1]
    assert info.value.code == "pickle" and info.value.params == {"name": base}
    assert str(info.value) == (f"'{base}' is a pickle-based file: pickles can run code when loaded, so only "
                               f"safetensors weights ({WEIGHTS}) are accepted")
    with pytest.raises(UploadError, match="pickle-based"):
        load_upload([named(base, buf.getvalue())], sessions)
    assert not marker.exists()


def test_a_real_safetensors_file_passes_the_sniff(folder):
    sniff_weights(folder / WEIGHTS)
    header_384 = json.dumps({"__metadata__": {"x": "y" * 340}}).encode()   # a header length whose low byte is 0x80
    path = folder / "h.safetensors"
    path.write_bytes(struct.pack("<Q", 0x180) + header_384.ljust(0x180))
    assert path.read_bytes()[0] == 0x80
    sniff_weights(path)


# --- wrong shapes, bad values, and a config that describes a huge model --------------------------

def _rewrite(folder, change):
    state = load_file(str(folder / WEIGHTS))
    change(state)
    save_file(state, str(folder / WEIGHTS))


def test_wrong_shapes(folder, sessions):
    _rewrite(folder, lambda s: s.update({"encoder.0.self_attn.w_q.weight": torch.zeros(32, 16)}))
    with pytest.raises(CheckpointError) as info:
        load_upload([named("m.zip", zip_bytes(folder_entries(folder)))], sessions)
    assert str(info.value) == ("tensor 'encoder.0.self_attn.w_q.weight' has shape (32, 16), "
                               "but config.json implies (32, 32)")
    assert checkpoint_error_kind(info.value) == "weights_mismatch"
    assert list(sessions.iterdir()) == []


def test_huge_config_is_refused_before_anything_is_built(folder, sessions, monkeypatch):
    import transformer_core.model.transformer as model_module

    built = []
    real_init = model_module.Transformer.__init__

    def spy(self, cfg):
        built.append(torch.empty(0).device.type)     # the default device while the model is built
        real_init(self, cfg)
    monkeypatch.setattr(model_module.Transformer, "__init__", spy)
    cfg = json.loads((folder / CONFIG).read_text())
    for change, code in (({"d_model": 4096, "d_ff": 10**9, "n_heads": 4}, "model_too_large"),
                         ({"max_len": 10**9}, "model_too_large"),
                         ({"n_encoder_layers": 10**6}, "model_too_large"),
                         ({"d_model": 256, "n_heads": 4}, "weights_too_small")):
        (folder / CONFIG).write_text(json.dumps({**cfg, **change}))
        with pytest.raises(UploadError) as info:
            check_folder(folder)
        assert info.value.code == code, change
    assert set(built) <= {"meta"}                      # never on the CPU


def test_any_loader_fault_is_a_checkpoint_error(folder, sessions, monkeypatch):
    cfg = json.loads((folder / CONFIG).read_text())
    (folder / CONFIG).write_text(json.dumps({**cfg, "dropout": "lots"}))
    with pytest.raises(CheckpointError, match=r"^config\.json: "):
        load_upload([folder / n for n in (CONFIG, WEIGHTS, TOKENIZER)], sessions)
    import transformer_core.checkpoints.upload as upload_module

    def broken(path, config=None):
        raise RuntimeError("something the loader did not expect")
    monkeypatch.setattr(upload_module, "load_checkpoint", broken)
    (folder / CONFIG).write_text(json.dumps(cfg))
    with pytest.raises(CheckpointError) as info:
        load_upload([folder / n for n in (CONFIG, WEIGHTS, TOKENIZER)], sessions)
    assert str(info.value) == "the checkpoint cannot be loaded (RuntimeError: something the loader did not expect)"
    assert list(sessions.iterdir()) == []


# --- size caps -----------------------------------------------------------------------------------

class Counting(io.RawIOBase):
    """An endless stream of zeros that counts what was read; size is what it claims (None: nothing)."""

    def __init__(self, name, size=None):
        self.name, self.read_bytes = name, 0
        if size is not None:
            self.size = size

    def readable(self):
        return True

    def readinto(self, buf):
        n = len(buf)
        buf[:n] = bytes(n)
        self.read_bytes += n
        return n


def test_oversized_file_is_refused_before_reading(sessions):
    limits = UploadLimits(max_total_bytes=10 * MB, max_file_bytes=4 * MB)
    big = Counting(WEIGHTS, size=5 * MB)
    with pytest.raises(UploadError) as info:
        stage_upload([big], sessions, limits)
    assert info.value.code == "file_too_large" and info.value.params["limit_mb"] == "4"
    assert str(info.value) == f"'{WEIGHTS}' is larger than 4 MB, the most one file may be"
    assert big.read_bytes == 0
    liar = Counting(WEIGHTS)                            # no size, not seekable, endless: stopped by the counter
    with pytest.raises(UploadError, match="larger than 4 MB"):
        stage_upload([liar], sessions, limits)
    assert liar.read_bytes <= 4 * MB + 1
    assert list(sessions.iterdir()) == []


def test_total_cap(sessions):
    limits = UploadLimits(max_total_bytes=5 * MB, max_file_bytes=3 * MB)
    files = [named(WEIGHTS, bytes(3 * MB)), named(TOKENIZER, bytes(3 * MB))]
    with pytest.raises(UploadError) as info:
        stage_upload(files, sessions, limits)
    assert info.value.code == "total_too_large"
    assert str(info.value) == "the upload is larger than 5 MB in all, the most this server accepts"
    assert list(sessions.iterdir()) == []


def test_copy_capped_stops_a_lying_stream(tmp_path):
    src = Counting("x")
    with pytest.raises(RuntimeError):
        copy_capped(src, tmp_path / "out", 3 * MB, lambda: (_ for _ in ()).throw(RuntimeError("over")))
    assert src.read_bytes == 3 * MB + 1
    assert (tmp_path / "out").stat().st_size <= 3 * MB


def test_too_many_files_and_empty(sessions):
    with pytest.raises(UploadError) as info:
        stage_upload([named(f"f{i}.md", b"") for i in range(20)], sessions)
    assert info.value.code == "too_many_files"
    with pytest.raises(UploadError) as info:
        stage_upload([], sessions)
    assert info.value.code == "empty"


# --- zip bombs -------------------------------------------------------------------------------------

def deflate_bomb(path, inflated: int, name=WEIGHTS) -> None:
    """A zip whose one member inflates to `inflated` zero bytes, written 1 MB at a time."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf, zf.open(name, "w", force_zip64=False) as member:
        for _ in range(inflated // MB):
            member.write(bytes(MB))


def forge_sizes(path, size: int) -> None:
    """Rewrite the uncompressed size in the local header and the central directory (the bomb lies)."""
    data = bytearray(path.read_bytes())
    assert data[:4] == b"PK\x03\x04"
    struct.pack_into("<I", data, 22, size)                       # local file header
    cd = data.rindex(b"PK\x01\x02")
    struct.pack_into("<I", data, cd + 24, size)                  # central directory
    path.write_bytes(bytes(data))


def _bounded(run):
    """Run, and return (exception, peak Python memory in bytes)."""
    tracemalloc.start()
    try:
        try:
            run()
        except Exception as err:   # noqa: BLE001
            return err, tracemalloc.get_traced_memory()[1]
        return None, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_deflate_bomb_is_refused_by_its_declared_size(tmp_path, folder, sessions):
    bomb = tmp_path / "bomb.zip"
    deflate_bomb(bomb, 64 * MB)
    assert bomb.stat().st_size < 200_000                          # 64 MB in a few hundred kB
    for limits, code in ((UploadLimits(max_total_bytes=16 * MB), "total_too_large"),
                         (UploadLimits(max_total_bytes=100 * MB, max_file_bytes=8 * MB), "file_too_large")):
        err, peak = _bounded(lambda: stage_upload([bomb], sessions, limits))  # noqa: B023 called within the iteration
        assert isinstance(err, UploadError) and err.code == code
        assert peak < 8 * MB
    assert list(sessions.iterdir()) == []


def test_deflate_bomb_with_forged_headers_is_stopped_while_reading(tmp_path, folder, sessions):
    bomb = tmp_path / "bomb.zip"
    deflate_bomb(bomb, 64 * MB)
    forge_sizes(bomb, 1000)
    with zipfile.ZipFile(bomb) as zf:
        assert zf.getinfo(WEIGHTS).file_size == 1000              # the headers now claim 1000 bytes
    limits = UploadLimits(max_total_bytes=16 * MB)
    err, peak = _bounded(lambda: stage_upload([bomb], sessions, limits))
    assert isinstance(err, UploadError) and err.code in ("zip_bomb", "bad_zip"), err
    assert peak < 8 * MB
    assert list(sessions.iterdir()) == []                         # nothing left on disk


def test_forged_bomb_against_a_zipfile_that_trusts_the_stream(tmp_path, sessions, monkeypatch):
    """CPython stops inflating at the declared size (then fails the CRC); the byte counter must stop a
    reader that does not: here one that keeps inflating as long as the deflate stream goes on."""
    bomb = tmp_path / "bomb.zip"
    deflate_bomb(bomb, 64 * MB)
    forge_sizes(bomb, 1000)
    real_open = zipfile.ZipFile.open

    def trusting_open(self, *args, **kwargs):
        member = real_open(self, *args, **kwargs)
        if not hasattr(member, "_left"):
            pytest.skip("zipfile internals changed")
        member._left = 1 << 40
        return member
    monkeypatch.setattr(zipfile.ZipFile, "open", trusting_open)
    limits = UploadLimits(max_total_bytes=16 * MB)
    err, peak = _bounded(lambda: stage_upload([bomb], sessions, limits))
    assert isinstance(err, UploadError) and err.code == "zip_bomb", err
    assert str(err) == ("'model.safetensors' inflates to more than the 1,000 bytes its archive declares: "
                        "the archive was refused")
    assert peak < 8 * MB
    assert list(sessions.iterdir()) == []


def test_zip_with_too_many_members(sessions):
    data = zip_bytes([(f"f{i}.txt", b"") for i in range(100)])
    with pytest.raises(UploadError) as info:
        stage_upload([named("many.zip", data)], sessions)
    assert info.value.code == "too_many_members" and info.value.params["limit"] == 32


def test_nested_zip_is_not_followed(folder, sessions):
    inner = zip_bytes(folder_entries(folder))
    with pytest.raises(UploadError) as info:
        stage_upload([named("outer.zip", zip_bytes([("inner.zip", inner), ("my-model/inner2.zip", inner)]))], sessions)
    assert info.value.code == "missing"
    assert "inner.zip" in str(info.value) and "my-model/inner2.zip" in str(info.value)


def test_not_a_zip(sessions):
    with pytest.raises(UploadError) as info:
        stage_upload([named("ckpt.zip", b"this is not a zip at all")], sessions)
    assert info.value.code == "bad_zip"


# --- paths from inside an archive ------------------------------------------------------------------

@pytest.mark.parametrize("evil", ["../config.json", "my-model/../../model.safetensors", "../../etc/evil.txt",
                                  "/tmp/abs/config.json", "/config.json", "C:/evil/config.json",
                                  "..\\..\\config.json"])
def test_zip_slip_and_absolute_paths_write_nothing_outside(folder, tmp_path, sessions, evil):
    entries = folder_entries(folder) + [(evil, b"{}")]
    data = zip_bytes(entries)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert evil in zf.namelist()                              # the hostile name is really in there
    before = outside_files(tmp_path, sessions)
    with pytest.raises(UploadError) as info:
        stage_upload([named("evil.zip", data)], sessions)
    assert info.value.code == "unsafe_member"
    assert outside_files(tmp_path, sessions) == before            # nothing new outside the session dir
    assert list(sessions.iterdir()) == []                         # and nothing left inside it
    assert not pathlib.Path("/tmp/abs/config.json").exists()


def test_raw_zip_slip_names_survive_zipfile_and_are_refused(folder, sessions, tmp_path):
    """zipfile.writestr normalizes some names; write the raw names into the headers to be sure."""
    data = bytearray(zip_bytes(folder_entries(folder) + [("XX/config.json", b"{}")]))
    raw = bytes(data).replace(b"XX/config.json", b"../config.json")
    before = outside_files(tmp_path, sessions)
    with pytest.raises(UploadError) as info:
        stage_upload([named("evil.zip", raw)], sessions)
    assert info.value.code == "unsafe_member" and info.value.params["member"] == "../config.json"
    assert outside_files(tmp_path, sessions) == before


def test_symlink_member_is_refused(folder, sessions):
    link = zipfile.ZipInfo("my-model/spm.model")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    entries = [e for e in folder_entries(folder) if not e[0].endswith(TOKENIZER)] + [(link, b"/etc/passwd")]
    with pytest.raises(UploadError) as info:
        stage_upload([named("link.zip", zip_bytes(entries))], sessions)
    assert info.value.code == "unsafe_member"


def test_only_canonical_names_are_written(folder, sessions):
    entries = [(f"My-Model/{p.name.upper()}", p.read_bytes()) for p in sorted(folder.iterdir())]
    staged = stage_upload([named("m.zip", zip_bytes(entries))], sessions)
    assert sorted(p.name for p in staged.folder.iterdir()) == sorted(p.name for p in folder.iterdir())
    assert {p.name for p in staged.folder.iterdir()} <= set(FILES)


# --- housekeeping ------------------------------------------------------------------------------------

def test_limits_from_env():
    assert UploadLimits.from_env({}) == UploadLimits()
    limits = UploadLimits.from_env({"ATLAS_UPLOAD_MAX_MB": "50", "ATLAS_UPLOAD_MAX_FILE_MB": "20"})
    assert (limits.max_total_bytes, limits.max_file_bytes) == (50 * MB, 20 * MB)
    assert UploadLimits.from_env({"ATLAS_UPLOAD_MAX_MB": "10"}).max_file_bytes == 10 * MB
    assert UploadLimits.from_env({"ATLAS_UPLOAD_MAX_MB": "lots"}) == UploadLimits()


def test_sweep_stale(tmp_path):
    import os
    old, new, other = tmp_path / "atlas-upload-old", tmp_path / "atlas-upload-new", tmp_path / "keep-me"
    for d in (old, new, other):
        d.mkdir()
    os.utime(old, (0, 0))
    os.utime(other, (0, 0))
    assert sweep_stale(tmp_path, max_age_s=3600) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["atlas-upload-new", "keep-me"]


@pytest.mark.parametrize("message, kind", [
    ("checkpoint is missing spm.model (a checkpoint holds …)", "missing"),
    ("model.safetensors is not a valid safetensors file (x)", "bad_weights"),
    ("tensor 'a' has shape (1,), but config.json implies (2,)", "weights_mismatch"),
    ("model.safetensors lacks tensors the config needs: a", "weights_mismatch"),
    ("tensor 'a' holds NaN or infinite values", "bad_values"),
    ("vocabulary mismatch: spm.model has 5 pieces, config.json says vocab_size = 6", "vocab_mismatch"),
    ("config.json: dropout must be in [0, 1), got 1.5", "bad_config"),
    ("spm.model: /x/spm.model: not a SentencePiece model", "bad_tokenizer"),
    ("examples.json is not valid JSON: x", "bad_examples"),
    ("'u/r' is not in the local Hugging Face cache and the Hub cannot be reached", "hf_not_cached"),
    ("Hugging Face repo 'u/r' was not found", "hf_not_found"),
    ("'u r' is not a valid Hugging Face repo id: x", "hf_bad_id"),
    ("something new", "other"),
])
def test_checkpoint_error_kinds(message, kind):
    assert checkpoint_error_kind(CheckpointError(message)) == kind


# --- Hugging Face: a cache built by hand, offline ----------------------------------------------------

def hf_cache(root, folder, repo="user/repo"):
    cache = root / "hf_cache"
    repo_dir = cache / ("models--" + repo.replace("/", "--"))
    (repo_dir / "refs").mkdir(parents=True)
    (repo_dir / "refs" / "main").write_text(COMMIT)
    snap = repo_dir / "snapshots" / COMMIT
    snap.mkdir(parents=True)
    for p in folder.iterdir():
        shutil.copyfile(p, snap / p.name)
    return cache


def test_from_pretrained_offline(folder, tmp_path, monkeypatch):
    cache = hf_cache(tmp_path, folder)
    want = load_checkpoint(folder)
    for ckpt in (hub.from_pretrained("user/repo", cache_dir=cache, local_files_only=True),
                 hub.from_pretrained("user/repo", cache_dir=cache),                # HF_HUB_OFFLINE=1: cache only
                 hub.from_pretrained("user/repo", revision=COMMIT, cache_dir=cache, local_files_only=True)):
        assert ckpt.path.name == COMMIT and ckpt.card == CARD_TEXT and ckpt.config == want.config
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    assert hub.cache_dir_env() == str(cache)
    with pytest.raises(CheckpointError) as info:
        hub.from_pretrained("user/missing", cache_dir=cache)
    assert str(info.value) == "'user/missing' is not in the local Hugging Face cache and the Hub cannot be reached"
    with pytest.raises(CheckpointError, match="is not a valid Hugging Face repo id"):
        hub.from_pretrained("not//a repo", cache_dir=cache)


def test_hub_snapshot_gets_the_upload_checks(folder, tmp_path):
    buf = io.BytesIO()
    torch.save({"w": Payload(tmp_path / "pwned")}, buf)
    (folder / WEIGHTS).write_bytes(buf.getvalue())
    cache = hf_cache(tmp_path, folder)
    with pytest.raises(UploadError) as info:
        hub.from_pretrained("user/repo", cache_dir=cache)
    assert info.value.code == "pickle_weights"
    assert not (tmp_path / "pwned").exists()


def test_env_helpers():
    assert hub.offline_env({"HF_HUB_OFFLINE": "1"}) and hub.offline_env({"HF_HUB_OFFLINE": "true"})
    assert not hub.offline_env({}) and not hub.offline_env({"HF_HUB_OFFLINE": "0"})
    assert hub.cache_dir_env({"HF_HOME": "/h"}) == "/h/hub"
    assert hub.cache_dir_env({"HF_HUB_CACHE": "/c", "HF_HOME": "/h"}) == "/c"
    assert hub.cache_dir_env({}) is None


def test_cli_pull_offline_and_push_offline(folder, tmp_path, capsys):
    cache = hf_cache(tmp_path, folder)
    out = tmp_path / "pulled"
    assert hub.main(["pull", "user/repo", "--cache-dir", str(cache), "--offline", "--to", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "user/repo: d_model=32" in printed and f"prepared {out}: float32" in printed
    assert sorted(p.name for p in out.iterdir()) == sorted([p.name for p in folder.iterdir()] + ["prepared.json"])
    assert json.loads((out / "prepared.json").read_text())["source"] == "user/repo"
    quantized = tmp_path / "pulled-int8"
    assert hub.main(["pull", "user/repo", "--cache-dir", str(cache), "--offline", "--to", str(quantized), "--int8"]) == 0
    assert f"prepared {quantized}: int8" in capsys.readouterr().out
    assert load_checkpoint(quantized).model.embedding.scheme == "int8"
    assert hub.main(["pull", "user/nothing", "--cache-dir", str(cache), "--offline"]) == 1
    assert capsys.readouterr().err == ("error: 'user/nothing' is not in the local Hugging Face cache "
                                       "and the Hub cannot be reached\n")
    assert hub.main(["push", str(folder), "user/repo"]) == 1
    assert capsys.readouterr().err.startswith("error: offline mode (HF_HUB_OFFLINE=1): pushing needs the Hub")


def test_cli_push_validates_first(folder, capsys, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE")
    (folder / WEIGHTS).unlink()
    assert hub.main(["push", str(folder), "user/repo", "--token", "hf_unused"]) == 1
    assert capsys.readouterr().err.startswith("error: checkpoint is missing model.safetensors")


# --- a full disk ---------------------------------------------------------------------------------

@pytest.fixture
def tiny_disk(tmp_path, monkeypatch):
    """A 64 kB filesystem to stage uploads on: a real tmpfs where this user may mount one (root); elsewhere
    upload.py's own writes fail with ENOSPC past 64 kB (an injection at the write layer, said so here)."""
    import errno
    import subprocess

    from transformer_core.checkpoints import upload as upload_module

    disk = tmp_path / "tiny"
    disk.mkdir()
    try:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(disk)],
                                 capture_output=True).returncode == 0
    except OSError:                              # no mount command
        mounted = False
    if not mounted:
        room = [64 * 1024]

        class Filling(io.FileIO):
            def write(self, data):
                if len(data) > room[0]:
                    raise OSError(errno.ENOSPC, "No space left on device (injected)")
                room[0] -= len(data)
                return super().write(data)

        monkeypatch.setattr(upload_module, "open", lambda path, mode: Filling(path, mode.replace("b", "")),
                            raising=False)
    yield disk
    if mounted:
        subprocess.run(["umount", str(disk)], check=True)


@pytest.mark.parametrize("as_zip", [False, True])
def test_a_full_disk_while_staging_is_a_clear_upload_error_and_leaves_nothing(folder, tiny_disk, as_zip):
    assert (folder / WEIGHTS).stat().st_size > 64 * 1024
    files = [named("m.zip", zip_bytes(folder_entries(folder)))] if as_zip else sorted(folder.iterdir())
    with pytest.raises(UploadError) as err:
        stage_upload(files, tiny_disk / "session")
    assert err.value.code == "disk_full" and "disk is full" in str(err.value)
    assert [p for p in (tiny_disk / "session").rglob("*")] == []       # the half-written copy was removed
