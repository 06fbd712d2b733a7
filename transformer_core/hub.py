"""Checkpoints on the Hugging Face Hub: a small CLI, and the guarded loader the Models page uses.

    python -m transformer_core.hub push checkpoints/my-model user/my-model [--private] [--token T]
    python -m transformer_core.hub pull user/my-model [--revision R] [--cache-dir D] [--offline] [--to DIR]

push validates the folder (load_checkpoint) and uploads only the checkpoint's files (needs a token:
`hf auth login`, HF_TOKEN or --token).  pull downloads into the Hugging Face cache (or, with --offline
or HF_HUB_OFFLINE=1, only reads it), validates, and with --to copies the files into a folder, e.g. under
checkpoints/ so the app bundles it.

A repo from the Hub is as untrusted as an upload: from_pretrained checks the file sizes before downloading
(when online) and runs upload.check_folder before load_checkpoint.

Hugging Face Marian repos (e.g. Helsinki-NLP/opus-mt-en-de, marian.py) load too: their pytorch_model.bin is
fetched only when the repo has no model.safetensors, and read with torch.load(weights_only=True).
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from . import marian
from .checkpoint import FILES, WEIGHTS, Checkpoint, CheckpointError, load_checkpoint
from .upload import UploadError, UploadLimits, load_checked, mb

_TRUE = ("1", "true", "yes", "on")
HUB_FILES = (*FILES, *marian.FILES, marian.README, marian.TORCH_WEIGHTS)  # a checkpoint's files, ours or Marian's


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


def _remote_files(repo_id: str, revision: str | None, cache_dir, limits: UploadLimits) -> list[str]:
    """Before any download: the checkpoint files the Hub lists (pytorch_model.bin only where there is no
    model.safetensors), whose sizes must fit the caps.  All of HUB_FILES when the Hub cannot be asked
    (snapshot_download then falls back to the cache)."""
    from huggingface_hub import snapshot_download

    try:
        infos = snapshot_download(repo_id, revision=revision, cache_dir=cache_dir, allow_patterns=list(HUB_FILES),
                                  dry_run=True)
    except Exception:      # noqa: BLE001 - the real call below reports the fault with its own message
        return list(HUB_FILES)
    if any(info.filename == WEIGHTS for info in infos):
        infos = [info for info in infos if info.filename != marian.TORCH_WEIGHTS]
    total = 0
    for info in infos:
        size = info.file_size or 0
        if size > limits.max_file_bytes:
            raise UploadError("file_too_large", f"'{info.filename}' on the Hub is larger than "
                              f"{mb(limits.max_file_bytes)} MB, the most one file may be",
                              name=info.filename, limit_mb=mb(limits.max_file_bytes))
        total += size
    if total > limits.max_total_bytes:
        raise UploadError("total_too_large", f"the repo's checkpoint files are larger than "
                          f"{mb(limits.max_total_bytes)} MB in all", limit_mb=mb(limits.max_total_bytes))
    return [info.filename for info in infos]


def snapshot(repo_id: str, revision: str | None = None, cache_dir: str | Path | None = None,
             local_files_only: bool = False, limits: UploadLimits | None = None) -> Path:
    """The folder of the repo's checkpoint files in the Hugging Face cache (downloaded if allowed)."""
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import (HfHubHTTPError, LocalEntryNotFoundError, RepositoryNotFoundError,
                                        RevisionNotFoundError)
    from huggingface_hub.utils import HFValidationError

    repo_id = (repo_id or "").strip()
    revision = (revision or "").strip() or None
    local_files_only = local_files_only or offline_env()
    try:
        files = list(HUB_FILES) if local_files_only else _remote_files(repo_id, revision, cache_dir,
                                                                       limits or UploadLimits())
        folder = snapshot_download(repo_id, revision=revision, cache_dir=cache_dir,
                                   allow_patterns=files, local_files_only=local_files_only)
    except HFValidationError as err:
        raise CheckpointError(f"'{repo_id}' is not a valid Hugging Face repo id: {err}") from None
    except RepositoryNotFoundError:
        raise CheckpointError(f"Hugging Face repo '{repo_id}' was not found") from None
    except RevisionNotFoundError:
        raise CheckpointError(f"Hugging Face repo '{repo_id}' was not found at revision '{revision}'") from None
    except LocalEntryNotFoundError:
        raise CheckpointError(f"'{repo_id}' is not in the local Hugging Face cache and the Hub "
                              "cannot be reached") from None
    except (HfHubHTTPError, OSError) as err:
        raise CheckpointError(f"could not download '{repo_id}': {err}") from None
    except UploadError:
        raise
    except Exception as err:  # noqa: BLE001 - e.g. a connection error type of the HTTP client
        raise CheckpointError(f"could not download '{repo_id}': {type(err).__name__}: {err}") from None
    return Path(folder)


def from_pretrained(repo_id: str, revision: str | None = None, cache_dir: str | Path | None = None,
                    local_files_only: bool = False, limits: UploadLimits | None = None) -> Checkpoint:
    """Load "user/repo" from the Hub, or from its local cache (local_files_only or HF_HUB_OFFLINE=1),
    with the size caps and pre-checks of an upload.  Raises CheckpointError or UploadError."""
    limits = limits or UploadLimits.from_env()
    folder = snapshot(repo_id, revision, cache_dir, local_files_only, limits)
    return load_checked(folder, limits)


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
    ckpt = from_pretrained(args.repo_id, args.revision, cache_dir, local_files_only=args.offline)
    print(f"{args.repo_id}: d_model={ckpt.config.d_model}, h={ckpt.config.n_heads}, "
          f"N={ckpt.config.n_encoder_layers}/{ckpt.config.n_decoder_layers}, "
          f"{sum(p.numel() for p in ckpt.model.parameters()):,} parameters, in {ckpt.path}")
    if args.to:
        out = save_pretrained(ckpt, args.to)
        print(f"copied to {out}")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m transformer_core.hub",
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
    pull.add_argument("--to", type=Path, default=None, help="also copy the checkpoint's files into this folder")
    pull.set_defaults(run=_pull)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (CheckpointError, UploadError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
