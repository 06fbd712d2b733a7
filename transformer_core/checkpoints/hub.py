"""Checkpoints on the Hugging Face Hub: a small CLI, and the guarded loader the Models page uses.

    python -m transformer_core hub push checkpoints/my-model user/my-model [--private] [--token T]
    python -m transformer_core hub pull user/my-model [--revision R] [--cache-dir D] [--offline] [--to DIR [--int8|--bf16]]

push validates the folder (load_checkpoint) and uploads only the checkpoint's files (needs a token:
`hf auth login`, HF_TOKEN or --token); README.md is the card the Hub shows (model_card.py writes it, with
the metadata the Hub reads), and a folder without one is pushed with a note saying so.  pull downloads
into the Hugging Face cache (or, with --offline or HF_HUB_OFFLINE=1, only reads it), validates, and with
--to prepares it in a folder of the app's model folders (prepare.py), quantized with --int8 or --bf16:
e.g. --to models/enko-big --int8.

A repo from the Hub is as untrusted as an upload: the revision must be a commit id or a plain branch or tag
name (it becomes a file name in the cache), every call has a timeout, from_pretrained checks the file
sizes the Hub lists before downloading (when online; a size it does not list refuses the repo), the
snapshot must lie inside the cache, upload.check_folder runs before load_checkpoint, and the cache is
trimmed, least recently used repos first, to ATLAS_HUB_CACHE_MAX_MB (default 500).

Hugging Face Marian repos (e.g. Helsinki-NLP/opus-mt-en-de, marian.py) load too: their pytorch_model.bin is
fetched only when the repo has no model.safetensors, and read with torch.load(weights_only=True).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import shutil
import sys
from pathlib import Path

from . import marian
from .files import CARD, FILES, OLD_CARD, TRAINING, WEIGHTS, Checkpoint, CheckpointError
from .load import load_checkpoint
from .prepare import prepare, speed_note
from .upload import UploadError, UploadLimits, load_checked, mb
from .validate import file_cap

_TRUE = ("1", "true", "yes", "on")
COMMIT = re.compile(r"[0-9a-f]{40}")
REF = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]{0,99}")     # a branch or tag ("main", "v1.0", "refs/pr/3")
TIMEOUT_S = 10.0              # every request to the Hub: connecting, and each read of a download
DEADLINE_S = 120.0            # the whole pull: the page's load slot is free again after it
CACHE_MAX_MB = 500            # ATLAS_HUB_CACHE_MAX_MB: the deployments' /tmp holds 1 GB with the uploads
PULL_MAX_MB = 2048            # the command line's cap (a school's administrator pulls a big model once)
HUB_FILES = tuple(dict.fromkeys((*FILES, *marian.FILES, marian.README, marian.TORCH_WEIGHTS)))  # ours or Marian's,
# once each: README.md is the card of either (the Hub shows it, with its YAML metadata); an older MODEL_CARD.md too


def offline_env(environ=None) -> bool:
    """HF_HUB_OFFLINE (or TRANSFORMERS_OFFLINE) set to 1/true/yes/on, read now (not at import)."""
    environ = os.environ if environ is None else environ
    return any(str(environ.get(name, "")).strip().lower() in _TRUE for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"))


def cache_dir_env(environ=None) -> str | None:
    """The hub cache the environment names now: HF_HUB_CACHE, HUGGINGFACE_HUB_CACHE or HF_HOME/hub
    (None: huggingface_hub's default).  Read at call time, so a changed environment is seen."""
    environ = os.environ if environ is None else environ
    for name in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        if environ.get(name):
            return environ[name]
    if environ.get("HF_HOME"):
        return str(Path(environ["HF_HOME"]) / "hub")
    return None


def check_revision(revision: str | None) -> str | None:
    """The revision, if it is a 40-hex commit id or a plain branch or tag name; huggingface_hub turns a
    ref into a file path in the cache (refs/<revision>), so '..', a leading '/' and the like are refused."""
    if revision is None or COMMIT.fullmatch(revision):
        return revision
    if REF.fullmatch(revision) and ".." not in revision and "//" not in revision \
            and not revision.endswith(("/", ".", ".lock")):
        return revision
    raise UploadError("bad_revision", f"{revision!r} is not a revision: give a branch or tag name (main, v1.0) "
                      "or a 40-character commit id", revision=revision[:60])


def _inside(folder: Path, cache_dir) -> Path:
    """The snapshot folder, refused unless it lies inside the Hub cache."""
    from huggingface_hub import constants

    root = Path(cache_dir or constants.HF_HUB_CACHE).resolve()
    if not Path(folder).resolve().is_relative_to(root):
        raise UploadError("bad_revision", "the revision does not name a snapshot inside the Hub cache",
                          revision="")
    return Path(folder)


def trim_cache(cache_dir=None, keep: str | None = None, max_mb: float | None = None) -> int:
    """Delete the least recently used repos of the Hub cache until it holds at most max_mb
    (ATLAS_HUB_CACHE_MAX_MB, default 500); never the repo `keep`.  -> the repos deleted."""
    from huggingface_hub import CacheNotFound, scan_cache_dir

    if max_mb is None:
        try:
            max_mb = float(os.environ.get("ATLAS_HUB_CACHE_MAX_MB", "") or CACHE_MAX_MB)
        except ValueError:
            max_mb = CACHE_MAX_MB
    try:
        info = scan_cache_dir(cache_dir)
    except (CacheNotFound, OSError):
        return 0
    size, deleted = info.size_on_disk, 0
    for repo in sorted(info.repos, key=lambda r: r.last_accessed):
        if size <= max_mb * 1024 * 1024:
            break
        if repo.repo_id == keep:
            continue
        shutil.rmtree(repo.repo_path, ignore_errors=True)
        size -= repo.size_on_disk
        deleted += 1
    return deleted


def _remote_files(repo_id: str, revision: str | None, cache_dir, limits: UploadLimits) -> tuple[list[str], str | None]:
    """Before any download: the checkpoint files the Hub lists (pytorch_model.bin only where there is no
    model.safetensors), whose sizes must be listed and fit the caps (each file's own cap too), and the
    commit they are at, which the download then takes (a branch moved in between changes nothing).  When
    the Hub cannot be asked, the download does not happen either: snapshot() reads the cache alone."""
    from huggingface_hub import snapshot_download

    infos = snapshot_download(repo_id, revision=revision, cache_dir=cache_dir, allow_patterns=list(HUB_FILES),
                              dry_run=True, etag_timeout=TIMEOUT_S)
    if any(info.filename == WEIGHTS for info in infos):
        infos = [info for info in infos if info.filename != marian.TORCH_WEIGHTS]
    total = 0
    for info in infos:
        size = info.file_size
        if not isinstance(size, int) or size < 0:
            raise UploadError("hub_size_unknown", f"the Hub does not list the size of '{info.filename}', so it "
                              "is not downloaded", name=info.filename)
        cap = min(file_cap(info.filename) or limits.max_file_bytes, limits.max_file_bytes)
        if size > cap:
            raise UploadError("file_too_large", f"'{info.filename}' on the Hub is larger than "
                              f"{mb(cap)} MB, the most such a file may be", name=info.filename, limit_mb=mb(cap))
        total += size
    if total > limits.max_total_bytes:
        raise UploadError("total_too_large", f"the repo's checkpoint files are larger than "
                          f"{mb(limits.max_total_bytes)} MB in all", limit_mb=mb(limits.max_total_bytes))
    commits = {info.commit_hash for info in infos}
    return [info.filename for info in infos], commits.pop() if len(commits) == 1 else revision


def snapshot(repo_id: str, revision: str | None = None, cache_dir: str | Path | None = None,
             local_files_only: bool = False, limits: UploadLimits | None = None) -> Path:
    """The folder of the repo's checkpoint files in the Hugging Face cache (downloaded if allowed)."""
    from huggingface_hub import constants, snapshot_download
    from huggingface_hub.errors import (
        HfHubHTTPError,
        LocalEntryNotFoundError,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )
    from huggingface_hub.utils import HFValidationError

    repo_id = (repo_id or "").strip()
    revision = check_revision((revision or "").strip() or None)
    local_files_only = local_files_only or offline_env()
    constants.HF_HUB_DOWNLOAD_TIMEOUT = min(constants.HF_HUB_DOWNLOAD_TIMEOUT, TIMEOUT_S)  # each read of a file
    try:
        files = list(HUB_FILES)
        if not local_files_only:
            try:
                files, revision = _remote_files(repo_id, revision, cache_dir, limits or UploadLimits())
            except (HfHubHTTPError, OSError, ConnectionError, TimeoutError) as err:
                if isinstance(err, (RepositoryNotFoundError, RevisionNotFoundError)):
                    raise
                local_files_only = True         # the Hub cannot be asked: what the cache holds, nothing new
        folder = snapshot_download(repo_id, revision=revision, cache_dir=cache_dir, allow_patterns=files,
                                   local_files_only=local_files_only, etag_timeout=TIMEOUT_S)
    except HFValidationError as err:
        raise CheckpointError(f"'{repo_id}' is not a valid Hugging Face repo id: {err}") from None
    except RepositoryNotFoundError:
        raise CheckpointError(f"Hugging Face repo '{repo_id}' was not found") from None
    except RevisionNotFoundError:
        raise CheckpointError(f"Hugging Face repo '{repo_id}' was not found at revision '{revision}'") from None
    except LocalEntryNotFoundError:
        raise CheckpointError(f"'{repo_id}' is not in the local Hugging Face cache and the Hub "
                              "cannot be reached") from None
    except HfHubHTTPError as err:
        raise CheckpointError(f"could not download '{repo_id}': {err}") from None
    except OSError as err:                       # its file name would be a server path: the reason only
        raise CheckpointError(f"could not download '{repo_id}': {err.strerror or type(err).__name__}") from None
    except UploadError:
        raise
    except Exception as err:  # noqa: BLE001 - e.g. a connection error type of the HTTP client
        raise CheckpointError(f"could not download '{repo_id}': {type(err).__name__}: {err}") from None
    return _inside(Path(folder), cache_dir)


def within(seconds: float, fn, *args):
    """fn(*args), or UploadError "hub_timeout" once `seconds` have passed: the caller (and the load slot it
    holds) goes on; the call itself ends in the background, at its own timeouts."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="atlas-hub")
    try:
        return pool.submit(fn, *args).result(timeout=seconds)
    except concurrent.futures.TimeoutError:
        raise UploadError("hub_timeout", f"the Hub did not answer within {seconds:.0f} s",
                          seconds=f"{seconds:.0f}") from None
    finally:
        pool.shutdown(wait=False)


def from_pretrained(repo_id: str, revision: str | None = None, cache_dir: str | Path | None = None,
                    local_files_only: bool = False, limits: UploadLimits | None = None) -> Checkpoint:
    """Load "user/repo" from the Hub, or from its local cache (local_files_only or HF_HUB_OFFLINE=1),
    with the size caps and pre-checks of an upload, the Hub's part within DEADLINE_S.  Raises
    CheckpointError or UploadError."""
    limits = limits or UploadLimits.from_env()
    folder = within(DEADLINE_S, snapshot, repo_id, revision, cache_dir, local_files_only, limits)
    try:
        return load_checked(folder, limits)
    finally:
        trim_cache(cache_dir, keep=repo_id.strip())


def save_pretrained(checkpoint: Checkpoint, folder: str | Path) -> Path:
    """Copy a loaded checkpoint's files into folder, ready for push_to_hub or from_pretrained."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name in HUB_FILES:
        if (checkpoint.path / name).is_file() and (checkpoint.path / name).resolve() != (folder / name).resolve():
            shutil.copyfile(checkpoint.path / name, folder / name)
    return folder


def push_to_hub(folder: str | Path, repo_id: str, token: str | None = None, private: bool = False) -> str:
    """Upload a checkpoint folder (validated first) to the Hub; returns the repo URL."""
    from huggingface_hub import HfApi

    load_checkpoint(folder)
    api = HfApi(token=token)
    url = api.create_repo(repo_id, private=private, exist_ok=True)
    api.upload_folder(folder_path=str(folder), repo_id=repo_id, allow_patterns=list(HUB_FILES))
    return str(url)


# --- CLI ------------------------------------------------------------------------------------------

def _push(args) -> int:
    if offline_env():
        raise CheckpointError("offline mode (HF_HUB_OFFLINE=1): pushing needs the Hub; unset HF_HUB_OFFLINE "
                              "and connect to the internet")
    load_checkpoint(args.folder)          # push_to_hub validates too; this fails before any network use
    if not (args.folder / CARD).is_file():   # the Hub shows README.md as the card, and reads its metadata
        old = (f" (its {OLD_CARD} goes up too, but the Hub does not show it)"
               if (args.folder / OLD_CARD).is_file() else "")
        how = (f": write it with `python -m transformer_core model_card {args.folder}`"
               if (args.folder / TRAINING).is_file() else "")
        print(f"note: {args.folder} has no {CARD}, the model card the Hub shows{old}{how}", file=sys.stderr)
    try:
        url = push_to_hub(args.folder, args.repo_id, token=args.token, private=args.private)
    except CheckpointError:
        raise
    except Exception as err:  # noqa: BLE001 - auth, network, HTTP errors: one clear line
        raise CheckpointError(f"could not push to '{args.repo_id}': {type(err).__name__}: {err}") from None
    print(f"pushed {args.folder} to {url}")
    return 0


def _pull(args) -> int:
    cache_dir = args.cache_dir or cache_dir_env()
    limits = UploadLimits(max_total_bytes=int(args.max_mb * 2**20), max_file_bytes=int(args.max_mb * 2**20))
    ckpt = from_pretrained(args.repo_id, args.revision, cache_dir, local_files_only=args.offline, limits=limits)
    print(f"{args.repo_id}: d_model={ckpt.config.d_model}, h={ckpt.config.n_heads}, "
          f"N={ckpt.config.n_encoder_layers}/{ckpt.config.n_decoder_layers}, "
          f"{sum(p.numel() for p in ckpt.model.parameters()):,} parameters, in {ckpt.path}")
    if args.to:                       # prepared for a server: maybe quantized, with prepared.json (prepare.py)
        out = prepare(ckpt, args.to, args.quantization, source=args.repo_id.strip())
        size = sum(p.stat().st_size for p in out.iterdir()) / 2**20
        print(f"prepared {out}: {args.quantization or 'float32'}, {size:.1f} MB")
        speed_note(args.quantization)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m transformer_core hub",
                                     description="Push a checkpoint folder to the Hugging Face Hub, or pull one.")
    sub = parser.add_subparsers(dest="command", required=True)
    push = sub.add_parser("push", help="validate a checkpoint folder and upload its files")
    push.add_argument("folder", type=Path)
    push.add_argument("repo_id", help="user/repo")
    push.add_argument("--private", action="store_true", help="create the repo as private")
    push.add_argument("--token", default=None, help="a Hugging Face token (default: HF_TOKEN or `hf auth login`)")
    push.set_defaults(run=_push)
    pull = sub.add_parser("pull", help="download (or read from the cache) and validate a checkpoint")
    pull.add_argument("repo_id", help="user/repo")
    pull.add_argument("--revision", default=None, help="branch, tag or commit (default: main)")
    pull.add_argument("--cache-dir", default=None, help="Hugging Face cache dir (default: HF_HUB_CACHE or ~/.cache)")
    pull.add_argument("--offline", action="store_true", help="only the local cache (also HF_HUB_OFFLINE=1)")
    pull.add_argument("--to", type=Path, default=None, help="also prepare it in this new folder for the app's model "
                      "folder (ATLAS_CHECKPOINTS_DIR), with prepared.json")
    pull.add_argument("--max-mb", type=float, default=PULL_MAX_MB,
                      help=f"the most the checkpoint's files may hold, in MB (default {PULL_MAX_MB}: "
                           "opus-mt-tc-big-en-ko's weights are 484 MB; the app's own Hub tab keeps ATLAS_UPLOAD_MAX_MB)")
    kind = pull.add_mutually_exclusive_group()
    for scheme in ("int8", "bf16"):
        kind.add_argument(f"--{scheme}", dest="quantization", action="store_const", const=scheme,
                          help=f"with --to: store the matrices as {scheme} (faster on a CPU, a quarter or half the size)")
    pull.set_defaults(run=_pull)
    args = parser.parse_args(argv)
    if getattr(args, "quantization", None) and not args.to:
        parser.error("--int8 and --bf16 go with --to FOLDER")
    try:
        return args.run(args)
    except (CheckpointError, UploadError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
