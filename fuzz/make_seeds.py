# SPDX-License-Identifier: MIT
"""Writes the seed corpora of fuzz_numpy, fuzz_arrays and fuzz_bound:

- fuzz/corpus/numpy/: small .npy and .npz files as NumPy itself writes them (every dtype the
  reader takes, header versions 1 to 3, np.savez and np.savez_compressed);
- fuzz/corpus/arrays/: inputs in fuzz_arrays.cpp's own layout (an entry byte, names and shapes,
  raw values): coordinates under each metric, matrices, pickled instances, batch arrays;
- fuzz/corpus/bound/: inputs in fuzz_bound.cpp's layout: small instances of every type at the
  extremes the reader takes (cities stacked on far corners, weights near 2^31 - 1, a path city).

    python3 fuzz/make_seeds.py
"""

import io
import os
import struct

import numpy as np

corpus = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
out = os.path.join(corpus, "numpy")
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(22)


def points(shape, dtype):
    return (rng.random(shape) * 100).astype(dtype)


def npy(name, array, version):
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, array, version=version)
    with open(os.path.join(out, name), "wb") as f:
        f.write(buffer.getvalue())


for dtype, code in [(np.float64, "f8"), (np.float32, "f4"), (np.int32, "i4"), (np.int64, "i8")]:
    npy(f"batch_{code}_v1.npy", points((2, 4, 2), dtype), (1, 0))
npy("batch_f8_v2.npy", points((1, 5, 2), np.float64), (2, 0))
npy("batch_f4_v3.npy", points((2, 3, 2), np.float32), (3, 0))
npy("one_instance_f8.npy", points((4, 2), np.float64), (1, 0))  # (n, 2) alone: refused in an .npy
npy("empty_batch.npy", points((0, 3, 2), np.float64), (1, 0))
npy("nan_city.npy", np.array([[[0, 0], [1, np.nan], [2, 2]]]), (1, 0))
npy("two_cities.npy", points((1, 2, 2), np.float64), (1, 0))

np.savez(os.path.join(out, "named_stored.npz"), a=points((3, 2), np.float64), b=points((4, 2), np.int32))
np.savez(os.path.join(out, "stacked_stored.npz"), points((2, 3, 2), np.float32))
np.savez_compressed(os.path.join(out, "named_deflated.npz"), a=points((5, 2), np.float64), b=points((3, 2), np.int64))
np.savez_compressed(os.path.join(out, "stacked_deflated.npz"), points((3, 4, 2), np.float64))


# fuzz_arrays: entry 0 coordinates (metric index, rows, cols, doubles), 1 symmetric and 2 asymmetric
# matrices (rows, cols, int32s), 3 a pickled instance (type index, six lengths, values), 4 batch
# arrays (count, then per array: named, ndim, dimensions, doubles). Indices are into kNames.
arrays = os.path.join(corpus, "arrays")
os.makedirs(arrays, exist_ok=True)


def doubles(values):
    return struct.pack(f"<{len(values)}d", *values)


def ints(values):
    return struct.pack(f"<{len(values)}i", *values)


square = [0, 0, 10, 0, 10, 10, 0, 10]
cube = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]
weights = [0, 2, 3, 2, 0, 4, 3, 4, 0]
directed = [0, 2, 3, 5, 0, 4, 1, 7, 0]
seeds = {
    "coordinates_euc_2d": bytes([0, 0, 4, 2]) + doubles(square),
    "coordinates_euc_3d": bytes([0, 1, 4, 3]) + doubles(cube),
    "coordinates_geo": bytes([0, 4, 4, 2]) + doubles([38.24, 20.42, 39.57, 26.15, 40.56, 25.32, 36.26, 23.12]),
    "coordinates_nan": bytes([0, 0, 3, 2]) + doubles([0, 0, float("nan"), 1, 2, 2]),
    "coordinates_huge": bytes([0, 6, 3, 2]) + doubles([0, 0, 1e300, 1, 2, -5e8]),
    "coordinates_two_cities": bytes([0, 2, 2, 2]) + doubles([0, 0, 1, 1]),
    "coordinates_wrong_metric": bytes([0, 7, 3, 2]) + doubles([0, 0, 1, 1, 2, 2]),
    "matrix_symmetric": bytes([1, 3, 3]) + ints(weights),
    "matrix_not_square": bytes([1, 3, 2]) + ints(weights[:6]),
    "matrix_negative": bytes([1, 3, 3]) + ints([0, -1, 3, -1, 0, 4, 3, 4, 0]),
    "matrix_asymmetric": bytes([2, 3, 3]) + ints(directed),
    "state_euc_2d": bytes([3, 0, 4, 4, 0, 0, 0, 0]) + doubles(square[0::2]) + doubles(square[1::2]),
    "state_explicit": bytes([3, 7, 0, 0, 0, 9, 3, 3]) + ints(weights) + doubles([0, 1, 2]) + doubles([0, 1, 0]),
    "state_explicit_not_square": bytes([3, 7, 0, 0, 0, 10, 0, 0]) + ints(weights + [1]),
    "batch_stacked": bytes([4, 0, 0, 3, 2, 3, 2]) + doubles(square[:6] + [5, 5, 6, 1, 9, 9]),
    "batch_named": bytes([4, 1, 1, 2, 4, 2]) + doubles(square) + bytes([1, 2, 3, 2]) + doubles(square[:6]),
}
for name, data in seeds.items():
    with open(os.path.join(arrays, name), "wb") as f:
        f.write(data)


# fuzz_bound: a shape byte (3 in its low bits: a path city; bits 2-3 the penalty's mode), type index
# (kTypes: 0 EUC_2D ... 3 GEO, 6 EUC_3D, 7 EXPLICIT), a size byte (n - 3, or with its top three
# bits set (n - 3) / 16 in the low five, up to 499), a mode (0 anywhere in range, 1 near the extreme corners, 2 small), the
# ascent's (iterations - 1) / 2 and first period - 1, the path city's end count and ends, its penalty word;
# then the values as 32-bit words, taken again from the first when they run out.
bound = os.path.join(corpus, "bound")
os.makedirs(bound, exist_ok=True)


def words(values):
    return struct.pack(f"<{len(values)}I", *values)


def random_words(count):
    return words([int(v) for v in rng.integers(0, 2**32, size=count)])


def header(shape, type_index, size, mode, iterations=249, period=199, ends=(0, 0, 0), penalty=0):
    return bytes([shape, type_index, size, mode, iterations, period, *ends]) + words([penalty])


# 400 (or 64) cities on two or three corners, a point each, from the words of the corners alone
# (+-5e8: bit 0 the sign, bit 1 clear, no offset): the shape that broke the ascent.
two = words([0, 0, 1, 0])
three = words([0, 0, 1, 0, 0, 1])
seeds = {
    "stacked_400_euc_2d": header(0, 0, 0xE0 | 25, 1) + two,
    "stacked_400_max_2d": header(0, 5, 0xE0 | 25, 1) + three,
    "stacked_64_ceil_2d": header(0, 1, 61, 1) + two,
    "corners_ceil_2d": header(0, 1, 40, 1, 99, 49) + random_words(2 * 43),
    "anywhere_att": header(0, 2, 30, 0, 99, 19) + random_words(2 * 33),
    "anywhere_geo": header(0, 3, 20, 0, 99, 19) + random_words(2 * 23),
    "corners_euc_3d": header(0, 6, 20, 1, 99, 19) + random_words(3 * 23),
    "small_man_2d": header(0, 4, 6, 2, 29, 9) + random_words(2 * 9),
    "heavy_explicit": header(0, 7, 9, 1, 99, 19) + random_words(12 * 11 // 2),
    "path_city_euc_2d": header(7, 0, 20, 1, 99, 19, ends=(2, 0, 5), penalty=0) + random_words(2 * 23),
}
for name, data in seeds.items():
    with open(os.path.join(bound, name), "wb") as f:
        f.write(data)
