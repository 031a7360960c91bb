// Minimum 1-trees of the complete graph (see complete_graph.h).
#include "bounds/complete_graph.h"

#include "bounds/dense_prim.h"

namespace formica::bounds {

CompleteGraph::CompleteGraph(const Instance& instance, int dense_up_to) : instance_(instance) {
  if (kd_boruvka_supported(instance.type()) && instance.n() > dense_up_to) boruvka_.emplace(instance);
}

OneTree CompleteGraph::one_tree(std::span<const int64_t> pi, int threads) {
  if (boruvka_) {
    std::vector<Edge> tree = boruvka_->spanning_tree(pi, threads);
    return one_tree_of(std::move(tree), instance_.n(),
                       [&](int leaf, int excluded) { return boruvka_->lightest_edge(pi, leaf, excluded); }, threads);
  }
  std::vector<Edge> tree = dense_spanning_tree(instance_, pi, threads);
  return one_tree_of(std::move(tree), instance_.n(),
                     [&](int leaf, int excluded) { return dense_lightest_edge(instance_, pi, leaf, excluded); },
                     threads);
}

}  // namespace formica::bounds
