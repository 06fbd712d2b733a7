"""Tiny random Hugging Face Marian folders, built with transformers (a test dependency only): a shared
vocabulary of two tiny SentencePiece models (source.spm, target.spm, vocab.json) and a random
MarianMTModel saved beside it.  tests/test_marian.py checks parity with them; tests/test_page_marian.py
runs the app on one."""
import io
import json
from pathlib import Path

import sentencepiece as spm
import torch

from transformer_core.checkpoints.marian import SOURCE_SPM, TARGET_SPM, VOCAB

VOCAB_FILES = (SOURCE_SPM, TARGET_SPM, VOCAB)


def _spm(sentences, vocab_size) -> bytes:
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(sentences), model_writer=out, vocab_size=vocab_size,
                                   hard_vocab_limit=False, model_type="unigram", num_threads=1, minloglevel=2)
    return out.getvalue()


def write_vocabulary(folder: Path, pairs, sizes=(48, 48), left_out=("ar",)) -> dict[str, int]:
    """source.spm (pairs' first side), target.spm (second side) and one vocab.json for both, as Marian's
    tools make them: </s> 0, <unk> 1, the pieces of both models, <pad> last.  sizes: the two models' vocabulary
    sizes (Korean needs one piece per syllable it has seen: several hundred).  The pieces left_out ("ar") are
    left out of vocab.json, so they become <unk>."""
    pieces = ["</s>", "<unk>"]
    for name, side in ((SOURCE_SPM, 0), (TARGET_SPM, 1)):
        data = _spm([pair[side] for pair in pairs], sizes[side])
        (folder / name).write_bytes(data)
        sp = spm.SentencePieceProcessor(model_proto=data)
        pieces += [p for p in (sp.id_to_piece(i) for i in range(3, sp.vocab_size())) if p not in pieces]
    for piece in left_out:
        pieces.remove(piece)
    vocab = {p: i for i, p in enumerate(pieces + ["<pad>"])}
    (folder / VOCAB).write_text(json.dumps(vocab, ensure_ascii=False))
    return vocab


LAST_NORM, EMBEDDING_STD, EOS_BIAS, BIAS_STD = 0.5, 0.5, 1.0, 0.5


def randomize(model, n_decoder_layers):
    """Weights far from transformers' init, so that no two logits are near a tie."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "layer_norm.weight" in name:   # the last one smaller: flatter logits, so beams compete
                last = name.startswith(f"model.decoder.layers.{n_decoder_layers - 1}.final_layer_norm")
                p.copy_((LAST_NORM if last else 1.0) + 0.2 * torch.randn_like(p))
            else:
                std = EMBEDDING_STD if "embed_tokens" in name or "shared" in name or "lm_head" in name else 0.3
                p.copy_(std * torch.randn_like(p))
        model.final_logits_bias.normal_(0, BIAS_STD)
        model.final_logits_bias[0, 0] += EOS_BIAS     # </s> now and then
        model.final_logits_bias[0, -1] += 2.0         # <pad> likely: renormalizing without it matters


def save_marian(folder: Path, vocab_folder: Path, vocab: dict[str, int], spec, seed=0, d_ff=None) -> None:
    """A random MarianMTModel saved into folder with the vocabulary of vocab_folder.  spec: (encoder layers,
    decoder layers, d_model, heads, activation, share_encoder_decoder_embeddings, tie_word_embeddings,
    scale_embedding); d_ff defaults to 2·d_model."""
    import transformers

    enc, dec, d_model, heads, act, share, tie, scale = spec
    pad = len(vocab) - 1
    cfg = transformers.MarianConfig(
        vocab_size=len(vocab), decoder_vocab_size=len(vocab), d_model=d_model, encoder_layers=enc,
        decoder_layers=dec, encoder_attention_heads=heads, decoder_attention_heads=heads,
        encoder_ffn_dim=d_ff or 2 * d_model, decoder_ffn_dim=d_ff or 2 * d_model, activation_function=act,
        max_position_embeddings=64, pad_token_id=pad, eos_token_id=0, decoder_start_token_id=pad,
        share_encoder_decoder_embeddings=share, tie_word_embeddings=tie,
        scale_embedding=scale)
    torch.manual_seed(seed)
    model = transformers.MarianMTModel(cfg).eval()
    randomize(model, dec)
    model.save_pretrained(folder)
    for name in VOCAB_FILES:
        (folder / name).write_bytes((vocab_folder / name).read_bytes())


# The three OPUS-MT configurations the app is prepared for (their config.json on the Hub, CC BY 4.0), as
# MarianConfig arguments: a base en→de, a transformer-big en→ko and a base ko→en.  benchmarks/bench_marian.py
# builds them at full size; tests build them with fewer layers and a tiny vocabulary.
OPUS = {
    "opus-mt-en-de": dict(vocab_size=58101, d_model=512, encoder_layers=6, decoder_layers=6, encoder_attention_heads=8,
                          decoder_attention_heads=8, encoder_ffn_dim=2048, decoder_ffn_dim=2048,
                          activation_function="swish", max_position_embeddings=512, pad_token_id=58100,
                          eos_token_id=0),
    "opus-mt-tc-big-en-ko": dict(vocab_size=32001, d_model=1024, encoder_layers=6, decoder_layers=6,
                                 encoder_attention_heads=16, decoder_attention_heads=16, encoder_ffn_dim=4096,
                                 decoder_ffn_dim=4096, activation_function="relu", max_position_embeddings=1024,
                                 pad_token_id=32000, eos_token_id=2),
    "opus-mt-ko-en": dict(vocab_size=65001, d_model=512, encoder_layers=6, decoder_layers=6, encoder_attention_heads=8,
                          decoder_attention_heads=8, encoder_ffn_dim=2048, decoder_ffn_dim=2048,
                          activation_function="swish", max_position_embeddings=512, pad_token_id=65000,
                          eos_token_id=0),
}
OPUS_LANGUAGES = {"opus-mt-en-de": ("en", "de"), "opus-mt-tc-big-en-ko": ("en", "ko"), "opus-mt-ko-en": ("ko", "en")}


def marian_config(name: str, **changes):
    """transformers.MarianConfig of an OPUS configuration (with changes), as Marian's tools save it: shared
    embeddings, scaled, sinusoidal positions, the decoder starting with <pad>."""
    import transformers

    spec = {**OPUS[name], **changes}
    return transformers.MarianConfig(**spec, decoder_vocab_size=spec["vocab_size"],
                                     decoder_start_token_id=spec["pad_token_id"], forced_eos_token_id=spec["eos_token_id"],
                                     scale_embedding=True, share_encoder_decoder_embeddings=True,
                                     static_position_embeddings=True, normalize_embedding=False)


def save_opus(folder: Path, pairs, name: str = "opus-mt-en-de", seed: int = 0, **changes) -> Path:
    """A random MarianMTModel of an OPUS configuration (marian_config(name, **changes): its layers and heads,
    unless changed) on a tiny vocabulary of pairs, saved into folder as the Hub holds it, with its languages in
    tokenizer_config.json and weights far from the init (randomize).  tests/test_page_architecture.py and
    tests/test_browser_architecture.py build opus-mt-en-de's 6 + 6 layers at d_model 64."""
    import transformers

    folder.mkdir(parents=True, exist_ok=True)
    vocab = write_vocabulary(folder, pairs)
    (folder / "tokenizer_config.json").write_text(json.dumps(dict(zip(("source_lang", "target_lang"),
                                                                      OPUS_LANGUAGES[name], strict=True))))
    cfg = marian_config(name, **{"vocab_size": len(vocab), "pad_token_id": len(vocab) - 1, "eos_token_id": 0,
                                 "max_position_embeddings": 64, **changes})
    torch.manual_seed(seed)
    model = transformers.MarianMTModel(cfg).eval()
    randomize(model, cfg.decoder_layers)
    model.save_pretrained(folder)
    return folder
