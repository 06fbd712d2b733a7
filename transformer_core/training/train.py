"""Train the Transformer as in §5: Adam(0.9, 0.98, 1e-9), the lrate schedule, label smoothing 0.1,
residual dropout 0.1, token-based batches from length buckets.

    python -m transformer_core train --data data/ende --out runs/ende --minutes 60      # CPU or one GPU
    torchrun --nproc_per_node=4 -m transformer_core train --data data/ende --out runs/ende  # several GPUs

The run folder gets state.pt (resumable: rerun the same command to continue), train_log.jsonl
(one JSON object per line: step, lr, loss, tokens_per_s, elapsed; validation lines add valid_loss
and bleu) and best/ (the checkpoint with the best validation BLEU).  With --average N it also keeps
the weights of the last N resumable saves in snapshots/ and, at the end, averages them (the paper's
base models average the last 5 checkpoints, §6.1); the average replaces best/ when its validation
BLEU is higher (--select average or best chooses outright).  The chosen weights are scored on the test
split and exported, with the model card (README.md, checkpoints/model_card.py) and training.json (which
records the choice), to --export.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

import torch
import torch.distributed as dist
import torch.fx.experimental._config  # noqa: F401 - use_duck_shape, set for --compile
from torch import nn
from tqdm import tqdm

from ..checkpoints import seen
from ..checkpoints.files import LOG, TOKENIZER, TRAINING, Checkpoint, CheckpointError
from ..checkpoints.folder import average_weights, same_tokenizer, save_checkpoint, save_weights
from ..checkpoints.load import load_checkpoint
from ..checkpoints.model_card import render_card
from ..data.batching import collate, make_batches
from ..data.sources.files import read_split
from ..explainer import history as attention_history
from ..explainer.translate import translate_lines
from ..model.config import ModelConfig
from ..model.decoding import greedy_decode_batch
from ..model.tokenizer import SAMPLE_NBEST, Tokenizer
from ..model.transformer import Transformer
from . import trainlog
from .evaluate import score
from .schedule import lrate
from .transplant import transplant


def parse_args(argv=None):
    p = argparse.ArgumentParser(description="Train the Transformer (see the module docstring).")
    p.add_argument("--data", required=True, help="folder from python -m transformer_core data")
    p.add_argument("--out", required=True, help="run folder (resumed if it holds state.pt)")
    p.add_argument("--export", help="checkpoint folder to write at the end (default: OUT/checkpoint)")
    p.add_argument("--init", help="start from this checkpoint's weights and architecture (fine-tuning); "
                                  "the data must use its tokenizer (data --tokenizer CHECKPOINT/spm.model)")
    p.add_argument("--remap-vocab", action="store_true",
                   help="with --init: let the data bring its own tokenizer; the checkpoint's embedding is carried "
                        "over piece by piece (transplant.py)")
    m = p.add_argument_group("model")
    m.add_argument("--d-model", type=int, default=256)
    m.add_argument("--heads", type=int, default=4)
    m.add_argument("--encoder-layers", type=int, default=3)
    m.add_argument("--decoder-layers", type=int, default=3)
    m.add_argument("--d-ff", type=int, default=1024)
    m.add_argument("--dropout", type=float, default=0.1)
    m.add_argument("--max-len", type=int, default=128)
    m.add_argument("--positional", choices=["sinusoidal", "learned"], default="sinusoidal")
    o = p.add_argument_group("optimization")
    o.add_argument("--max-tokens", type=int, default=4096, help="padded tokens per side per batch")
    o.add_argument("--accum", type=int, default=1, help="gradient accumulation: batches per step")
    o.add_argument("--warmup", type=int, default=4000)
    o.add_argument("--lr-scale", type=float, default=1.0, help="multiplies the lrate formula")
    o.add_argument("--label-smoothing", type=float, default=0.1)
    o.add_argument("--subword-alpha", type=float, metavar="ALPHA",
                   help="subword regularization: each epoch samples every training pair's segmentation "
                        f"(SentencePiece, {SAMPLE_NBEST} best, smoothing ALPHA, e.g. 0.1); validation and test "
                        "keep the best")
    r = p.add_argument_group("run")
    r.add_argument("--steps", type=int, default=100_000, help="stop after this many optimizer steps")
    r.add_argument("--minutes", type=float, help="stop after this much training time")
    r.add_argument("--log-every", type=int, default=50)
    r.add_argument("--valid-every", type=int, default=500)
    r.add_argument("--bleu-sentences", type=int, default=500, help="valid sentences decoded for BLEU")
    r.add_argument("--save-every", type=int, default=250, help="steps between resumable saves")
    r.add_argument("--average", type=int, default=1, metavar="N",
                   help="export the average of the weights at the last N saves if it validates better")
    r.add_argument("--select", choices=["auto", "best", "average"], default="auto",
                   help="weights to export: the better on validation BLEU (auto), the best validation "
                        "checkpoint, or the --average of the last saves")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:1 …")
    r.add_argument("--threads", type=int, help="CPU threads (torch.set_num_threads)")
    r.add_argument("--compile", action="store_true",
                   help="torch.compile the model, with dynamic shapes: batches of every bucket share one graph")
    r.add_argument("--test-beam", type=int, default=4, help="beam for the final test score")
    args = p.parse_args(argv)
    if args.select == "average" and args.average < 2:
        p.error("--select average needs --average N, N ≥ 2")
    return args


def setup_device(args):
    """-> (device, rank, world_size); initializes DistributedDataParallel under torchrun."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    if args.device == "auto":
        args.device = "cuda" if torch.cuda.is_available() else "cpu"
    device = torch.device(args.device)
    if world > 1:
        if device.type == "cuda":
            device = torch.device("cuda", int(os.environ.get("LOCAL_RANK", "0")))
            torch.cuda.set_device(device)
        dist.init_process_group("nccl" if device.type == "cuda" else "gloo")
    return device, rank, world


def start_from(folder: str, data: Path, src_lang: str, tgt_lang: str, remap: bool = False) -> Checkpoint:
    """The checkpoint to fine-tune; it must speak the data's languages with the data's tokenizer
    (or any tokenizer, when its embedding is remapped)."""
    base = load_checkpoint(folder)
    if (base.config.src_lang, base.config.tgt_lang) != (src_lang, tgt_lang):
        raise CheckpointError(f"{folder} translates {base.config.src_lang}→{base.config.tgt_lang}, "
                              f"the data {src_lang}→{tgt_lang}")
    if not remap and not same_tokenizer(base.path, data):
        raise CheckpointError(f"{data / TOKENIZER} is not {folder}'s tokenizer: build the data with "
                              f"--tokenizer {base.path / TOKENIZER}")
    return base


def encode_pairs(tok: Tokenizer, pairs, max_len: int, sample_alpha: float | None = None):
    """Text pairs -> (src ids, tgt ids), each BOS … EOS; pairs longer than max_len are dropped.
    sample_alpha: sampled segmentations (Tokenizer.encode)."""
    out = []
    for s, t in pairs:
        src = [tok.bos_id, *tok.encode(s, sample_alpha), tok.eos_id]
        tgt = [tok.bos_id, *tok.encode(t, sample_alpha), tok.eos_id]
        if len(src) <= max_len and len(tgt) <= max_len:
            out.append((src, tgt))
    return out


def batch_loss(model, src, tgt, criterion, device, amp):
    """Mean loss per target token and the number of target tokens.  tgt: (B, T+1) BOS … EOS."""
    src, tgt = src.to(device, non_blocking=True), tgt.to(device, non_blocking=True)
    tgt_in, labels = tgt[:, :-1], tgt[:, 1:]                     # shifted right / next tokens
    with torch.autocast(device.type, dtype=torch.bfloat16, enabled=amp):
        logits = model(src, tgt_in)                              # (B, T, V)
    loss = criterion(logits.float().reshape(-1, logits.size(-1)), labels.reshape(-1))
    return loss, int((labels != criterion.ignore_index).sum())


@torch.no_grad()
def validate(model, valid, valid_text, cfg, tok, args, device, amp):
    """Valid loss (plain cross-entropy per token) and greedy BLEU on the first valid sentences."""
    model.eval()
    nll = nn.CrossEntropyLoss(ignore_index=cfg.pad_id, reduction="sum")
    total, count = 0.0, 0
    for idx in make_batches([(len(s), len(t)) for s, t in valid], args.max_tokens, seed=0):
        src, tgt = collate([valid[i] for i in idx], cfg.pad_id)
        loss, n = batch_loss(model, src, tgt, nll, device, amp)
        total, count = total + float(loss), count + n
    subset = valid_text[:args.bleu_sentences]
    srcs = [[tok.bos_id, *tok.encode(s)[:cfg.max_len - 2], tok.eos_id] for s, _ in subset]
    hyps = []
    for start in range(0, len(srcs), 64):
        chunk = srcs[start:start + 64]
        src, _ = collate([(s, s) for s in chunk], cfg.pad_id)
        hyps += [tok.decode(ids) for ids in greedy_decode_batch(model, src.to(device))]
    model.train()
    return total / max(count, 1), score(hyps, [t for _, t in subset], cfg.tgt_lang)["bleu"]


def save_state(path: Path, model, opt, step, epoch, elapsed, cpu, best_bleu):
    tmp = path.with_suffix(".tmp")
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "step": step,
                "epoch": epoch, "elapsed": elapsed, "cpu": cpu, "best_bleu": best_bleu}, tmp)
    tmp.replace(path)                                            # atomic: never a half-written state


def save_snapshot(folder: Path, model, step: int, keep: int) -> None:
    """The weights at this step as folder/step_<step>.safetensors; only the last `keep` are kept."""
    folder.mkdir(exist_ok=True)
    save_weights(model, folder / f"step_{step:06d}.safetensors")
    for old in sorted(folder.glob("step_*.safetensors"))[:-keep]:
        old.unlink()


def best_step(log_path: Path, best_bleu: float) -> int | None:
    """The step of the first validation that reached best_bleu, from the training log."""
    for line in log_path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("bleu") == best_bleu:
            return record["step"]
    return None


def main(argv=None) -> int:
    args = parse_args(argv)
    torch.manual_seed(args.seed)
    if args.threads:
        torch.set_num_threads(args.threads)
    device, rank, world = setup_device(args)
    amp = device.type == "cuda" and torch.cuda.is_bf16_supported()
    data, out = Path(args.data), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((data / "manifest.json").read_text(encoding="utf-8"))
    src_lang, tgt_lang = manifest["src_lang"], manifest["tgt_lang"]
    tok = Tokenizer.load(data / TOKENIZER)

    try:
        base = start_from(args.init, data, src_lang, tgt_lang, args.remap_vocab) if args.init else None
    except CheckpointError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    cfg = replace(base.config, dropout=args.dropout, vocab_size=tok.vocab_size) if base else ModelConfig(
        vocab_size=tok.vocab_size, d_model=args.d_model, n_heads=args.heads,
        n_encoder_layers=args.encoder_layers, n_decoder_layers=args.decoder_layers,
        d_ff=args.d_ff, dropout=args.dropout, max_len=args.max_len,
        positional=args.positional, pad_id=tok.pad_id, unk_id=tok.unk_id,
        bos_id=tok.bos_id, eos_id=tok.eos_id, src_lang=src_lang, tgt_lang=tgt_lang)
    train_text = read_split(data, "train", src_lang, tgt_lang)
    train = encode_pairs(tok, train_text, cfg.max_len)
    valid_text = read_split(data, "valid", src_lang, tgt_lang)
    valid = encode_pairs(tok, valid_text, cfg.max_len)

    model = Transformer(cfg)
    remapped = None
    if base and args.remap_vocab:
        remapped = {"pieces": tok.vocab_size, "copied": transplant(model, base.model, base.tokenizer, tok)}
    elif base:
        model.load_state_dict(base.model.state_dict())
    model = model.to(device)
    opt = torch.optim.Adam(model.parameters(), lr=0.0, betas=(0.9, 0.98), eps=1e-9)
    step, epoch, elapsed, cpu, best_bleu = 0, 0, 0.0, 0.0, -1.0  # elapsed: wall s, cpu: process CPU s
    state_path = out / "state.pt"
    if state_path.exists():
        state = torch.load(state_path, map_location=device, weights_only=True)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        step, epoch, elapsed, best_bleu = state["step"], state["epoch"], state["elapsed"], state["best_bleu"]
        cpu = state.get("cpu", 0.0)
        if rank == 0:
            print(f"resumed {state_path} at step {step}", file=sys.stderr)
    if args.compile:   # one graph for all batch shapes: dynamic sizes, and a source and a target of the same length
        torch.fx.experimental._config.use_duck_shape = False   # in the first batch must not tie the two
    net = torch.compile(model, dynamic=True) if args.compile else model
    if world > 1:
        net = nn.parallel.DistributedDataParallel(net, device_ids=[device.index] if device.type == "cuda" else None)
    criterion = nn.CrossEntropyLoss(ignore_index=cfg.pad_id, label_smoothing=args.label_smoothing)
    log = open(out / LOG, "a", encoding="utf-8") if rank == 0 else None  # noqa: SIM115 written in the loop below, closed after it
    if rank == 0:
        print(f"{len(train)} train / {len(valid)} valid pairs, {model.num_parameters():,} parameters, "
              f"device {device}, world {world}", file=sys.stderr)
    history_path = out / attention_history.HISTORY
    # a fine-tune with its base's tokenizer records its base's probes, to be told after the base's history
    base_history = attention_history.load(base.path / attention_history.HISTORY) if base and not remapped else None
    history = attention_history.load(history_path) or attention_history.empty(
        base_history.probes if base_history else attention_history.probe_set(tok, tgt_lang, valid_text, src_lang=src_lang))
    if rank == 0 and not history.steps:                          # the attention before any training
        attention_history.record(history, model, step)
        attention_history.save(history, history_path)
    bar = tqdm(total=args.steps, initial=step, disable=rank != 0, mininterval=1 if sys.stderr.isatty() else 30,
               desc="train", unit="step")

    def timed_out() -> bool:
        """Past --minutes; under DDP every rank stops together, when any rank is past it."""
        late = torch.tensor(float(args.minutes is not None and elapsed >= args.minutes * 60), device=device)
        if world > 1:
            dist.all_reduce(late, op=dist.ReduceOp.MAX)
        return bool(late)

    model.train()
    trained = False                                              # any step in this process (not just resumed)
    window_loss, window_tokens, window_time = 0.0, 0, 0.0   # since the last log line
    while step < args.steps and not timed_out():
        if args.subword_alpha:            # each epoch segments the training text anew, alike on every rank
            Tokenizer.seed_sampling(args.seed + epoch)
            train = encode_pairs(tok, train_text, cfg.max_len, args.subword_alpha)
        batches = make_batches([(len(s), len(t)) for s, t in train], args.max_tokens, seed=args.seed + epoch)
        batches = batches[: len(batches) // world * world][rank::world]  # same count on every rank
        for first in range(0, len(batches) - args.accum + 1, args.accum):
            clock, cpu_clock = time.perf_counter(), time.process_time()
            for micro in batches[first:first + args.accum]:
                src, tgt = collate([train[i] for i in micro], cfg.pad_id)
                loss, n = batch_loss(net, src, tgt, criterion, device, amp)
                (loss / args.accum).backward()
                window_loss, window_tokens = window_loss + loss.item() * n, window_tokens + n
            lr = lrate(step + 1, cfg.d_model, args.warmup, args.lr_scale)
            for group in opt.param_groups:
                group["lr"] = lr
            opt.step()
            opt.zero_grad(set_to_none=True)
            step += 1
            trained = True
            seconds = time.perf_counter() - clock                # training time only
            elapsed, window_time = elapsed + seconds, window_time + seconds
            cpu += time.process_time() - cpu_clock
            bar.update(1)
            record = {}
            if step % args.log_every == 0:
                record = {"step": step, "lr": lr, "loss": round(window_loss / max(window_tokens, 1), 4),
                          "tokens_per_s": round(window_tokens * world / window_time, 1)}
                window_loss, window_tokens, window_time = 0.0, 0, 0.0
                bar.set_postfix(loss=record["loss"], lr=f"{lr:.2e}")
            if step % args.valid_every == 0 and rank == 0:
                valid_loss, bleu = validate(model, valid, valid_text, cfg, tok, args, device, amp)
                attention_history.record(history, model, step)
                attention_history.save(history, history_path)
                record = {"step": step, "lr": lr, **record, "valid_loss": round(valid_loss, 4), "bleu": bleu}
                if bleu > best_bleu:
                    best_bleu = bleu
                    save_checkpoint(out / "best", model, data / TOKENIZER)
                bar.write(f"step {step}: valid loss {valid_loss:.3f}, BLEU {bleu:.2f} (best {best_bleu:.2f})")
            if record and rank == 0:
                log.write(json.dumps({**record, "elapsed": round(elapsed, 1), "cpu": round(cpu, 1)}) + "\n")
                log.flush()
            if step % args.save_every == 0 and rank == 0:
                save_state(state_path, model, opt, step, epoch, elapsed, cpu, best_bleu)
                if args.average > 1:
                    save_snapshot(out / "snapshots", model, step, args.average)
            if step >= args.steps or timed_out():
                break
        else:
            epoch += 1
    bar.close()
    if rank == 0:
        if trained and step % args.valid_every:                      # a last validation at the stop
            valid_loss, bleu = validate(model, valid, valid_text, cfg, tok, args, device, amp)
            log.write(json.dumps({"step": step, "lr": lrate(step, cfg.d_model, args.warmup, args.lr_scale),
                                  "valid_loss": round(valid_loss, 4), "bleu": bleu,
                                  "elapsed": round(elapsed, 1), "cpu": round(cpu, 1)}) + "\n")
            if bleu > best_bleu:
                best_bleu = bleu
                save_checkpoint(out / "best", model, data / TOKENIZER)
        log.close()
        save_state(state_path, model, opt, step, epoch, elapsed, cpu, best_bleu)
        chosen = out / "best"
        selection = {"best": {"step": best_step(out / LOG, best_bleu), "valid_bleu": best_bleu}, "chosen": "best"}
        snapshots = sorted((out / "snapshots").glob("step_*.safetensors"))[-args.average:]
        if args.average > 1 and len(snapshots) > 1:
            model.load_state_dict(average_weights(snapshots))
            _, bleu = validate(model, valid, valid_text, cfg, tok, args, device, amp)
            selection["average"] = {"steps": [int(f.stem.split("_")[1]) for f in snapshots], "valid_bleu": bleu}
            print(f"average of {len(snapshots)} snapshots: valid BLEU {bleu:.2f} (best {best_bleu:.2f})",
                  file=sys.stderr)
            if args.select == "average" or (args.select == "auto" and bleu > best_bleu):
                chosen = save_checkpoint(out / "averaged", model, data / TOKENIZER)
                selection["chosen"] = "average"
        init = None if base is None else {"checkpoint": args.init, "vocabulary_remapped": remapped, **{
            k: base.training.get(k) for k in ("steps", "wall_time_s", "cpu_time_s", "test")}}
        if base_history is not None:          # the exported log and history go on from the base's: where each run began
            init["round_starts"] = [*(base.training.get("init") or {}).get("round_starts", []), base_history.steps[-1]]
        export(args, cfg, data, out, chosen, selection, manifest, step, elapsed, cpu, device, world, len(train), init,
               history, base_history, base.path if base_history else None)
    if world > 1:
        dist.barrier()                  # the others wait for rank 0's export, then all leave the group together
        dist.destroy_process_group()
    return 0


def export(args, cfg, data, out, chosen, selection, manifest, step, elapsed, cpu, device, world, n_train, init=None,
           history=None, base_history=None, base_path=None):
    """Score the chosen checkpoint on the test split and write it, with log, card and attention history
    (its last record: the exported weights), to --export.  A fine-tune's log and history follow its base's."""
    target = Path(args.export) if args.export else out / "checkpoint"
    best = load_checkpoint(chosen)
    best.model.to(device)                                        # scored where it trained, in batches
    test = read_split(data, "test", cfg.src_lang, cfg.tgt_lang)
    hyps = translate_lines(best, [s for s, _ in test], beam=args.test_beam)
    best.model.cpu()
    result = score(hyps, [t for _, t in test], cfg.tgt_lang)
    hardware = torch.cuda.get_device_name(device) if device.type == "cuda" else (
        f"CPU ({platform.processor() or platform.machine()}, {torch.get_num_threads()} threads)")
    training = {"data": {"folder": str(data), "manifest": manifest, "train_pairs_used": n_train},
                "args": vars(args), "config": asdict(cfg), "steps": step,
                "wall_time_s": round(elapsed, 1), "cpu_time_s": round(cpu, 1), "hardware": hardware, "world_size": world,
                "parameters": best.model.num_parameters(), "selection": selection, "init": init,
                "test": {**result, "beam": args.test_beam},
                "torch": torch.__version__}
    target.mkdir(parents=True, exist_ok=True)
    save_checkpoint(target, best.model, data / TOKENIZER, card=render_card(training))
    seen.save(target / seen.WORDS, [s for s, _ in read_split(data, "train", cfg.src_lang, cfg.tgt_lang)], cfg.src_lang)
    run_log = (out / LOG).read_text(encoding="utf-8")
    if base_path is not None and (base_path / LOG).is_file():
        run_log = trainlog.continued_text((base_path / LOG).read_text(encoding="utf-8"), run_log)
    (target / LOG).write_text(run_log, encoding="utf-8")
    if history is not None:
        attention_history.record(history, best.model, step)
        told = attention_history.continued(base_history, history) if base_history else history
        attention_history.save(told, target / attention_history.HISTORY)
    (target / TRAINING).write_text(json.dumps(training, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"test BLEU {result['bleu']}, chrF {result['chrf']} -> {target}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
