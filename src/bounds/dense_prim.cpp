// SPDX-License-Identifier: MIT
// Dense Prim (see dense_prim.h): each step takes the lightest edge into the tree (a reduction over
// the cities outside it), then lowers every outside city's key by its edge to the new city.
#include "bounds/dense_prim.h"

namespace formica::bounds {

std::vector<Edge> dense_spanning_tree(const Instance& instance, std::span<const int64_t> pi, int threads,
                                      const StopFlag* abandon) {
  const int n = instance.n();
  std::vector<Edge> key(static_cast<size_t>(n), kNoEdge);  // lightest edge from each city into the tree
  std::vector<char> inside(static_cast<size_t>(n), 0);
  std::vector<Edge> tree;
  tree.reserve(static_cast<size_t>(n - 1));
  int added = 0;  // the city that joined the tree last
  inside[0] = 1;
  for (int step = 1; step < n; ++step) {
    if (abandon != nullptr && abandon->requested()) throw TreeAbandoned();
    Edge best = kNoEdge;
    int best_city = -1;
#pragma omp parallel num_threads(threads) if (threads > 1 && n > 5000)
    {
      Edge local = kNoEdge;
      int local_city = -1;
#pragma omp for schedule(static)
      for (int v = 0; v < n; ++v) {
        if (inside[v]) continue;
        const Edge e = penalised_edge(instance, pi, added, v);
        if (lighter(e, key[v])) key[v] = e;
        if (lighter(key[v], local)) local = key[v], local_city = v;
      }
#pragma omp critical
      if (lighter(local, best)) best = local, best_city = local_city;
    }
    inside[best_city] = 1;
    tree.push_back(best);
    added = best_city;
  }
  return tree;
}

Edge dense_lightest_edge(const Instance& instance, std::span<const int64_t> pi, int city, int excluded) {
  Edge best = kNoEdge;
  for (int v = 0; v < instance.n(); ++v) {
    if (v == city || v == excluded) continue;
    const Edge e = penalised_edge(instance, pi, city, v);
    if (lighter(e, best)) best = e;
  }
  return best;
}

}  // namespace formica::bounds
