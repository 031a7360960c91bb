// SPDX-License-Identifier: MIT
// The dummy-city transformation of open paths and fixed endpoints (see path_transform.h).
#include "core/path_transform.h"

#include <algorithm>
#include <numbers>
#include <limits>

#include "core/error.h"
#include "core/memory.h"

namespace formica {

void validate_path_ends(const PathEnds& ends, int n, const PathEndNames& names) {
  const auto check = [&](const std::optional<int64_t>& city, std::string_view option) {
    if (!city) return;
    FORMICA_EXPECTS(*city >= 0 && *city < n, option, " ", *city + names.first_city,
                    ": no such city; the instance's cities are ", names.first_city, "..",
                    n - 1 + names.first_city);
  };
  check(ends.start, names.start);
  check(ends.end, names.end);
  FORMICA_EXPECTS(!ends.start || !ends.end || *ends.start != *ends.end, names.start, " and ", names.end,
                  " name the same city ", *ends.start + names.first_city,
                  ": a path from a city back to itself is a closed tour (leave out ", names.end, ")");
}

std::vector<int32_t> honour_ends(std::vector<int32_t> path, const PathEnds& ends, bool may_reverse) {
  if (path.empty()) return path;
  if (may_reverse && ((ends.start && path.back() == *ends.start) || (ends.end && path.front() == *ends.end)))
    std::reverse(path.begin(), path.end());
  if (ends.start && path.front() != *ends.start)
    std::rotate(path.begin(), std::find(path.begin(), path.end(), *ends.start), path.end());
  if (ends.end && path.back() != *ends.end) {
    const auto at = std::find(path.begin(), path.end(), *ends.end);
    std::rotate(at, at + 1, path.end());
  }
  return path;
}

int64_t path_length(const Instance& instance, std::span<const int32_t> order) {
  int64_t length = 0;
  for (size_t i = 1; i < order.size(); ++i) length += instance.distance(order[i - 1], order[i]);
  return length;
}

int64_t longest_edge_bound(const Instance& instance) {
  const int n = instance.n();
  if (instance.type() == EdgeWeightType::Explicit || instance.has_path_city()) {
    int64_t longest = 0;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) longest = std::max(longest, instance.distance(i, j));
    return longest;
  }
  // c(0, 0, 0, pi): the cosine term is -1, the longest arc TSPLIB's formula gives.
  if (instance.type() == EdgeWeightType::Geo) return tsplib::geo(0.0, 0.0, 0.0, std::numbers::pi);
  const auto span = [](std::span<const double> v) {
    if (v.empty()) return 0.0;
    const auto [low, high] = std::minmax_element(v.begin(), v.end());
    return *high - *low;
  };
  const double dx = span(instance.x()), dy = span(instance.y()), dz = span(instance.z());
  switch (instance.type()) {
    case EdgeWeightType::Euc2D: return tsplib::euc_2d(dx, dy);
    case EdgeWeightType::Ceil2D: return tsplib::ceil_2d(dx, dy);
    case EdgeWeightType::Att: return tsplib::att(dx, dy);
    case EdgeWeightType::Man2D: return tsplib::man_2d(dx, dy);
    case EdgeWeightType::Max2D: return tsplib::max_2d(dx, dy);
    case EdgeWeightType::Euc3D: return tsplib::euc_3d(dx, dy, dz);
    case EdgeWeightType::Geo:
    case EdgeWeightType::Explicit: break;
  }
  return 0;
}

PathTransform::Built PathTransform::build(const Instance& instance, const PathEnds& ends, const PathEndNames& names,
                                          PathForm form) {
  validate_path_ends(ends, instance.n(), names);
  const int n = instance.n();
  const int64_t longest = longest_edge_bound(instance);
  // Coordinate instances keep their distances within 2e9; EXPLICIT ones within int32.
  FORMICA_EXPECTS(longest < std::numeric_limits<int32_t>::max(), "the longest edge of ", instance.name(), " (",
                  longest, ") leaves no room in 32 bits for the dummy city's penalty of an open path");
  const auto penalty = static_cast<int32_t>(longest + 1);
  // With no fixed end a path may end anywhere; otherwise only at the fixed ones.
  std::vector<int32_t> fixed;
  for (const auto& end : {ends.start, ends.end})
    if (end) fixed.push_back(static_cast<int32_t>(*end));
  Instance implicit = Instance::with_path_city(instance, fixed, penalty);
  if (form == PathForm::Implicit) return {std::move(implicit), penalty};
  const size_t m = static_cast<size_t>(n) + 1;
  expect_memory(dense_path_bytes(n), available_host_memory(),
                concat("the open path's ", m, " x ", m, " distance matrix (", instance.name(), " and one dummy city)"));
  std::vector<int32_t> weights(m * m, 0);
  // Row by row on every core, each row written in order (both halves: twice the distances, but
  // no strided writes): 20,000 cities took seconds one strided half at a time on one core.
  // The cities' own distances from the instance itself (the path city's test costs as much as a
  // distance), the dummy city's row and column from the transformation.
#pragma omp parallel for schedule(dynamic, 64)
  for (size_t i = 0; i < m - 1; ++i) {
    int32_t* row = weights.data() + i * m;
    for (size_t j = 0; j < m - 1; ++j)
      if (j != i) row[j] = static_cast<int32_t>(instance.distance(static_cast<int>(i), static_cast<int>(j)));
  }
  for (size_t j = 0; j < m - 1; ++j)
    weights[(m - 1) * m + j] = weights[j * m + m - 1] =
        static_cast<int32_t>(implicit.distance(n, static_cast<int>(j)));
  return {Instance::from_matrix(instance.name(), n + 1, std::move(weights)), penalty};
}

PathTransform::PathTransform(const Instance& instance, const PathEnds& ends, const PathEndNames& names,
                             PathForm form)
    : PathTransform(build(instance, ends, names, form), ends, instance.n()) {}

PathTransform::PathTransform(Built built, const PathEnds& ends, int n)
    : ends_(ends),
      n_(n),
      penalty_(built.penalty),
      offset_(ends.start.has_value() != ends.end.has_value() ? built.penalty : 0),
      transformed_(std::move(built.instance)) {}

std::vector<int32_t> PathTransform::path(std::span<const int32_t> tour) const {
  const auto dummy = std::find(tour.begin(), tour.end(), n_);
  std::vector<int32_t> path(dummy + 1, tour.end());
  path.insert(path.end(), tour.begin(), dummy);
  return honour_ends(std::move(path), ends_, true);
}

}  // namespace formica
