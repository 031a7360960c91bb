// SPDX-License-Identifier: MIT
// KdTree construction and queries (see kd_tree.h).
#include "core/kd_tree.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

#include "core/error.h"
#include "core/search.h"

namespace formica {
namespace {

constexpr int kLeafSize = 8;

/// The k best (distance, city) pairs seen so far, ascending; ties go to the lower city index.
class BestK {
 public:
  explicit BestK(int k) : k_(k), distance_(static_cast<size_t>(k)), city_(static_cast<size_t>(k)) {}

  bool full() const { return size_ == k_; }
  double worst() const { return distance_[static_cast<size_t>(size_ - 1)]; }
  /// Whether a subtree whose cities are all at least `gap` away and numbered from `min_city` on
  /// may still give a city (ties go to the lower index).
  bool may_take(double gap, int32_t min_city) const {
    return !full() || gap < worst() || (gap == worst() && min_city < city_[static_cast<size_t>(size_ - 1)]);
  }
  void offer(double distance, int32_t city) {
    if (!takes(distance, city)) return;
    if (full()) --size_;
    int p = size_++;
    for (; p > 0 && before(distance, city, p - 1); --p) {
      distance_[static_cast<size_t>(p)] = distance_[static_cast<size_t>(p - 1)];
      city_[static_cast<size_t>(p)] = city_[static_cast<size_t>(p - 1)];
    }
    distance_[static_cast<size_t>(p)] = distance;
    city_[static_cast<size_t>(p)] = city;
  }
  /// Whether (distance, city) would enter.
  bool takes(double distance, int32_t city) const { return !full() || before(distance, city, size_ - 1); }
  int size() const { return size_; }
  int32_t city(int p) const { return city_[static_cast<size_t>(p)]; }
  double distance(int p) const { return distance_[static_cast<size_t>(p)]; }
  std::vector<int32_t> cities() && {
    city_.resize(static_cast<size_t>(size_));
    return std::move(city_);
  }

 private:
  bool before(double distance, int32_t city, int p) const {
    const double d = distance_[static_cast<size_t>(p)];
    return distance < d || (distance == d && city < city_[static_cast<size_t>(p)]);
  }

  int k_, size_ = 0;
  std::vector<double> distance_;
  std::vector<int32_t> city_;
};

}  // namespace

KdTree::KdTree(const Instance& instance, const StopFlag* stop) {
  FORMICA_EXPECTS(instance.has_coordinates(), "a k-d tree needs coordinates; ", instance.name(),
                  " is EXPLICIT");
  const int n = instance.base_n();
  const auto x = instance.x(), y = instance.y(), z = instance.z();
  switch (instance.type()) {
    case EdgeWeightType::Man2D:
      metric_ = Metric::L1;
      dims_ = 2;
      break;
    case EdgeWeightType::Max2D:
      metric_ = Metric::LInf;
      dims_ = 2;
      break;
    case EdgeWeightType::Euc3D:
      metric_ = Metric::L2;
      dims_ = 3;
      break;
    case EdgeWeightType::Geo:
      metric_ = Metric::L2;
      dims_ = 3, geo_ = true;
      break;
    default:
      metric_ = Metric::L2;
      dims_ = 2;
      break;
  }
  coords_.resize(static_cast<size_t>(n) * dims_);
  for (int i = 0; i < n; ++i) {
    double* c = &coords_[static_cast<size_t>(i) * dims_];
    if (instance.type() == EdgeWeightType::Geo) {
      // Points on the unit sphere: chord length grows with the great-circle angle TSPLIB uses.
      const double lat = tsplib::geo_radians(x[i]), lon = tsplib::geo_radians(y[i]);
      c[0] = std::cos(lat) * std::cos(lon);
      c[1] = std::cos(lat) * std::sin(lon);
      c[2] = std::sin(lat);
    } else {
      c[0] = x[i];
      c[1] = y[i];
      if (dims_ == 3) c[2] = z[i];
    }
  }
  order_.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) order_[i] = i;
  leaf_of_.assign(static_cast<size_t>(n), -1);
  removed_.assign(static_cast<size_t>(n), 0);
  nodes_.reserve(static_cast<size_t>(4 * n / kLeafSize + 4));
  build(0, n, stop);
  ordered_coords_.resize(coords_.size());
  for (int p = 0; p < n; ++p)
    std::copy_n(&coords_[static_cast<size_t>(order_[p]) * dims_], dims_,
                &ordered_coords_[static_cast<size_t>(p) * dims_]);
  parent_.assign(nodes_.size(), -1);
  for (size_t v = 0; v < nodes_.size(); ++v) {
    if (nodes_[v].left >= 0) parent_[nodes_[v].left] = static_cast<int32_t>(v);
    if (nodes_[v].right >= 0) parent_[nodes_[v].right] = static_cast<int32_t>(v);
  }
}

int KdTree::build(int begin, int end, const StopFlag* stop) {
  // A look at the stop for every subtree of many cities: a few thousand looks for a million.
  constexpr int kStopCheckCities = 512;
  if (stop != nullptr && end - begin >= kStopCheckCities && stop->requested()) throw SetupStopped();
  const int id = static_cast<int>(nodes_.size());
  nodes_.push_back(Node{begin, end, -1, -1, 0, 0.0, end - begin, 0, {}, {}});
  {
    Node& node = nodes_.back();
    for (int a = 0; a < dims_; ++a) {
      node.lo[a] = std::numeric_limits<double>::infinity(), node.hi[a] = -node.lo[a];
      for (int p = begin; p < end; ++p) {
        const double v = coords_[static_cast<size_t>(order_[p]) * dims_ + a];
        node.lo[a] = std::min(node.lo[a], v), node.hi[a] = std::max(node.hi[a], v);
      }
    }
  }
  if (end - begin <= kLeafSize) {
    for (int p = begin; p < end; ++p) leaf_of_[order_[p]] = id;
    nodes_[id].min_city = *std::min_element(order_.begin() + begin, order_.begin() + end);
    return id;
  }
  // Split along the axis of largest spread, at the median.
  int axis = 0;
  double widest = -1.0;
  for (int a = 0; a < dims_; ++a)
    if (nodes_[id].hi[a] - nodes_[id].lo[a] > widest) widest = nodes_[id].hi[a] - nodes_[id].lo[a], axis = a;
  const int mid = begin + (end - begin) / 2;
  // Equal coordinates split by city index: the left child then holds the lower indices of a point
  // shared by many cities, which min_city lets the queries use.
  std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                   [&](int32_t a, int32_t b) {
                     const double ca = coords_[static_cast<size_t>(a) * dims_ + axis],
                                  cb = coords_[static_cast<size_t>(b) * dims_ + axis];
                     return ca < cb || (ca == cb && a < b);
                   });
  const double split = coords_[static_cast<size_t>(order_[mid]) * dims_ + axis];
  const int left = build(begin, mid, stop);
  const int right = build(mid, end, stop);
  nodes_[id].axis = axis;
  nodes_[id].split = split;
  nodes_[id].left = left;
  nodes_[id].right = right;
  nodes_[id].min_city = std::min(nodes_[left].min_city, nodes_[right].min_city);
  return id;
}

double KdTree::key_distance(int a, int b) const {
  const double* p = &coords_[static_cast<size_t>(a) * dims_];
  const double* q = &coords_[static_cast<size_t>(b) * dims_];
  double d = 0.0;
  for (int i = 0; i < dims_; ++i) {
    const double g = std::fabs(p[i] - q[i]);
    switch (metric_) {
      case Metric::L1:
        d += g;
        break;
      case Metric::L2:
        d += g * g;
        break;
      case Metric::LInf:
        d = std::max(d, g);
        break;
    }
  }
  return d;
}

double KdTree::box_key(const double* q, int node) const {
  const Node& box = nodes_[node];
  double d = 0.0;
  for (int a = 0; a < dims_; ++a) {
    const double g = q[a] < box.lo[a] ? box.lo[a] - q[a] : q[a] > box.hi[a] ? q[a] - box.hi[a] : 0.0;
    if (metric_ == Metric::L1) d += g;
    else if (metric_ == Metric::L2) d += g * g;
    else d = std::max(d, g);
  }
  return d;
}

KdTree::Visit KdTree::visit_order(const double* q, const Node& node) const {
  const double left = box_key(q, node.left), right = box_key(q, node.right);
  if (left < right || (left == right && nodes_[node.left].min_city <= nodes_[node.right].min_city))
    return {node.left, node.right, left, right};
  return {node.right, node.left, right, left};
}

std::vector<int32_t> KdTree::k_nearest(int city, int k) const { return k_nearest_where(city, k, -1); }

int KdTree::quadrant_of(int city, int other) const {
  const double* q = &coords_[static_cast<size_t>(city) * dims_];
  const double* p = &coords_[static_cast<size_t>(other) * dims_];
  if (!geo_) return (p[0] >= q[0] ? 0 : 1) | (p[1] >= q[1] ? 0 : 2);
  // East and north at q, scaled by cos(latitude) > 0 (signs are all that matter):
  // east = (-q1, q0, 0), north = (-q2 q0, -q2 q1, q0^2 + q1^2).
  const double d[3] = {p[0] - q[0], p[1] - q[1], p[2] - q[2]};
  const double east = -q[1] * d[0] + q[0] * d[1];
  const double north = -q[2] * q[0] * d[0] - q[2] * q[1] * d[1] + (q[0] * q[0] + q[1] * q[1]) * d[2];
  return (east >= 0 ? 0 : 1) | (north >= 0 ? 0 : 2);
}

std::vector<int32_t> KdTree::k_nearest_in_quadrant(int city, int quadrant, int k) const {
  FORMICA_EXPECTS(has_quadrants() && quadrant >= 0 && quadrant < 4,
                  "quadrant queries need planar or GEO coordinates");
  return k_nearest_where(city, k, quadrant);
}

std::vector<int32_t> KdTree::k_nearest_where(int city, int k, int quadrant) const {
  switch (metric_) {
    case Metric::L1:
      return k_nearest_in<2, Metric::L1>(city, k, quadrant);
    case Metric::LInf:
      return k_nearest_in<2, Metric::LInf>(city, k, quadrant);
    case Metric::L2:
      break;
  }
  return dims_ == 3 ? k_nearest_in<3, Metric::L2>(city, k, quadrant)
                    : k_nearest_in<2, Metric::L2>(city, k, quadrant);
}

/// key_distance for one metric and dimension, inlined into the queries.
template <int Dims, KdTree::Metric M>
double KdTree::metric_key(const double* p, const double* q) {
  double d = 0.0;
  for (int i = 0; i < Dims; ++i) {
    const double g = std::fabs(p[i] - q[i]);
    if constexpr (M == Metric::L1)
      d += g;
    else if constexpr (M == Metric::L2)
      d += g * g;
    else
      d = std::max(d, g);
  }
  return d;
}

template <int Dims, KdTree::Metric M>
std::vector<int32_t> KdTree::k_nearest_in(int city, int k, int quadrant) const {
  const int n = static_cast<int>(order_.size());
  k = std::clamp(k, 0, n - 1);
  BestK best(k);
  const double* q = &coords_[static_cast<size_t>(city) * Dims];
  const auto distance = [q](const double* p) { return metric_key<Dims, M>(p, q); };
  // Quadrant side per axis: true keeps coordinates >= the query's, false those below it.
  const bool upper[2] = {(quadrant & 1) == 0, (quadrant & 2) == 0};
  const auto inside = [&](int32_t other, const double* p) {
    if (quadrant < 0) return true;
    if (geo_) return quadrant_of(city, other) == quadrant;
    return (p[0] >= q[0]) == upper[0] && (p[1] >= q[1]) == upper[1];
  };
  auto visit = [&](auto&& self, int v) -> void {
    const Node& node = nodes_[v];
    if (node.left < 0) {
      for (int p = node.begin; p < node.end; ++p) {
        const int32_t other = order_[p];
        const double* at = &ordered_coords_[static_cast<size_t>(p) * Dims];
        if (other == city || !inside(other, at)) continue;
        best.offer(distance(at), other);
      }
      return;
    }
    const auto [near, far, near_key, far_key] = visit_order(q, node);
    // A planar quadrant rules out a child whose box lies outside it (a GEO quadrant is a
    // half-space through the sphere's point, not along an axis: only distances prune there).
    const auto may_hold = [&](int child) {
      if (quadrant < 0 || geo_) return true;
      const Node& box = nodes_[child];
      return (upper[0] ? box.hi[0] >= q[0] : box.lo[0] < q[0]) && (upper[1] ? box.hi[1] >= q[1] : box.lo[1] < q[1]);
    };
    if (may_hold(near) && best.may_take(near_key, nodes_[near].min_city)) self(self, near);
    if (may_hold(far) && best.may_take(far_key, nodes_[far].min_city)) self(self, far);
  };
  if (k > 0) visit(visit, 0);
  return std::move(best).cities();
}

std::vector<int32_t> KdTree::quadrant_neighbours(int city, int share, int k) const {
  FORMICA_EXPECTS(has_quadrants(), "quadrant queries need planar or GEO coordinates");
  switch (metric_) {
    case Metric::L1:
      return quadrant_neighbours_in<2, Metric::L1>(city, share, k);
    case Metric::LInf:
      return quadrant_neighbours_in<2, Metric::LInf>(city, share, k);
    case Metric::L2:
      break;
  }
  return geo_ ? quadrant_neighbours_in<3, Metric::L2>(city, share, k)
              : quadrant_neighbours_in<2, Metric::L2>(city, share, k);
}

template <int Dims, KdTree::Metric M>
std::vector<int32_t> KdTree::quadrant_neighbours_in(int city, int share, int k) const {
  const int n = static_cast<int>(order_.size());
  k = std::clamp(k, 0, n - 1);
  share = std::clamp(share, 0, n - 1);
  BestK nearest(k);
  BestK quadrant[4] = {BestK(share), BestK(share), BestK(share), BestK(share)};
  const double* q = &coords_[static_cast<size_t>(city) * Dims];
  const auto distance = [q](const double* p) { return metric_key<Dims, M>(p, q); };
  // Whether a subtree at least `gap` away can still give a list a city: the nearest list, or the
  // list of a quadrant in `quadrants` (a bit per quadrant).
  const auto wanted = [&](double gap, int quadrants, int32_t min_city) {
    if (k > 0 && nearest.may_take(gap, min_city)) return true;
    for (int c = 0; c < 4; ++c)
      if ((quadrants >> c & 1) && share > 0 && quadrant[c].may_take(gap, min_city)) return true;
    return false;
  };
  auto visit = [&](auto&& self, int v) -> void {
    const Node& node = nodes_[v];
    if (node.left < 0) {
      for (int p = node.begin; p < node.end; ++p) {
        const int32_t other = order_[p];
        if (other == city) continue;
        const double* at = &ordered_coords_[static_cast<size_t>(p) * Dims];
        const double d = distance(at);
        nearest.offer(d, other);
        const int c = geo_ ? quadrant_of(city, other) : (at[0] >= q[0] ? 0 : 1) | (at[1] >= q[1] ? 0 : 2);
        quadrant[c].offer(d, other);
      }
      return;
    }
    const auto [near, far, near_key, far_key] = visit_order(q, node);
    // The quadrants a child's box meets (planar); a GEO quadrant is not an axis half, so any.
    const auto quadrants_of = [&](int child) {
      if (geo_) return 0xF;
      const Node& box = nodes_[child];
      const bool x_up = box.hi[0] >= q[0], x_down = box.lo[0] < q[0];
      const bool y_up = box.hi[1] >= q[1], y_down = box.lo[1] < q[1];
      return (x_up && y_up ? 1 : 0) | (x_down && y_up ? 2 : 0) | (x_up && y_down ? 4 : 0) | (x_down && y_down ? 8 : 0);
    };
    if (wanted(near_key, quadrants_of(near), nodes_[near].min_city)) self(self, near);
    if (wanted(far_key, quadrants_of(far), nodes_[far].min_city)) self(self, far);
  };
  visit(visit, 0);
  // Each quadrant's share, then the nearest others up to k; all nearest first.
  std::vector<std::pair<double, int32_t>> chosen;
  for (const BestK& list : quadrant)
    for (int p = 0; p < list.size(); ++p) chosen.emplace_back(list.distance(p), list.city(p));
  const size_t quadrant_count = chosen.size();
  for (int p = 0; p < nearest.size() && static_cast<int>(chosen.size()) < k; ++p) {
    const int32_t c = nearest.city(p);
    if (std::none_of(chosen.begin(), chosen.begin() + static_cast<ptrdiff_t>(quadrant_count),
                     [c](const auto& e) { return e.second == c; }))
      chosen.emplace_back(nearest.distance(p), c);
  }
  std::sort(chosen.begin(), chosen.end());
  chosen.resize(std::min(chosen.size(), static_cast<size_t>(k)));
  std::vector<int32_t> result(chosen.size());
  for (size_t i = 0; i < chosen.size(); ++i) result[i] = chosen[i].second;
  return result;
}

int KdTree::nearest_alive(int city) const {
  const double* q = &coords_[static_cast<size_t>(city) * dims_];
  double best_d = std::numeric_limits<double>::infinity();
  int best = -1;
  auto visit = [&](auto&& self, int v) -> void {
    const Node& node = nodes_[v];
    if (node.alive == 0) return;
    if (node.left < 0) {
      for (int p = node.begin; p < node.end; ++p) {
        const int32_t other = order_[p];
        if (other == city || removed_[other]) continue;
        const double d = key_distance(city, other);
        if (d < best_d || (d == best_d && other < best)) best_d = d, best = other;
      }
      return;
    }
    const auto [near, far, near_key, far_key] = visit_order(q, node);
    const auto may_hold = [&](int child, double key) {
      return key < best_d || (key == best_d && nodes_[child].min_city < best);
    };
    if (may_hold(near, near_key)) self(self, near);
    if (may_hold(far, far_key)) self(self, far);
  };
  visit(visit, 0);
  return best;
}

void KdTree::remove(int city) {
  if (removed_[city]) return;
  removed_[city] = 1;
  for (int v = leaf_of_[city]; v >= 0; v = parent_[v]) --nodes_[v].alive;
}

}  // namespace formica
