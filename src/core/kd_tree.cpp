// KdTree construction and queries (see kd_tree.h).
#include "core/kd_tree.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

#include "core/error.h"

namespace formica {
namespace {

constexpr int kLeafSize = 8;

}  // namespace

KdTree::KdTree(const Instance& instance) {
  FORMICA_EXPECTS(instance.has_coordinates(), "a k-d tree needs coordinates; ",
                  instance.name(), " is EXPLICIT");
  const int n = instance.base_n();
  const auto x = instance.x(), y = instance.y(), z = instance.z();
  switch (instance.type()) {
    case EdgeWeightType::Man2D: metric_ = Metric::L1; dims_ = 2; break;
    case EdgeWeightType::Max2D: metric_ = Metric::LInf; dims_ = 2; break;
    case EdgeWeightType::Euc3D: metric_ = Metric::L2; dims_ = 3; break;
    case EdgeWeightType::Geo: metric_ = Metric::L2; dims_ = 3, geo_ = true; break;
    default: metric_ = Metric::L2; dims_ = 2; break;
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
  build(0, n);
  parent_.assign(nodes_.size(), -1);
  for (size_t v = 0; v < nodes_.size(); ++v) {
    if (nodes_[v].left >= 0) parent_[nodes_[v].left] = static_cast<int32_t>(v);
    if (nodes_[v].right >= 0) parent_[nodes_[v].right] = static_cast<int32_t>(v);
  }
}

int KdTree::build(int begin, int end) {
  const int id = static_cast<int>(nodes_.size());
  nodes_.push_back(Node{begin, end, -1, -1, 0, 0.0, end - begin});
  if (end - begin <= kLeafSize) {
    for (int p = begin; p < end; ++p) leaf_of_[order_[p]] = id;
    return id;
  }
  // Split along the axis of largest spread, at the median.
  int axis = 0;
  double widest = -1.0;
  for (int a = 0; a < dims_; ++a) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (int p = begin; p < end; ++p) {
      const double v = coords_[static_cast<size_t>(order_[p]) * dims_ + a];
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    if (hi - lo > widest) widest = hi - lo, axis = a;
  }
  const int mid = begin + (end - begin) / 2;
  std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end,
                   [&](int32_t a, int32_t b) {
                     return coords_[static_cast<size_t>(a) * dims_ + axis] <
                            coords_[static_cast<size_t>(b) * dims_ + axis];
                   });
  const double split = coords_[static_cast<size_t>(order_[mid]) * dims_ + axis];
  const int left = build(begin, mid);
  const int right = build(mid, end);
  nodes_[id].axis = axis;
  nodes_[id].split = split;
  nodes_[id].left = left;
  nodes_[id].right = right;
  return id;
}

double KdTree::key_distance(int a, int b) const {
  const double* p = &coords_[static_cast<size_t>(a) * dims_];
  const double* q = &coords_[static_cast<size_t>(b) * dims_];
  double d = 0.0;
  for (int i = 0; i < dims_; ++i) {
    const double g = std::fabs(p[i] - q[i]);
    switch (metric_) {
      case Metric::L1: d += g; break;
      case Metric::L2: d += g * g; break;
      case Metric::LInf: d = std::max(d, g); break;
    }
  }
  return d;
}

double KdTree::axis_gap(double gap) const { return metric_ == Metric::L2 ? gap * gap : gap; }

std::vector<int32_t> KdTree::k_nearest(int city, int k) const {
  return k_nearest_where(city, k, -1);
}

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
  const int n = static_cast<int>(order_.size());
  k = std::clamp(k, 0, n - 1);
  // Max-heap of the best k so far, ordered by (distance, index).
  using Entry = std::pair<double, int32_t>;
  std::priority_queue<Entry> best;
  const double* q = &coords_[static_cast<size_t>(city) * dims_];
  // Quadrant side per axis: true keeps coordinates >= the query's, false those below it.
  const bool upper[2] = {(quadrant & 1) == 0, (quadrant & 2) == 0};
  const auto inside = [&](int32_t other) { return quadrant < 0 || quadrant_of(city, other) == quadrant; };
  auto visit = [&](auto&& self, int v) -> void {
    const Node& node = nodes_[v];
    if (node.left < 0) {
      for (int p = node.begin; p < node.end; ++p) {
        const int32_t other = order_[p];
        if (other == city || !inside(other)) continue;
        const Entry e{key_distance(city, other), other};
        if (static_cast<int>(best.size()) < k) best.push(e);
        else if (e < best.top()) best.pop(), best.push(e);
      }
      return;
    }
    const double diff = q[node.axis] - node.split;
    const int near = diff < 0 ? node.left : node.right;
    const int far = diff < 0 ? node.right : node.left;
    // The left child holds coordinates <= split, the right one >= split: a planar quadrant that
    // keeps only one side of the query's coordinate can rule a child out (a GEO quadrant is a
    // half-space through the sphere's point, not along an axis: only distances prune there).
    const auto may_hold = [&](int child) {
      if (quadrant < 0 || geo_) return true;
      const bool up = upper[node.axis];
      if (child == node.left) return !up || node.split >= q[node.axis];
      return up || node.split < q[node.axis];
    };
    if (may_hold(near)) self(self, near);
    if (may_hold(far) && (static_cast<int>(best.size()) < k || axis_gap(std::fabs(diff)) <= best.top().first))
      self(self, far);
  };
  if (k > 0) visit(visit, 0);
  std::vector<int32_t> result(best.size());
  for (size_t i = result.size(); i-- > 0;) result[i] = best.top().second, best.pop();
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
    const double diff = q[node.axis] - node.split;
    const int near = diff < 0 ? node.left : node.right;
    const int far = diff < 0 ? node.right : node.left;
    self(self, near);
    if (axis_gap(std::fabs(diff)) <= best_d) self(self, far);
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
