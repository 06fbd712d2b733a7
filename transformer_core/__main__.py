"""The command line, one door: python -m transformer_core COMMAND [options]  (COMMAND --help for each)."""
import importlib
import sys

COMMANDS = {  # command -> the module whose main() runs it, or module:function
    "data": "transformer_core.data.build",
    "train": "transformer_core.training.train",
    "evaluate": "transformer_core.training.evaluate",
    "mixes": "transformer_core.training.mixes",
    "average": "transformer_core.training.average",
    "translate": "transformer_core.serving.commands:translate_main",
    "attribution": "transformer_core.serving.commands:attribution_main",
    "alignment": "transformer_core.explainer.alignment",
    "confidence": "transformer_core.explainer.confidence",
    "hub": "transformer_core.checkpoints.hub",
    "quantize": "transformer_core.checkpoints.prepare",
    "model_card": "transformer_core.checkpoints.model_card",
    "seen": "transformer_core.checkpoints.seen",
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(f"usage: python -m transformer_core {{{','.join(COMMANDS)}}} [options]", file=sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    sys.argv[0] = f"python -m transformer_core {argv[0]}"       # what argparse calls the program
    module, _, function = COMMANDS[argv[0]].partition(":")
    return getattr(importlib.import_module(module), function or "main")(argv[1:]) or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
