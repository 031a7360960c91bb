// SPDX-License-Identifier: MIT
// Boruvka over a k-d tree with penalty-aware pruning (see kd_boruvka.h).
#include "bounds/kd_boruvka.h"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <stdexcept>

#include "bounds/union_find.h"

namespace formica::bounds {
namespace {

constexpr int kLeafSize = 8;

/// Atomic minimum of a component's best weight known so far (only ever used to skip boxes).
void lower_to(std::atomic<int64_t>& bound, int64_t weight) {
  int64_t now = bound.load(std::memory_order_relaxed);
  while (weight < now && !bound.compare_exchange_weak(now, weight, std::memory_order_relaxed)) {
  }
}

}  // namespace

bool kd_boruvka_supported(EdgeWeightType type) {
  return type != EdgeWeightType::Geo && type != EdgeWeightType::Explicit;
}

KdBoruvka::KdBoruvka(const Instance& instance)
    : instance_(instance), dims_(instance.type() == EdgeWeightType::Euc3D ? 3 : 2) {
  if (!kd_boruvka_supported(instance.type()))
    throw std::invalid_argument("KdBoruvka: needs planar or 3D coordinates");
  const int n = instance.base_n();
  coords_.resize(static_cast<size_t>(n) * dims_);
  for (int i = 0; i < n; ++i) {
    coords_[static_cast<size_t>(i) * dims_] = instance.x()[i];
    coords_[static_cast<size_t>(i) * dims_ + 1] = instance.y()[i];
    if (dims_ == 3) coords_[static_cast<size_t>(i) * dims_ + 2] = instance.z()[i];
  }
  order_.resize(static_cast<size_t>(n));
  std::iota(order_.begin(), order_.end(), 0);
  nodes_.reserve(static_cast<size_t>(4 * (n / kLeafSize + 1)));
  build(0, n);
}

int KdBoruvka::build(int begin, int end) {
  const int index = static_cast<int>(nodes_.size());
  nodes_.push_back(Node{begin, end, -1, -1, {}, {}});
  Node box = nodes_.back();
  for (int d = 0; d < dims_; ++d) {
    box.lo[d] = box.hi[d] = coords_[static_cast<size_t>(order_[begin]) * dims_ + d];
    for (int p = begin + 1; p < end; ++p) {
      const double c = coords_[static_cast<size_t>(order_[p]) * dims_ + d];
      box.lo[d] = std::min(box.lo[d], c);
      box.hi[d] = std::max(box.hi[d], c);
    }
  }
  if (end - begin > kLeafSize) {
    int axis = 0;
    for (int d = 1; d < dims_; ++d)
      if (box.hi[d] - box.lo[d] > box.hi[axis] - box.lo[axis]) axis = d;
    const int mid = begin + (end - begin) / 2;
    std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end, [&](int a, int b) {
      const double ca = coords_[static_cast<size_t>(a) * dims_ + axis], cb = coords_[static_cast<size_t>(b) * dims_ + axis];
      return ca != cb ? ca < cb : a < b;
    });
    box.left = build(begin, mid);
    box.right = build(mid, end);
  }
  nodes_[index] = box;
  return index;
}

int64_t KdBoruvka::distance_to_box(int city, const Node& node) const {
  double gap[3] = {0.0, 0.0, 0.0};
  for (int d = 0; d < dims_; ++d) {
    const double c = coords_[static_cast<size_t>(city) * dims_ + d];
    if (c < node.lo[d])
      gap[d] = node.lo[d] - c;
    else if (c > node.hi[d])
      gap[d] = c - node.hi[d];
  }
  switch (instance_.type()) {
    case EdgeWeightType::Euc2D: return tsplib::euc_2d(gap[0], gap[1]);
    case EdgeWeightType::Ceil2D: return tsplib::ceil_2d(gap[0], gap[1]);
    case EdgeWeightType::Att: return tsplib::att(gap[0], gap[1]);
    case EdgeWeightType::Man2D: return tsplib::man_2d(gap[0], gap[1]);
    case EdgeWeightType::Max2D: return tsplib::max_2d(gap[0], gap[1]);
    case EdgeWeightType::Euc3D: return tsplib::euc_3d(gap[0], gap[1], gap[2]);
    default: return 0;
  }
}

template <class Admit, class Open>
void KdBoruvka::search(int city, std::span<const int64_t> pi, Admit admit, Open open, Edge& best) const {
  struct Pending {
    int node;
    int64_t bound;
  };
  Pending stack[128];  // the tree is balanced: depth about log2(n / kLeafSize), far below 64
  int top = 0;
  const int64_t own = pi[static_cast<size_t>(city)];
  const auto bound_of = [&](int node) {
    return kPenaltyScale * distance_to_box(city, nodes_[node]) + own + box_pi_[node];
  };
  stack[top++] = {0, bound_of(0)};
  while (top > 0) {
    const Pending p = stack[--top];
    if (p.bound > best.weight || !open(p.node)) continue;
    const Node& node = nodes_[p.node];
    if (node.left < 0) {
      for (int at = node.begin; at < node.end; ++at) {
        const int v = order_[at];
        if (v == city || !admit(v)) continue;
        const Edge e = penalised_edge(instance_, pi, city, v);
        if (lighter(e, best)) best = e;
      }
      continue;
    }
    const Pending l{node.left, bound_of(node.left)}, r{node.right, bound_of(node.right)};
    // The nearer box is searched first: pushed last.
    if (l.bound <= r.bound) {
      if (r.bound <= best.weight) stack[top++] = r;
      if (l.bound <= best.weight) stack[top++] = l;
    } else {
      if (l.bound <= best.weight) stack[top++] = l;
      if (r.bound <= best.weight) stack[top++] = r;
    }
  }
}

std::vector<Edge> KdBoruvka::spanning_tree(std::span<const int64_t> pi, int threads,
                                            const StopFlag* abandon) {
  const int n = instance_.base_n();
  const int nodes = static_cast<int>(nodes_.size());
  box_pi_.assign(static_cast<size_t>(nodes), 0);
  box_component_.assign(static_cast<size_t>(nodes), -1);
  for (int b = nodes - 1; b >= 0; --b) {  // children come after their parent
    const Node& node = nodes_[b];
    if (node.left < 0) {
      int64_t least = pi[static_cast<size_t>(order_[node.begin])];
      for (int at = node.begin + 1; at < node.end; ++at) least = std::min(least, pi[static_cast<size_t>(order_[at])]);
      box_pi_[b] = least;
    } else {
      box_pi_[b] = std::min(box_pi_[node.left], box_pi_[node.right]);
    }
  }
  UnionFind components(n);
  std::vector<int32_t> component(static_cast<size_t>(n));
  std::iota(component.begin(), component.end(), 0);
  std::vector<Edge> tree, lightest(static_cast<size_t>(n));
  tree.reserve(static_cast<size_t>(n - 1));
  std::vector<std::atomic<int64_t>> known(static_cast<size_t>(n));
  while (static_cast<int>(tree.size()) < n - 1) {
    for (int b = nodes - 1; b >= 0; --b) {
      const Node& node = nodes_[b];
      if (node.left < 0) {
        int32_t c = component[order_[node.begin]];
        for (int at = node.begin + 1; at < node.end && c >= 0; ++at)
          if (component[order_[at]] != c) c = -1;
        box_component_[b] = c;
      } else {
        const int32_t c = box_component_[node.left];
        box_component_[b] = c >= 0 && box_component_[node.right] == c ? c : -1;
      }
    }
    for (auto& k : known) k.store(kNoEdge.weight, std::memory_order_relaxed);
    std::atomic<bool> abandoned{false};
#pragma omp parallel for schedule(dynamic, 256) num_threads(threads) if (threads > 1)
    for (int at = 0; at < n; ++at) {
      if (abandoned.load(std::memory_order_relaxed)) continue;
      if (abandon != nullptr && abandon->requested()) {
        abandoned = true;
        continue;
      }
      const int city = order_[at];  // neighbouring cities in turn: their searches share boxes
      const int32_t own = component[city];
      // A stand-in as heavy as the component's best so far: equal weights still win by endpoints.
      Edge best{known[own].load(std::memory_order_relaxed), kNoEdge.a, kNoEdge.b};
      search(city, pi, [&](int v) { return component[v] != own; },
             [&](int node) { return box_component_[node] != own; }, best);
      lightest[city] = best;
      if (best.a != kNoEdge.a) lower_to(known[own], best.weight);
    }
    if (abandoned) throw TreeAbandoned();
    std::vector<Edge> chosen(static_cast<size_t>(n), kNoEdge);  // by component
    for (int city = 0; city < n; ++city)
      if (lighter(lightest[city], chosen[component[city]])) chosen[component[city]] = lightest[city];
    for (const Edge& e : chosen) {
      if (e.a == kNoEdge.a) continue;
      const int ra = components.find(e.a), rb = components.find(e.b);
      if (ra == rb) continue;  // both components chose the same edge
      components.parent[ra] = rb;
      tree.push_back(e);
    }
    for (int city = 0; city < n; ++city) component[city] = components.find(city);
  }
  return tree;
}

Edge KdBoruvka::lightest_edge(std::span<const int64_t> pi, int city, int excluded) const {
  Edge best = kNoEdge;
  search(city, pi, [&](int v) { return v != excluded; }, [](int) { return true; }, best);
  return best;
}

}  // namespace formica::bounds
