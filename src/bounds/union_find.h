// SPDX-License-Identifier: MIT
// Union-find with path halving, for the spanning trees of the bounds (k-d tree Boruvka, and
// Kruskal over a tree and a path city's edges).
#pragma once

#include <cstdint>
#include <numeric>
#include <vector>

namespace formica::bounds {

/// Only "same set or not" is asked of it, so which root a union leaves does not matter.
struct UnionFind {
  std::vector<int32_t> parent;
  explicit UnionFind(int n) : parent(static_cast<size_t>(n)) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
};

}  // namespace formica::bounds
