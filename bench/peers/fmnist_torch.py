#!/usr/bin/python3
"""The Fashion-MNIST network of examples/fashion_mnist, trained with PyTorch: the peer
of pdnn's main job (bench/fmnist_compare.sh runs both side by side).

Same network (conv 5x5 1->32 pad 2, ReLU, max-pool 2; conv 5x5 32->64 pad 2, ReLU,
max-pool 2; linear 3136->128, ReLU; linear 128->10; cross-entropy, mean over the
batch), same optimizer (Adam, lr 1e-3, betas 0.9/0.999, eps 1e-8), same batch size and
the same data: Debian's dataset-fashion-mnist IDX files, pixels / 255 normalised with
mean 0.2860 and std 0.3530 as fm_model.c does. The data order is a seeded shuffle per
epoch (not pdnn's order; nothing depends on it).

PyTorch at its best settings on this CPU: torch.set_num_threads(--threads), one
inter-op thread, and OMP_WAIT_POLICY=passive (idle OpenMP threads sleep instead of
spinning); the script re-executes itself with that set when it is not. The whole
training set is converted to a float tensor once, before the clock starts, and each
batch is an index_select of it: the timed epoch is the training steps alone, as in
fashion_mnist's "images/s" and epoch seconds (the test pass is timed apart).

Run with Debian's interpreter (/usr/bin/python3: the pyenv python3 first on PATH does
not see Debian's python3-torch):

    /usr/bin/python3 bench/peers/fmnist_torch.py --epochs 1 --threads 2 [--limit 5000]

Prints one line per epoch:
    torch epoch 1/1: 60000 images, 33.21 s, 1806.7 images/s, train loss 0.4561, test accuracy 87.12%
"""
import argparse
import gzip
import os
import sys
import time

DEFAULT_DATA = "/usr/share/datasets/fashion-mnist"
MEAN, STD = 0.2860, 0.3530


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--epochs", type=int, default=1, help="epochs (1)")
    p.add_argument("--threads", type=int, default=2, help="torch.set_num_threads (2)")
    p.add_argument("--batch", type=int, default=64, help="images per optimizer step (64)")
    p.add_argument("--limit", type=int, default=0,
                   help="train on the first N training images per epoch (0: all 60000)")
    p.add_argument("--limit-test", type=int, default=0,
                   help="test on the first N test images (0: all 10000)")
    p.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate (0.001)")
    p.add_argument("--seed", type=int, default=42, help="seed of the weights and shuffles (42)")
    p.add_argument("--data", default=DEFAULT_DATA, help="folder of the IDX .gz files")
    a = p.parse_args()
    for name in ("epochs", "threads", "batch"):
        if getattr(a, name) < 1:
            p.error(f"--{name} wants an integer >= 1")
    if a.limit < 0 or a.limit_test < 0:
        p.error("--limit and --limit-test want an integer >= 0")
    return a


def reexec_passive():
    """OMP_WAIT_POLICY is read when the OpenMP runtime starts (at import torch), so it
    must be in the environment before the interpreter starts. An explicit setting (e.g.
    OMP_WAIT_POLICY=active, faster on some quiet machines) is kept."""
    if "OMP_WAIT_POLICY" not in os.environ:
        env = dict(os.environ, OMP_WAIT_POLICY="passive")
        os.execve(sys.executable, [sys.executable] + sys.argv, env)


def read_idx(path, ndims):
    import numpy as np
    try:
        with gzip.open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        sys.exit(f"fmnist_torch: cannot read {path}: {e} "
                 "(install Debian's dataset-fashion-mnist)")
    magic = int.from_bytes(raw[0:4], "big")
    if magic != 0x0800 + ndims:
        sys.exit(f"fmnist_torch: {path}: magic 0x{magic:08x}, expected 0x{0x800 + ndims:08x}")
    dims = [int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(ndims)]
    data = np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * ndims)
    if data.size != int(np.prod(dims)):
        sys.exit(f"fmnist_torch: {path}: {data.size} bytes of data for dims {dims}")
    return data.reshape(dims)


def load_split(torch, folder, prefix, limit):
    images = read_idx(os.path.join(folder, f"{prefix}-images-idx3-ubyte.gz"), 3)
    labels = read_idx(os.path.join(folder, f"{prefix}-labels-idx1-ubyte.gz"), 1)
    if images.shape[0] != labels.shape[0]:
        sys.exit(f"fmnist_torch: {prefix}: {images.shape[0]} images, {labels.shape[0]} labels")
    if limit:
        images, labels = images[:limit], labels[:limit]
    x = torch.from_numpy(images.copy()).float().div_(255.0).sub_(MEAN).div_(STD)
    return x.unsqueeze(1).contiguous(), torch.from_numpy(labels.astype("int64"))


def make_net(torch):
    nn = torch.nn
    return nn.Sequential(
        nn.Conv2d(1, 32, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(3136, 128), nn.ReLU(),
        nn.Linear(128, 10),
    )


def evaluate(torch, net, x, y, batch=256):
    net.eval()
    correct = 0
    with torch.no_grad():
        for i in range(0, x.shape[0], batch):
            correct += (net(x[i:i + batch]).argmax(1) == y[i:i + batch]).sum().item()
    net.train()
    return correct / x.shape[0]


def main():
    a = parse_args()
    reexec_passive()
    import torch
    torch.set_num_threads(a.threads)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:
        pass  # already set
    torch.manual_seed(a.seed)
    xtr, ytr = load_split(torch, a.data, "train", a.limit)
    xte, yte = load_split(torch, a.data, "t10k", a.limit_test)
    net = make_net(torch)
    opt = torch.optim.Adam(net.parameters(), lr=a.lr, betas=(0.9, 0.999), eps=1e-8)
    lossf = torch.nn.CrossEntropyLoss()
    n = xtr.shape[0]
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, "
          f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY')}; {n} training, "
          f"{xte.shape[0]} test images; batch {a.batch}, Adam lr {a.lr}", flush=True)
    gen = torch.Generator().manual_seed(a.seed)
    for epoch in range(1, a.epochs + 1):
        order = torch.randperm(n, generator=gen)
        lsum = 0.0
        t0 = time.perf_counter()
        for s in range(0, n, a.batch):
            idx = order[s:s + a.batch]
            xb, yb = xtr.index_select(0, idx), ytr.index_select(0, idx)
            opt.zero_grad(set_to_none=True)
            loss = lossf(net(xb), yb)
            loss.backward()
            opt.step()
            lsum += loss.item() * idx.shape[0]
        secs = time.perf_counter() - t0
        acc = evaluate(torch, net, xte, yte)
        print(f"torch epoch {epoch}/{a.epochs}: {n} images, {secs:.2f} s, {n / secs:.1f} "
              f"images/s, train loss {lsum / n:.4f}, test accuracy {100 * acc:.2f}%", flush=True)


if __name__ == "__main__":
    main()
