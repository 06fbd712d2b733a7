"""Every tensor follows the model's device: the explainer, decoding, translation and the attention history
build their inputs where the weights are.  On a CPU-only machine this is checked with torch's default
device set to "meta" (a tensor built without device= lands there) and a mode that refuses any torch call
mixing tensors of two devices, as a CPU tensor meeting a CUDA model fails on a GPU."""
import contextlib

import numpy as np
import pytest
import torch
from torch.overrides import TorchFunctionMode
from torch.utils import _pytree

from transformer_core.checkpoints.folder import save_checkpoint
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.explainer import history as attention_history
from transformer_core.explainer.explain import full_trace, teacher_forced_attention, token_losses
from transformer_core.explainer.translate import translate, translate_lines
from transformer_core.model.decoding import beam_search, beam_search_batch, greedy_decode, greedy_decode_batch

pytestmark = pytest.mark.usefixtures("one_thread")


class OneDevice(TorchFunctionMode):
    """Fails a torch call whose tensor arguments (scalars aside, as torch allows) are on several devices."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        devices = {t.device for t in _pytree.tree_leaves((args, kwargs)) if isinstance(t, torch.Tensor) and t.dim()}
        if len(devices) > 1:
            raise AssertionError(f"{getattr(func, '__name__', func)} mixes devices {sorted(map(str, devices))}")
        return func(*args, **kwargs)


def elsewhere():
    """The context of the checks: new tensors default to "meta", and devices must not mix."""
    stack = contextlib.ExitStack()
    stack.enter_context(torch.device("meta"))
    stack.enter_context(OneDevice())
    return stack


@pytest.fixture(scope="module")
def toy(tmp_path_factory, toy_spm):
    from transformer_core.model.config import ModelConfig
    from transformer_core.model.tokenizer import Tokenizer
    from transformer_core.model.transformer import Transformer

    tok = Tokenizer.load(toy_spm)
    torch.manual_seed(0)
    cfg = ModelConfig(vocab_size=tok.vocab_size, d_model=32, n_heads=4, n_encoder_layers=2, n_decoder_layers=2,
                      d_ff=64, max_len=24, pad_id=tok.pad_id, unk_id=tok.unk_id, bos_id=tok.bos_id,
                      eos_id=tok.eos_id, src_lang="en", tgt_lang="de")
    folder = tmp_path_factory.mktemp("toy_ckpt")
    save_checkpoint(folder, Transformer(cfg), toy_spm)
    return load_checkpoint(folder)


def test_the_meta_default_device_catches_a_tensor_built_on_the_wrong_device(toy):
    """The check itself: input ids built without device= break the forward pass."""
    with elsewhere(), pytest.raises(AssertionError, match="mixes devices"):
        toy.model.encode(torch.tensor([[toy.config.bos_id, toy.config.eos_id]]), None)


def test_decoding_and_translation_follow_the_model_device(toy):
    src = [toy.config.bos_id, 5, 6, 7, toy.config.eos_id]
    with elsewhere():
        greedy = greedy_decode(toy.model, src, trace=True)
        beam = beam_search(toy.model, src, trace=True)
        batch = torch.tensor([src, src[:3] + [toy.config.pad_id] * 2], device=toy.model.device)
        assert beam_search_batch(toy.model, batch)[0] == beam.ids
        assert greedy_decode_batch(toy.model, batch)[0] == greedy.ids
        assert translate(toy, "the cat sees the house.").text == translate_lines(toy, ["the cat sees the house."])[0]
        assert translate_lines(toy, ["the dog likes the tree."], beam=1)
    assert greedy.steps[0].cross.device == beam.steps[0].cross.device == toy.model.device


def test_explain_and_history_follow_the_model_device(toy, toy_pairs):
    src = [toy.config.bos_id, 5, 6, toy.config.eos_id]
    with elsewhere():
        attention = teacher_forced_attention(toy.model, src, [7, 8])
        trace = full_trace(toy.model, src, [7, 8])
        losses = token_losses(trace.logits[0], trace.labels[0])
        history = attention_history.empty(attention_history.probe_set(toy.tokenizer, "de", toy_pairs))
        attention_history.record(history, toy.model, 0)
    assert attention["cross"].shape == (2, 4, 3, 4) and isinstance(attention["cross"], np.ndarray)
    assert losses.shape == (3,) and np.isfinite(losses).all()
    assert history.steps == [0] and history.weights[0]["cross"].shape[0] == 1
