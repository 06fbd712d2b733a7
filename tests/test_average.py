"""python -m transformer_core average: the mean of checkpoints' weights, a card naming them, clear refusals."""
import pytest
import torch
from safetensors.torch import load_file
from test_train import _corpus

from transformer_core.checkpoints.files import CARD
from transformer_core.checkpoints.folder import save_checkpoint
from transformer_core.checkpoints.load import load_checkpoint
from transformer_core.checkpoints.model_card import card_body
from transformer_core.model.config import ModelConfig
from transformer_core.model.tokenizer import train_tokenizer
from transformer_core.model.transformer import Transformer
from transformer_core.training.average import main

pytestmark = pytest.mark.usefixtures("one_thread")
VOCAB = 40


@pytest.fixture(scope="module")
def spms(tmp_path_factory, toy_pairs):
    """Two tokenizers of VOCAB pieces: the toy grammar's, and one of its text in capitals."""
    folder = tmp_path_factory.mktemp("spms")
    texts = [text for pair in toy_pairs for text in pair]
    for name, lines in (("spm", texts), ("upper", [t.upper() for t in texts])):
        assert train_tokenizer(lines, folder / f"{name}.model", vocab_size=VOCAB).vocab_size == VOCAB
    return folder / "spm.model", folder / "upper.model"


def _checkpoint(folder, spm, seed: int, d_model: int = 16, dropout: float = 0.1):
    torch.manual_seed(seed)
    model = Transformer(ModelConfig(vocab_size=VOCAB, d_model=d_model, n_heads=2, n_encoder_layers=1,
                                    n_decoder_layers=1, d_ff=32, dropout=dropout, max_len=40))
    return save_checkpoint(folder, model, spm, card=f"# toy {seed}\n\nData: toy grammar, licence CC0-1.0 ({seed}).\n")


def test_average_is_the_mean_and_the_card_carries_the_ingredients(tmp_path, toy_pairs, spms, capsys):
    a = _checkpoint(tmp_path / "a", spms[0], 1)
    b = _checkpoint(tmp_path / "b", spms[0], 2, dropout=0.3)                 # dropout may differ
    data = _corpus(tmp_path / "data", toy_pairs, spms[0])
    assert main([str(a), str(b), "--out", str(tmp_path / "soup"), "--data", str(data), "--beam", "2"]) == 0
    wa, wb = (load_file(str(f / "model.safetensors")) for f in (a, b))
    soup = load_checkpoint(tmp_path / "soup")
    for name, tensor in soup.model.state_dict().items():
        assert torch.equal(tensor, (wa[name].double() + wb[name].double()).div(2).float()), name
    assert not torch.equal(wa["embedding.weight"], wb["embedding.weight"])
    card = (tmp_path / "soup" / CARD).read_text(encoding="utf-8")
    assert CARD == "README.md" and card_body(card).startswith("# Average of 2 checkpoints")
    assert f"- `{a}`" in card and f"- `{b}`" in card and "\n# 한국어\n" in card
    assert "licence CC0-1.0 (1)" in card and "licence CC0-1.0 (2)" in card   # each ingredient's own card
    bleu = float(capsys.readouterr().err.split("test BLEU ")[1].split(",")[0])
    assert f"| BLEU | {bleu:.2f} | `nrefs:1" in card and "test split of" in card and "(10 sentence pairs)" in card
    from huggingface_hub import ModelCard

    meta = ModelCard(card).data                                              # what the Hub reads
    assert meta.language == ["en", "de"] and meta.pipeline_tag == "translation" and "translation" in meta.tags
    assert {(r.dataset_split, r.metric_type): r.metric_value for r in meta.eval_results}[("test", "bleu")] == bleu


def test_average_refuses_other_architectures_tokenizers_and_missing_data(tmp_path, spms, capsys):
    a = _checkpoint(tmp_path / "a", spms[0], 1)
    wide = _checkpoint(tmp_path / "wide", spms[0], 2, d_model=32)
    other = _checkpoint(tmp_path / "other", spms[1], 3)
    cases = {(a, wide): "different architectures", (a, other): "different tokenizers"}
    for (x, y), message in cases.items():
        assert main([str(x), str(y), "--out", str(tmp_path / "soup")]) == 2
        assert message in capsys.readouterr().err and not (tmp_path / "soup").exists()
    assert main([str(a), str(a), "--out", str(tmp_path / "soup"), "--data", str(tmp_path / "nowhere")]) == 2
    assert "no such file" in capsys.readouterr().err and not (tmp_path / "soup").exists()
    with pytest.raises(SystemExit):
        main([str(a), "--out", str(tmp_path / "soup")])                      # one checkpoint: nothing to average
