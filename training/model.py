"""The digit CNN: its layout, training and export to ONNX for ``cv2.dnn``."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np


def make_model():  # noqa: ANN201 - torch is imported lazily
    """The CNN: 3 convolutions of stride 2, a 128-d embedding, 11 outputs (156k parameters).

    Each 3x3 convolution (with batch norm and ReLU) halves the image: 28x28 to 14x14 with 16
    channels, 7x7 with 32, 4x4 with 64; no pooling layers. About 0.68 M multiply-adds per
    digit, a quarter of the previous layout (16-24-64-128 channels at full resolution, each
    followed by 2x2 max pooling: 2.3 M), which ``cv2.dnn`` ran about 4x slower.
    """
    import torch
    from torch import nn

    class DigitNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()

            def block(i: int, o: int) -> nn.Sequential:
                return nn.Sequential(
                    nn.Conv2d(i, o, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(o),
                    nn.ReLU()
                )

            self.features = nn.Sequential(
                block(1, 16),
                block(16, 32),
                block(32, 64),
                nn.Flatten(),
            )
            self.embed = nn.Sequential(nn.Dropout(0.2), nn.Linear(64 * 4 * 4, 128), nn.ReLU())
            self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(128, 11))
            #: Softmax temperature, fitted after training on the calibration split.
            self.register_buffer("temperature", torch.ones(()))

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            e = self.embed(self.features(x))
            return torch.softmax(self.head(e) / self.temperature, dim=1), e

        def logits(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(self.embed(self.features(x)))

    return DigitNet()


def train(x: np.ndarray, y: np.ndarray, epochs: int, seed: int):  # noqa: ANN201
    """Train the CNN with AdamW, one-cycle learning rate and label smoothing."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)  # 2 threads measured 2-4x slower on the shared 2-CPU machine
    model = make_model()
    xt, yt = torch.from_numpy(x[:, None]), torch.from_numpy(y)
    batch = 128
    steps = epochs * ((len(x) + batch - 1) // batch)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    gen = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(len(x), generator=gen)
        total, correct, t0 = 0.0, 0, time.time()
        for i in range(0, len(x), batch):
            idx = perm[i : i + batch]
            xb = xt[idx]
            # Small random shifts (+-1 px) so the network does not rely on exact centring.
            sh = torch.randint(-1, 2, (2,), generator=gen)
            xb = torch.roll(xb, shifts=(int(sh[0]), int(sh[1])), dims=(2, 3))
            logits = model.logits(xb)
            loss = loss_fn(logits, yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            correct += int((logits.argmax(1) == yt[idx]).sum())
        print(
            f"epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f} "
            f"train acc {correct / len(x):.4f} "
            f"({time.time() - t0:.0f} s)",
            flush=True,
        )
    model.eval()
    return model


def export_onnx(model, path: Path) -> None:  # noqa: ANN001
    """Export to ONNX (opset 13, legacy exporter) with outputs ``probs`` and ``embed``."""
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 1, 28, 28)
    torch.onnx.export(
        model,
        (dummy,),
        str(path),
        input_names=["input"],
        output_names=["probs", "embed"],
        opset_version=13,
        dynamo=False,
        dynamic_axes={"input": {0: "n"}, "probs": {0: "n"}, "embed": {0: "n"}},
    )
