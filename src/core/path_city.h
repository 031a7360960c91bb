// SPDX-License-Identifier: MIT
// The path city of an instance (Instance::with_path_city) where code reads coordinates: it has
// none, so tours built from coordinates get it inserted afterwards, and lists built from a k-d tree
// over the other cities get it placed by its distance. Called by core/candidates.cpp,
// core/nearest_neighbour.cpp and core/space_filling_curve.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "core/instance.h"

namespace formica {

class KdTree;

/// `tour`, a tour of every city but the path city, with the path city inserted where it adds least:
/// for free ends in place of the longest edge, for fixed ends beside one. O(n). Leaves `tour` as it
/// is for an instance without a path city.
void insert_path_city(const Instance& instance, std::vector<int32_t>& tour);

/// `list`, the nearest other cities of `city` (not the path city) nearest first, with the path city
/// placed among them by its exact distance (after any other city at the same distance), then cut
/// to `k`. A city the path may end at lists it first (distance 0); another only when `list` holds
/// every other city.
void place_path_city(const Instance& instance, int city, std::vector<int32_t>& list, int k);

/// k neighbours of the path city, all at the same distance (0 for free ends, the penalty after the
/// ends for fixed ones), so any k are its nearest: the fixed ends and their nearest cities, or for
/// free ends the extreme cities of the instance in k directions (where a path's ends tend to lie),
/// filled up with their nearest. `tree` is over the instance's other cities. O(n k).
std::vector<int32_t> path_city_neighbours(const Instance& instance, const KdTree& tree, int k);

}  // namespace formica
